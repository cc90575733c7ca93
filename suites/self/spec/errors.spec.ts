import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, ERROR_PREFIXES, SECRET_NAMES, ccsError, type CcsErrorPrefix } from '../../../spec/index.ts';
import { ROOMS } from '../source-files.ts';

/**
 * The error registry (spec/error-codes.ts) is the one place a code is declared: typecheck refuses an
 * undeclared code or parameter; these tests refuse a declared code nobody raises, a site past the
 * registry, a code raised outside its room, a prefix CONTRIBUTING does not list and a template that
 * names a secret.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'out' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...codeFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}

/** The code files that raise errors: the harness's own tests only match on them. */
const SOURCES = codeFiles(ROOT)
  .map((file) => ({ file: relative(ROOT, file).split(sep).join('/'), text: readFileSync(file, 'utf8') }))
  .filter((f) => !f.file.startsWith('suites/self/') && f.file !== 'spec/error-codes.ts');

function sites(): { code: string; file: string }[] {
  const found: { code: string; file: string }[] = [];
  for (const { file, text } of SOURCES) {
    for (const m of text.matchAll(/\bccsError\(\s*'([A-Z_]+)'/g)) found.push({ code: m[1]!, file });
  }
  return found;
}

function prefixOf(code: string): CcsErrorPrefix {
  return code.slice(0, code.indexOf('_')) as CcsErrorPrefix;
}

test('every registered code is raised somewhere, each in a file of its room (errors)', () => {
  const all = sites();
  expect(all.length).toBeGreaterThan(100);
  const raised = new Set(all.map((s) => s.code));
  expect(Object.keys(ERROR_CODES).filter((c) => !raised.has(c))).toEqual([]);
  const astray = all.filter((s) => {
    const rooms: readonly string[] = ERROR_PREFIXES[prefixOf(s.code)]?.rooms ?? [];
    return !rooms.some((room) => s.file.startsWith(room));
  });
  expect(astray.map((s) => `${s.file}: ${s.code}`)).toEqual([]);
});

test('no site builds a CcsError past the registry: no `new` of CcsError or a subclass (errors)', () => {
  // A subclass counts in its own file and where it is imported from there (another room may reuse the name).
  const subclasses: { name: string; home: string }[] = [];
  for (const { file, text } of SOURCES) {
    for (const m of text.matchAll(/class (\w+) extends CcsError\b/g)) subclasses.push({ name: m[1]!, home: file });
  }
  const bypass: string[] = [];
  for (const { file, text } of SOURCES) {
    if (file !== 'spec/errors.ts' && /new CcsError\(/.test(text)) bypass.push(`${file}: new CcsError(`);
    for (const { name, home } of subclasses) {
      const base = home.slice(home.lastIndexOf('/') + 1);
      const imported = new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '[^']*/${base}'`).test(text);
      if ((file === home || imported) && new RegExp(`new ${name}\\(`).test(text)) bypass.push(`${file}: new ${name}(`);
    }
  }
  expect(bypass).toEqual([]);
});

test('every prefix is a room of the layout, and CONTRIBUTING names every prefix and no other (errors)', () => {
  for (const [prefix, { rooms }] of Object.entries(ERROR_PREFIXES)) {
    for (const room of rooms) {
      expect(ROOMS, `${prefix}: ${room}`).toContain(room.split('/')[0]);
      expect(existsSync(join(ROOT, room)), `${prefix}: ${room} exists`).toBe(true);
    }
  }
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const paragraph = /^- Errors:[\s\S]*?(?=\n- |\n\n)/m.exec(contributing)?.[0] ?? '';
  const listed = [...paragraph.matchAll(/`([A-Z]+)_…`/g)].map((m) => m[1]!);
  expect([...listed].sort()).toEqual(Object.keys(ERROR_PREFIXES).sort());
});

test('no template parameter or kept detail is named like a secret (errors)', () => {
  const secret = new Set(SECRET_NAMES.map((n) => n.toLowerCase()));
  const named: string[] = [];
  for (const [code, entry] of Object.entries(ERROR_CODES)) {
    const details: readonly string[] = 'details' in entry ? entry.details : [];
    const names = [...entry.message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    for (const name of [...names, ...details.map((d) => d.replace(/\?$/, ''))]) {
      const n = name.toLowerCase();
      if (secret.has(n) || /secret|token|password|apikey|privatekey|authorization/.test(n))
        named.push(`${code}: ${name}`);
    }
  }
  expect(named).toEqual([]);
});

test('a message is its template filled in, and the details are the parameters the registry names (errors)', () => {
  const e = ccsError('SPEC_REF_UNRESOLVED', { doc: 'spec/openapi.yaml', ref: '#/x', problem: '"#/x" is gone' });
  expect(e.code).toBe('SPEC_REF_UNRESOLVED');
  expect(e.message).toBe('spec/openapi.yaml: "#/x" is gone');
  expect(e.details).toEqual({ ref: '#/x' });
  // A literal brace with a space inside is text, not a parameter.
  expect(ccsError('PROTOCOL_KEYS_INVALID').message).toContain('{ keys: [...] }');
  expect(ccsError('PROTOCOL_KEYS_INVALID').details).toBeUndefined();
  // An optional detail the site leaves undefined is not kept.
  expect(ccsError('SPEC_FAULT_MODEL_INVALID', { file: 'f', row: undefined, problem: 'p' }).details).toEqual({
    file: 'f',
  });
  expect(ccsError('PROTOCOL_SECRET_INVALID', { index: 2, type: 'number' }).message).toBe(
    'secrets[2] must be a string or bytes, got number',
  );
});

/**
 * The rooms of product code: what the CLI and the suites run. SOURCES leaves out suites/self/ (the
 * harness's own tests); bench/ and the recipes of docs/ are no room of the product.
 */
const PRODUCT_ROOMS = [
  'spec/',
  'protocol/',
  'mock-host/',
  'reference-service/',
  'fixtures/',
  'reports/',
  'target/',
  'judge/',
  'cli/',
  'suites/',
];

/** The inspector's page scripts run in the browser, where the registry is not loaded: their errors stay plain. */
const BROWSER_CODE = 'mock-host/ui/page/';

/**
 * Files that still throw a raw Error, each with the reason it is left for now. The list only shrinks:
 * an entry whose file no longer throws one fails the test below until it is dropped.
 */
const RAW_THROW_EXEMPT: Record<string, string> = {};

test('no product room throws a raw Error: every error is a code of the registry (errors)', () => {
  const raw = SOURCES.filter(
    (f) =>
      PRODUCT_ROOMS.some((room) => f.file.startsWith(room)) &&
      !f.file.startsWith(BROWSER_CODE) &&
      /\bthrow\s+new\s+Error\(/.test(f.text),
  ).map((f) => f.file);
  const exempt = new Set(Object.keys(RAW_THROW_EXEMPT));
  expect(
    raw.filter((file) => !exempt.has(file)),
    "throw ccsError('CODE', { ... }) with a code of spec/error-codes.ts",
  ).toEqual([]);
  expect(
    [...exempt].filter((file) => !raw.includes(file)),
    'exempt files that no longer throw a raw Error: drop them from RAW_THROW_EXEMPT',
  ).toEqual([]);
});
