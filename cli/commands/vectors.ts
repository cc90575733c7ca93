/**
 * `ccs-conformance vectors --out DIR`: writes the known-answer vectors (cli/vectors.ts, with the
 * host fault model's, cli/fault-vectors.ts) as JSON, one file per signing mode, for verifiers
 * written in any language. Format: docs/vectors.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isCcsError } from '../../spec/index.ts';
import { type FlagSpec, HELP_FLAG, helpText, parseOrHelp, str, usageError } from '../args.ts';
import { buildVectors } from '../vectors.ts';

export const VECTORS_FLAGS: FlagSpec[] = [
  {
    name: 'out',
    kind: 'string',
    value: 'DIR',
    help: 'folder to write hmac.json and jws.json into (created if missing)',
  },
  HELP_FLAG,
];

export const VECTORS_HELP = helpText(
  'ccs-conformance vectors --out DIR',
  'Writes known-answer vectors (HMAC, JWS with its JWKS, the facts request line), each with its expected verdict, at fixed timestamps: known answers, then one per signature row of the host fault model in each mode it applies to. Made with test-only fixture secrets and keys.',
  VECTORS_FLAGS,
  ['Format: docs/vectors.md of the package. Exit codes: 0 written; 2 usage error.'],
);

export async function run(argv: string[]): Promise<number> {
  try {
    const p = parseOrHelp(argv, VECTORS_FLAGS, VECTORS_HELP);
    if (!p) return 0;
    const out = str(p, 'out');
    if (!out) throw usageError('--out DIR is required');
    const dir = resolve(out);
    mkdirSync(dir, { recursive: true });
    for (const [name, file] of Object.entries(await buildVectors())) {
      writeFileSync(join(dir, name), JSON.stringify(file, null, 2) + '\n');
      process.stdout.write(`${join(dir, name)}: ${file.vectors.length} ${file.mode} vectors\n`);
    }
    return 0;
  } catch (error) {
    if (isCcsError(error) && error.code === 'CLI_USAGE') {
      process.stderr.write(`ccs-conformance vectors: ${error.message}\n(see ccs-conformance vectors --help)\n`);
      return 2;
    }
    throw error;
  }
}
