/**
 * The live half of `ccs-conformance observe`: the mock host listening until a signal, --duration or
 * --idle ends the observation, and the journal's entries handed to the judge (cli/commands/observe.ts).
 */
import { MockHost, type JournalEntry, type MockHostOptions } from '../../mock-host/index.ts';
import {
  ArrivalReader,
  retriesDueUntilNs,
  type ArrivalReads,
  type ReadBackOptions,
} from '../../judge/service/index.ts';
import { makeTiming } from '../../target/service/timing.ts';
import { DEFAULT_TOLERANCES } from '../../target/service/resolve.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';

/** A usage or start error: one line on stderr, exit 2 (no verdict exists). */
export function fail(message: string): number {
  process.stderr.write(`ccs-conformance observe: ${message}\n`);
  return 2;
}

interface Live {
  entries: JournalEntry[];
  endNs: bigint;
  url: string;
  elapsedMs: number;
  arrival?: ArrivalReads;
  /** The JWKS documents the mock host fetched to verify with (SIGN-9). */
  jwksDocuments: JwksDocumentSeen[];
}

interface Stops {
  duration?: number;
  idle?: number;
  quiet: boolean;
  /** With the data API, each config.deleted's key is read as it arrives (STATE-7). */
  dataApi?: ReadBackOptions;
}

export async function observeLive(options: MockHostOptions, o: Stops): Promise<Live | number> {
  let host: MockHost;
  try {
    host = await MockHost.start(options);
  } catch (error) {
    return fail(`cannot start: ${(error as Error).message}`);
  }
  const start = performance.now();
  const routes = host
    .listRoutes()
    .map((r) => `${r.kind} ${r.path}`)
    .join(', ');
  const mode = options.signing?.mode ?? 'not given';
  process.stdout.write(`observe: listening on ${host.url} (routes: ${routes}; signing: ${mode})\n`);
  const { printRequestLines } = await import('../../mock-host/index.ts');
  const stopLines = o.quiet ? () => undefined : printRequestLines(host.journal, process.stdout);
  const reader = o.dataApi ? new ArrivalReader(o.dataApi) : undefined;
  const stopReads = reader ? host.journal.subscribe((c) => reader.see(c.entry)) : () => undefined;
  const why = await new Promise<string>((done) => {
    const timers: NodeJS.Timeout[] = [];
    const finish = (reason: string) => {
      for (const t of timers) clearTimeout(t);
      off();
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      done(reason);
    };
    const onInt = () => finish('SIGINT');
    const onTerm = () => finish('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    const { duration, idle } = o;
    if (duration !== undefined) timers.push(setTimeout(() => finish(`--duration ${duration} s`), duration * 1000));
    // every change (arrival or completion) is traffic: a held attempt is not idle time. Noted lazily (the
    // entry is not worked out on the request path for it) and as a time only: one timer, re-armed for
    // what is left of the window when it fires, rather than a timer per change.
    let lastChange = performance.now();
    const off = host.journal.subscribeLazy(() => (lastChange = performance.now()));
    // idle time is quiet time with no retry due: an attempt --inject refused is followed by its retry after
    // the back-off (scaled), which may be longer than --idle (DELIV-8)
    const timing = makeTiming(options.timeScale ?? 1, DEFAULT_TOLERANCES);
    const checkIdle = () => {
      const quiet = idle! * 1000 - (performance.now() - lastChange);
      const due = retriesDueUntilNs(host.journal.entries(), timing);
      const dueMs = due === undefined ? 0 : Number(due - process.hrtime.bigint()) / 1e6;
      const left = Math.max(quiet, dueMs);
      if (left <= 0) finish(`--idle ${idle} s without a request${due !== undefined ? ' or a retry due' : ''}`);
      else timers.push(setTimeout(checkIdle, left));
    };
    if (idle !== undefined) timers.push(setTimeout(checkIdle, idle * 1000));
  });
  const endNs = process.hrtime.bigint();
  // said before the journal is read: reading it works out each entry (mock-host/entry.ts), which is the
  // judge's work, not the observation's
  process.stdout.write(`observe: stopped (${why}) after ${host.journal.size} request(s)\n`);
  const entries = host.journal.entries().filter((e) => e.kind !== 'admin');
  await host.close();
  stopLines();
  stopReads();
  const arrival = await reader?.settled();
  const jwksDocuments = host.jwksDocuments();
  return { entries, endNs, url: host.url, elapsedMs: performance.now() - start, arrival, jwksDocuments };
}
