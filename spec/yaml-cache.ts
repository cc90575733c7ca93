/**
 * YAML text parsed once per content. Every Playwright worker loads spec/openapi.yaml,
 * spec/clauses.yaml and the fault models, and the mutation matrix starts a worker per seeded
 * fault: parsing them is half a second of each start. The parsed value is kept as JSON in a
 * folder of the user's own under the system's temporary directory, named by a hash of the text
 * and the parse options, and read back with JSON.parse. A value JSON cannot hold exactly (a
 * non-finite number) is never kept; a folder that cannot be written only costs the parse.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFirstUse } from './on-first-use.ts';

/** The options every document of spec/ is parsed with: a duplicated key is an error, aliases unbounded. */
const OPTIONS = { uniqueKeys: true, maxAliasCount: -1 } as const;
const DIR = join(tmpdir(), `ccs-conformance-yaml-${process.getuid?.() ?? 'user'}`);
/**
 * The YAML library, loaded on first use: a test worker reads every document of spec/ back from the
 * folder above, so most never need it, and loading it is some 50 ms of each worker's start.
 */
const yamlLibrary = onFirstUse<typeof import('yaml')>('yaml');

/**
 * YAML.parse with the library's defaults (a target file, a script, a fixture), loaded on first use. Throws what
 * YAML.parse throws.
 */
export function parseYaml(text: string): unknown {
  return yamlLibrary().parse(text);
}

/** The parse as JSON text, by key, for this process. */
const memo = new Map<string, string>();

/** The value of a YAML text (YAML.parse with OPTIONS); a fresh copy on every call. Throws what YAML.parse throws. */
export function parseYamlCached(text: string): unknown {
  const key = createHash('sha256')
    .update(`${JSON.stringify(OPTIONS)}\n`)
    .update(text)
    .digest('hex');
  const known = memo.get(key) ?? readKept(key);
  if (known !== undefined) {
    memo.set(key, known);
    return JSON.parse(known);
  }
  const value: unknown = yamlLibrary().parse(text, OPTIONS);
  let exact = true;
  const json = JSON.stringify(value, (_k, v: unknown) => {
    if ((typeof v === 'number' && !Number.isFinite(v)) || v === undefined) exact = false;
    return v;
  });
  if (exact && json !== undefined) {
    memo.set(key, json);
    keep(key, json);
  }
  return value;
}

function readKept(key: string): string | undefined {
  try {
    return readFileSync(join(DIR, `${key}.json`), 'utf8');
  } catch {
    return undefined;
  }
}

function keep(key: string, json: string): void {
  try {
    mkdirSync(DIR, { recursive: true, mode: 0o700 });
    // Written aside and renamed: a worker reading at the same moment sees the whole file or none.
    const aside = join(DIR, `${key}.${process.pid}.tmp`);
    writeFileSync(aside, json, { mode: 0o600 });
    renameSync(aside, join(DIR, `${key}.json`));
  } catch {
    // A temporary directory that cannot be written: the next start parses again.
  }
}
