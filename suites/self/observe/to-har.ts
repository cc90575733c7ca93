/**
 * A saved observe journal (journal.jsonl) written as a HAR 1.2 file, as a team's proxy or browser
 * tooling would record the same callbacks: every other body base64 (postData.encoding), the monotonic
 * times in `_`-prefixed fields beside startedDateTime and time, the mock host's answer as the response.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { JournalEntry } from '../../../mock-host/index.ts';

export interface HarOptions {
  /** Leave out the raw body of these entries (by index). */
  noBody?: (i: number) => boolean;
  /** Leave out every arrival time (startedDateTime, the `_` times and time). */
  noTimes?: boolean;
}

export function journalToHar(journalFile: string, harFile: string, o: HarOptions = {}): void {
  const lines = readFileSync(journalFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const parsed = lines.map((l) => JSON.parse(l) as JournalEntry & { observeEnd?: { monoNs: string } });
  const end = parsed.find((p) => p.observeEnd)?.observeEnd?.monoNs;
  const entries = parsed
    .filter((p) => !p.observeEnd)
    .map((e, i) => {
      const headers: Array<{ name: string; value: string }> = [];
      for (let k = 0; k + 1 < e.rawHeaders.length; k += 2)
        headers.push({ name: e.rawHeaders[k]!, value: e.rawHeaders[k + 1]! });
      const body = Buffer.from(e.bodyBase64, 'base64');
      const postData =
        o.noBody?.(i) || body.length === 0
          ? undefined
          : i % 2
            ? { mimeType: 'application/json', text: e.bodyBase64, encoding: 'base64' }
            : { mimeType: 'application/json', text: body.toString('utf8') };
      const finished = e.finished ? Number(BigInt(e.finished.monoNs) - BigInt(e.arrival.monoNs)) / 1e6 : -1;
      return {
        ...(o.noTimes
          ? {}
          : {
              startedDateTime: e.arrival.iso,
              time: finished,
              _arrivalMonoNs: e.arrival.monoNs,
              ...(e.finished ? { _finishedMonoNs: e.finished.monoNs } : {}),
            }),
        request: {
          method: e.method,
          url: `http://observed.test${e.url}`,
          httpVersion: 'HTTP/1.1',
          headers,
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: body.length,
          ...(postData ? { postData } : {}),
        },
        response: { status: e.response?.status ?? 0, headers: [], cookies: [], content: { size: 0 } },
        ...(e.response?.fault ? { _fault: e.response.fault } : {}),
        ...(e.response?.delayMs !== undefined ? { _heldMs: e.response.delayMs } : {}),
      };
    });
  const log = { version: '1.2', creator: { name: 'ccs-conformance self test', version: '0' }, entries };
  writeFileSync(harFile, JSON.stringify({ log: { ...log, ...(end && !o.noTimes ? { _observeEndMonoNs: end } : {}) } }));
}
