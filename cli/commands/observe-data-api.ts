/**
 * `observe --data-api URL --token-env NAME`: after the observation, the records the callbacks named
 * are read back from the service's data API (judge/service/read-back.ts); live, the key each
 * config.deleted names is read as it arrives (read-at-arrival.ts, STATE-7). The Bearer token comes
 * from the environment variable NAME, never from a flag, and is scrubbed from every report.
 */
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
];

/** The read-back's options from the flags, undefined without --data-api; throws a usage error. */
export function dataApiOptions(values: Parsed['flags']): ReadBackOptions | undefined {
  const url = values['data-api'];
  const name = values['token-env'];
  if (url === undefined) {
    if (name !== undefined) throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'token-env', needs: '--data-api URL' });
    return undefined;
  }
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+/.test(url)) {
    const got = `"${String(url)}"`;
    throw ccsError('CLI_FLAG_INVALID', { flag: 'data-api', rule: "the service's http(s) base URL", got });
  }
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    const needs = '--token-env NAME: the environment variable holding the Bearer token';
    throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'data-api', needs });
  }
  const token = process.env[name];
  if (!token) throw ccsError('CLI_ENV_UNSET', { flag: 'token-env', variable: name });
  return { baseUrl: url, token };
}

export async function readBackStep(
  entries: JournalEntry[],
  v: Verdicts,
  o: ReadBackOptions | undefined,
  arrival: ArrivalReads | undefined,
): Promise<void> {
  if (!o) return notReadBack(v);
  await readBack(
    entries.filter((e) => e.kind === 'lifecycle'),
    v,
    o,
    arrival,
  );
}
