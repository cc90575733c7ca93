/**
 * Generates docs/configuration.md (from the JSON Schemas of both target files,
 * spec/targets/service-target.schema.json and spec/targets/host-target.schema.json: field meanings
 * live in their descriptions) and docs/clauses.md (from spec/clauses.yaml).
 * `tsx reports/generate-docs.ts` writes them; `--check` exits 1 when they are out of date
 * (suites/self/reports/docs.spec.ts runs the same comparison).
 */
import { writeFileSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  HOST_TARGET_SCHEMA,
  SERVICE_TARGET_SCHEMA,
  ccsError,
  loadFaultModel,
  type FaultModelRow,
} from '../spec/index.ts';
import type { ClauseInput } from './model.ts';
import { areaOf } from './model.ts';
import { loadClauses } from './load-clauses.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOCS_DIR = join(ROOT, 'docs');

type Schema = {
  type?: string | string[];
  description?: string;
  title?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  'x-expected'?: string;
  definitions?: Record<string, Schema>;
  $defs?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
};

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function resolveRef(root: Schema, ref: string): { name: string; schema: Schema } {
  const m = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref);
  const table = m ? (m[1] === 'definitions' ? root.definitions : root.$defs) : undefined;
  const schema = m && table ? table[m[2] as string] : undefined;
  if (!schema) throw ccsError('REPORT_DOCS_REF_UNRESOLVED', { ref });
  return { name: m?.[2] as string, schema };
}

function describeType(root: Schema, s: Schema): string {
  if (s.$ref) {
    const { name, schema } = resolveRef(root, s.$ref);
    if (name === 'secret') return 'secret: a string, or `{ env: NAME }` to read it from an environment variable';
    if (name === 'httpUrl') return 'absolute http(s) URL';
    return schema.properties ? `object (${name})` : describeType(root, schema);
  }
  const parts: string[] = [];
  if (s.oneOf && s['x-expected']) return s['x-expected'];
  if (s.oneOf || s.anyOf) parts.push((s.oneOf ?? s.anyOf ?? []).map((x) => describeType(root, x)).join(' or '));
  if (s.type) parts.push(Array.isArray(s.type) ? s.type.join(' or ') : s.type);
  if (s.enum) parts.push(`one of ${s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (s.const !== undefined) parts.push(`always \`${JSON.stringify(s.const)}\``);
  if (s.pattern) parts.push(`matching \`${s.pattern}\``);
  if (s.minLength !== undefined) parts.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.exclusiveMinimum !== undefined) parts.push(`> ${s.exclusiveMinimum}`);
  if (s.minimum !== undefined) parts.push(`>= ${s.minimum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`< ${s.exclusiveMaximum}`);
  if (s.maximum !== undefined) parts.push(`<= ${s.maximum}`);
  if (s.default !== undefined) parts.push(`default \`${JSON.stringify(s.default)}\``);
  return parts.join(', ') || 'any';
}

/**
 * The alternatives of a oneOf as one object for the table: every member of any alternative,
 * required only when every alternative requires it, and a const member (signing.mode) as the list
 * of its values.
 */
function merged(root: Schema, alternatives: Schema[]): Schema {
  const branches = alternatives.map((b) => (b.$ref ? resolveRef(root, b.$ref).schema : b)).filter((b) => b.properties);
  const properties: Record<string, Schema> = {};
  for (const b of branches) {
    for (const [name, prop] of Object.entries(b.properties ?? {})) {
      const seen = properties[name];
      if (seen === undefined)
        properties[name] = prop.const !== undefined ? { enum: [prop.const], description: prop.description } : prop;
      else if (prop.const !== undefined && seen.enum)
        properties[name] = {
          enum: [...seen.enum, prop.const],
          description: [seen.description, prop.description].filter(Boolean).join(' '),
        };
    }
  }
  const required = Object.keys(properties).filter(
    (n) => branches.length > 0 && branches.every((b) => (b.required ?? []).includes(n)),
  );
  return { properties, required };
}

function rows(root: Schema, s: Schema, prefix: string, out: string[]): void {
  const resolvedSelf = s.$ref ? resolveRef(root, s.$ref).schema : s;
  const target = !resolvedSelf.properties && resolvedSelf.oneOf ? merged(root, resolvedSelf.oneOf) : resolvedSelf;
  for (const [name, prop] of Object.entries(target.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const required = (target.required ?? []).includes(name) ? 'yes' : '';
    const resolved = prop.$ref ? resolveRef(root, prop.$ref).schema : prop;
    const description = prop.description ?? resolved.description ?? '';
    out.push(`| \`${path}\` | ${cell(describeType(root, prop))} | ${required} | ${cell(description)} |`);
    // A secret is described in words ({ env: NAME }); its branches are not fields of their own.
    const leaf = prop.$ref !== undefined && resolveRef(root, prop.$ref).name === 'secret';
    if (!leaf && (resolved.properties || resolved.oneOf?.some((b) => b.$ref || b.properties)))
      rows(root, resolved, path, out);
    else if (resolved.type === 'array' && resolved.items) rows(root, resolved.items, `${path}[]`, out);
  }
}

function renderTable(schema: Schema): string[] {
  const out = ['| field | type | required | meaning |', '|---|---|---|---|'];
  rows(schema, schema, '', out);
  return out;
}

export function renderConfigReference(service: Schema, host: Schema): string {
  return [
    '<!-- Generated by `npm run docs` (reports/generate-docs.ts) from spec/targets/service-target.schema.json and spec/targets/host-target.schema.json: do not edit by hand. -->',
    '',
    '# Target files',
    '',
    'Both files are YAML or JSON. Unknown fields are refused, and every error names the field (the command exits 2).',
    'Secrets are never printed or written to a report; keep them out of the file with `{ env: NAME }`.',
    '',
    `## ${service.title ?? 'Service target file'}`,
    '',
    service.description ?? '',
    '',
    'Passed as `ccs-conformance run --target FILE` (the suites read it from `CCS_TARGET`). Example error:',
    '`target.yaml: service.baseUrl: must be an absolute http(s) URL`.',
    '',
    ...renderTable(service),
    '',
    `## ${host.title ?? 'Host target file'}`,
    '',
    host.description ?? '',
    '',
    'Passed as `ccs-conformance host --target FILE` (the suites read it from `CCS_HOST_TARGET`). Example error:',
    "`host target: field 'signing.mode' must be one of hmac, jwks, none`. The older spellings `secretEnv`,",
    '`previousSecretEnv` and `bearerTokenEnv` (the name of an environment variable) are still accepted.',
    '',
    ...renderTable(host),
    '',
  ].join('\n');
}

/** The fault-model rows of some clauses: one line per way, with its check and proof, or why it is not checked. */
function faultRows(rows: readonly FaultModelRow[]): string[] {
  if (rows.length === 0) return [];
  const out = [
    '',
    'What is tried (the fault model, spec/faults/): each way a clause can be broken, the check that catches it and the faulty implementation that proves the check.',
    '',
    '| clause | way it can be broken | applies to | check | proved by |',
    '|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const proof = r.notChecked !== undefined ? `not checked: ${cell(r.notChecked)}` : `\`${r.fault}\``;
    const hint = r.hint
      ? `<br>hint: ${cell(r.hint)}${r.recipe ? ` ([recipe](${r.recipe.replace(/^docs\//, '')}))` : ''}`
      : '';
    out.push(
      `| ${r.clause} | ${cell(r.way)}${hint} | ${cell((r.applies ?? []).join(', '))} | ${r.check ? `\`${r.check}\`` : '-'} | ${proof} |`,
    );
  }
  return out;
}

export function renderClauseList(
  clauses: ClauseInput[],
  areas: Record<string, string>,
  faultModel: readonly FaultModelRow[] = [],
): string {
  const levels = ['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'];
  const count = (l: string) => clauses.filter((c) => c.level === l).length;
  const out = [
    '<!-- Generated by `npm run docs` (reports/generate-docs.ts) from spec/clauses.yaml: do not edit by hand. -->',
    '',
    '# Contract clauses',
    '',
    `${clauses.length} clauses of the contract document "Conversational Configuration Service: Host Integration Contract" (from the service team or the service's documentation; it is not shipped here), with the section each comes from: ${levels.map((l) => `${count(l)} ${l}`).join(', ')}.`,
    'Every conformance test cites the clauses it checks (title and tags); the report gives each clause a status.',
    'UNSPECIFIED marks what the contract says is "not shown": never asserted.',
    '',
  ];
  const order = [...new Set([...Object.keys(areas), ...clauses.map((c) => areaOf(c.id))])];
  for (const area of order) {
    const inArea = clauses.filter((c) => areaOf(c.id) === area);
    if (inArea.length === 0) continue;
    out.push(
      `## ${area}: ${areas[area] ?? ''}`.trimEnd(),
      '',
      '| id | level | side | section | rule |',
      '|---|---|---|---|---|',
    );
    for (const c of inArea) out.push(`| ${c.id} | ${c.level} | ${c.side} | §${c.section} | ${cell(c.text)} |`);
    const notes = inArea.filter((c) => c.reading || c.unobservable);
    if (notes.length > 0) {
      out.push('', 'How the harness reads these:', '');
      for (const c of notes) {
        if (c.reading) out.push(`- **${c.id}**: ${cell(c.reading)}`);
        if (c.unobservable) out.push(`- **${c.id}** (not observable from outside): ${cell(c.unobservable)}`);
      }
    }
    const ids = new Set(inArea.map((c) => c.id));
    out.push(...faultRows(faultModel.filter((r) => ids.has(r.clause))));
    out.push('');
  }
  return out.join('\n');
}

/** The docs as they should be: file name -> content. */
export async function generateDocs(): Promise<Record<string, string>> {
  // The clause list of the repository, never a CCS_CLAUSES_FILE override.
  const { clauses, areas } = await loadClauses();
  const faultModel = [...loadFaultModel('service').rows, ...loadFaultModel('host').rows];
  return {
    'configuration.md': renderConfigReference(SERVICE_TARGET_SCHEMA as Schema, HOST_TARGET_SCHEMA as Schema),
    'clauses.md': renderClauseList(clauses, areas, faultModel),
  };
}

/** Names of the docs whose file differs from what the generator makes. */
export async function staleDocs(dir = DOCS_DIR): Promise<string[]> {
  const docs = await generateDocs();
  return Object.entries(docs)
    .filter(([name, text]) => !existsSync(join(dir, name)) || readFileSync(join(dir, name), 'utf8') !== text)
    .map(([name]) => name);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--check')) {
    const stale = await staleDocs();
    if (stale.length > 0) {
      process.stderr.write(`docs out of date: ${stale.join(', ')} (run npm run docs)\n`);
      process.exitCode = 1;
    }
  } else {
    mkdirSync(DOCS_DIR, { recursive: true });
    for (const [name, text] of Object.entries(await generateDocs())) writeFileSync(join(DOCS_DIR, name), text);
    process.stdout.write(`wrote docs/configuration.md and docs/clauses.md\n`);
  }
}
