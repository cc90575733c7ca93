/**
 * The two versions a release gate records with every report: the harness's (its package.json,
 * found from this module's location, so the clone and the installed package both answer) and the
 * clause catalogue's (`version:` of spec/clauses.yaml).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseYamlCached } from './yaml-cache.ts';
import { specPath } from './paths.ts';

const PACKAGE_NAME = 'ccs-conformance';
let cachedHarness: string | undefined;

/** `version` of the nearest package.json named ccs-conformance above spec/ (source or dist/spec). */
export function harnessVersion(): string {
  if (cachedHarness) return cachedHarness;
  let dir = dirname(specPath('clauses.yaml'));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return (cachedHarness = pkg.version);
    }
    const up = dirname(dir);
    if (up === dir) return (cachedHarness = '0.0.0-unknown');
    dir = up;
  }
}

/** `version:` of a clause catalogue (default spec/clauses.yaml), as a string; 'unversioned' without one. */
export function clauseCatalogueVersion(file: string = specPath('clauses.yaml')): string {
  try {
    const doc = parseYamlCached(readFileSync(file, 'utf8')) as { version?: unknown } | null;
    return doc && (typeof doc.version === 'number' || typeof doc.version === 'string')
      ? String(doc.version)
      : 'unversioned';
  } catch {
    return 'unversioned';
  }
}
