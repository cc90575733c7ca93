/**
 * Generates docs/configuration.md (from the target file's JSON Schema,
 * suites/service/target/target.schema.json) and docs/clauses.md (from spec/clauses.yaml).
 * `tsx reports/generate-docs.ts` writes them; `--check` exits 1 when they are out of date
 * (suites/self/reports/docs.spec.ts runs the same comparison).
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClauseInput } from './model.ts';
import { areaOf } from './model.ts';
import { loadClauses } from './load-clauses.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TARGET_SCHEMA = join(ROOT, 'suites', 'service', 'target', 'target.schema.json');
export const DOCS_DIR = join(ROOT, 'docs');

type Schema = {
  type?: string | string[]; description?: string; title?: string; properties?: Record<string, Schema>; required?: string[];
  $ref?: string; oneOf?: Schema[]; anyOf?: Schema[]; items?: Schema; enum?: unknown[]; const?: unknown; pattern?: string;
  minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number; minLength?: number; maxLength?: number;
  default?: unknown; definitions?: Record<string, Schema>; $defs?: Record<string, Schema>; additionalProperties?: boolean | Schema;
};

/**
 * Meanings for fields whose schema has no `description` (the schema's own description wins; add
 * descriptions to target.schema.json and these fall away).
 */
const MEANINGS: Record<string, string> = {
  description: 'A name for the target, shown in reports (never put a secret here).',
  service: 'Where the service under test answers.',
  'service.baseUrl': 'Base URL of the service routes of contract section 4.2.',
  'service.driverUrl': 'Base URL of the driver (control) API, spec/driver.openapi.yaml; without it only what needs no driver runs.',
  'service.apiKeyHeader': 'Header carrying the API key on upload calls (contract 5.1).',
  workspaces: 'Credentials of existing workspaces, when the driver does not create them.',
  'workspaces.production': 'The production workspace.',
  'workspaces.sandbox': 'A sandbox workspace whose parent is the production one.',
  workspaceKey: 'The workspaceKey of the workspace.',
  workspaceId: 'The workspace id used in delivery ids (uf-<workspaceId>-...).',
  apiKey: 'API key for upload calls.',
  bearerToken: 'Bearer token for the data API.',
  embedAuthorization: 'Authorization header value for embed-tokens.',
  hmacSecret: 'HMAC secret the service signs callbacks with (contract 5.2).',
  hookPath: 'The callback hook path the host exposes (contract 4.1).',
  signing: 'How callbacks are signed when not by HMAC.',
  'signing.jwksUrl': 'JWKS URL of the service keys for ES256 compact-JWS signatures (contract 5.2).',
  mockHost: 'How the service reaches the harness\'s mock host.',
  'mockHost.listenHost': 'Interface the mock host listens on.',
  'mockHost.port': 'Port the mock host listens on (0: any free port).',
  'mockHost.publicUrl': 'URL the service uses to reach the mock host (hostBaseUrl), when it differs from the listen address.',
  timing: 'Time scale and tolerances for timing clauses.',
  'timing.timeScale': 'Multiplies every contract duration, when the driver does not declare one.',
  'timing.tolerances': 'Tolerances of timing assertions.',
  'timing.tolerances.minMs': 'Smallest tolerance in milliseconds.',
  'timing.tolerances.relative': 'Tolerance as a fraction of the expected duration.',
  limits: 'How the service counts limits the contract leaves open.',
  'limits.megabyte': 'Bytes in a megabyte for the upload size limit (contract 8).',
  organizationId: 'Organization ids to use in tests.',
  'organizationId.valid': 'An organization id the service accepts (org- prefix).',
  'organizationId.invalid': 'An organization id the service must refuse.',
};

function meaning(path: string): string {
  return MEANINGS[path] ?? MEANINGS[path.split('.').at(-1) ?? ''] ?? '';
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function resolveRef(root: Schema, ref: string): { name: string; schema: Schema } {
  const m = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref);
  const table = m ? (m[1] === 'definitions' ? root.definitions : root.$defs) : undefined;
  const schema = m && table ? table[m[2] as string] : undefined;
  if (!schema) throw new Error(`generate-docs: cannot resolve ${ref} in the target schema`);
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

function rows(root: Schema, s: Schema, prefix: string, out: string[]): void {
  const target = s.$ref ? resolveRef(root, s.$ref).schema : s;
  for (const [name, prop] of Object.entries(target.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const required = (target.required ?? []).includes(name) ? 'yes' : '';
    const resolved = prop.$ref ? resolveRef(root, prop.$ref).schema : prop;
    const description = prop.description ?? resolved.description ?? meaning(path);
    out.push(`| \`${path}\` | ${cell(describeType(root, prop))} | ${required} | ${cell(description)} |`);
    if (resolved.properties) rows(root, resolved, path, out);
  }
}

export function renderConfigReference(schema: Schema): string {
  const out = [
    '<!-- Generated by `npm run docs` (reports/generate-docs.ts) from suites/service/target/target.schema.json: do not edit by hand. -->',
    '',
    `# ${schema.title ?? 'Target file reference'}`,
    '',
    schema.description ?? '',
    '',
    'A target file is YAML or JSON, passed as `ccs-conformance run --target FILE` (the suites read it from `CCS_TARGET`).',
    'Unknown fields are refused, and every error names the field (for example `target.yaml: service.baseUrl: must be an absolute http(s) URL`).',
    'Secrets are never printed or written to a report; keep them out of the file with `{ env: NAME }`.',
    '',
    '| field | type | required | meaning |',
    '|---|---|---|---|',
  ];
  rows(schema, schema, '', out);
  out.push('');
  return out.join('\n');
}

export function renderClauseList(clauses: ClauseInput[], areas: Record<string, string>): string {
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
    out.push(`## ${area}: ${areas[area] ?? ''}`.trimEnd(), '', '| id | level | side | section | rule |', '|---|---|---|---|---|');
    for (const c of inArea) out.push(`| ${c.id} | ${c.level} | ${c.side} | §${c.section} | ${cell(c.text)} |`);
    const notes = inArea.filter((c) => c.reading || c.unobservable);
    if (notes.length > 0) {
      out.push('', 'How the harness reads these:', '');
      for (const c of notes) {
        if (c.reading) out.push(`- **${c.id}**: ${cell(c.reading)}`);
        if (c.unobservable) out.push(`- **${c.id}** (not observable from outside): ${cell(c.unobservable)}`);
      }
    }
    out.push('');
  }
  return out.join('\n');
}

/** The docs as they should be: file name -> content. */
export async function generateDocs(): Promise<Record<string, string>> {
  const schema = JSON.parse(readFileSync(TARGET_SCHEMA, 'utf8')) as Schema;
  // The clause list of the repository, never a CCS_CLAUSES_FILE override.
  const { clauses, areas } = await loadClauses();
  return { 'configuration.md': renderConfigReference(schema), 'clauses.md': renderClauseList(clauses, areas) };
}

/** Names of the docs whose file differs from what the generator makes. */
export async function staleDocs(dir = DOCS_DIR): Promise<string[]> {
  const docs = await generateDocs();
  return Object.entries(docs).filter(([name, text]) => !existsSync(join(dir, name)) || readFileSync(join(dir, name), 'utf8') !== text).map(([name]) => name);
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
