/**
 * `observe --data-api URL --token-env NAME` (or `--token-file F`): after the observation, the records the
 * callbacks named are read back from the service's data API (judge/service/read-back.ts); live, the key
 * each config.deleted names is read as it arrives (read-at-arrival.ts, STATE-7). The Bearer token comes
 * from the environment variable NAME or the file F, never from a flag, read when a read is made (a team
 * whose tests create the workspace has its token only then), and is scrubbed from every report.
 */
import { readFileSync } from 'node:fs';
import type { JournalEntry } from '../../mock-host/index.ts';
import {
  notReadBack,
  readBack,
  type ArrivalReads,
  type ReadBackOptions,
  type Verdicts,
} from '../../judge/service/index.ts';
import { ccsError } from '../../spec/index.ts';
import type { FlagSpec, Parsed } from '../args.ts';

export const DATA_API_FLAGS: FlagSpec[] = [
  { name: 'data-api', kind: 'string', value: 'URL', help: "the service's base URL: read back what callbacks name" },
  { name: 'token-env', kind: 'string', value: 'NAME', help: 'environment variable holding the data API Bearer token' },
  { name: 'token-file', kind: 'string', value: 'FILE', help: 'file holding the data API Bearer token' },
];

/** Where the token is: read at each use until it is there, then kept (an empty text is no token). */
function lazyToken(name: string | undefined, file: string | undefined): () => string {
  let kept = '';
  return () => {
    if (kept) return kept;
    if (name !== undefined) kept = process.env[name] ?? '';
    else {
      try {
        kept = readFileSync(file!, 'utf8').trim();
      } catch {
        kept = '';
      }
    }
    return kept;
  };
}

/** Where the token was to be found, in words (never the token). */
export function tokenSource(values: Parsed['flags']): string {
  return typeof values['token-env'] === 'string'
    ? `the environment variable ${values['token-env']}`
    : `the file ${String(values['token-file'])}`;
}

/** The read-back's options from the flags, undefined without --data-api; throws a usage error. */
export function dataApiOptions(values: Parsed['flags']): ReadBackOptions | undefined {
  const url = values['data-api'];
  const name = values['token-env'];
  const file = values['token-file'];
  if (url === undefined) {
    if (name !== undefined) throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'token-env', needs: '--data-api URL' });
    if (file !== undefined) throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'token-file', needs: '--data-api URL' });
    return undefined;
  }
  if (name !== undefined && file !== undefined)
    throw ccsError('CLI_FLAGS_EXCLUSIVE', { flag: 'token-env', other: 'token-file', why: 'the token has one source' });
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+/.test(url)) {
    const got = `"${String(url)}"`;
    throw ccsError('CLI_FLAG_INVALID', { flag: 'data-api', rule: "the service's http(s) base URL", got });
  }
  const fromFile = typeof file === 'string' && file !== '';
  if (!fromFile && (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))) {
    const needs = '--token-env NAME or --token-file F: where the Bearer token is';
    throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'data-api', needs });
  }
  const token = fromFile ? lazyToken(undefined, file) : lazyToken(name as string, undefined);
  return {
    baseUrl: url,
    get token() {
      return token();
    },
  };
}

export async function readBackStep(
  entries: JournalEntry[],
  v: Verdicts,
  o: ReadBackOptions | undefined,
  arrival: ArrivalReads | undefined,
  tokenWords = 'check --token-env or --token-file',
): Promise<void> {
  if (!o) return notReadBack(v);
  if (!o.token) return notReadBack(v, `no Bearer token when the read-back started: ${tokenWords}`);
  await readBack(
    entries.filter((e) => e.kind === 'lifecycle'),
    v,
    o,
    arrival,
  );
}
