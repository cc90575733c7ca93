/**
 * Memory of the mock host benchmark (`--hold N`): N callbacks into one embedded MockHost (bounded by
 * --max-entries if given), and what its journal takes per entry, unread and once read, and drops.
 */
import type { JournalCheck, MemoryFigure } from './server.ts';
import { runLoad, startServer, stopGenerator } from './processes.ts';

export async function hold(total: number, maxEntries: number | undefined, connections: number): Promise<number> {
  console.log(
    `mock-host memory: ${total} signed callbacks into one MockHost${maxEntries ? ` bounded at ${maxEntries} entries` : ''}`,
  );
  const s = await startServer('embedded', maxEntries);
  const base = (await s.ask!({ cmd: 'memory' })) as MemoryFigure;
  const chunk = 100_000;
  const start = performance.now();
  let errors = 0;
  for (let from = 0; from < total; from += chunk) {
    const r = await runLoad({ url: s.url, serverPid: s.pid, from, n: Math.min(chunk, total - from), connections });
    errors += r.errors + r.timeouts + r.non2xx;
  }
  const secs = (performance.now() - start) / 1000;
  const unread = (await s.ask!({ cmd: 'memory' })) as MemoryFigure;
  const kept = Math.min(total, maxEntries ?? total);
  const check = (await s.ask!({ cmd: 'check', from: total - kept, n: kept })) as JournalCheck;
  const read = (await s.ask!({ cmd: 'memory' })) as MemoryFigure;
  const per = (m: MemoryFigure) =>
    (m.heapBytes + m.externalBytes - base.heapBytes - base.externalBytes) / Math.max(1, m.entries);
  const mb = (m: MemoryFigure) =>
    ((m.heapBytes + m.externalBytes - base.heapBytes - base.externalBytes) / 2 ** 20).toFixed(0);
  console.log(
    `sent ${total} in ${secs.toFixed(1)} s, ${errors} errors; journal holds ${unread.entries} entries, dropped ${check.dropped}`,
  );
  console.log(
    `journal memory: ${mb(unread)} MiB unread (${per(unread).toFixed(0)} bytes per entry), ${mb(read)} MiB once every entry was read (${per(read).toFixed(0)} bytes per entry)`,
  );
  const ok =
    errors === 0 &&
    check.missing === 0 &&
    check.wrongBytes === 0 &&
    check.wrongVerdict === 0 &&
    check.unanswered === 0 &&
    check.dropped === total - kept;
  console.log(
    `journal check of the ${kept} kept: missing ${check.missing}, wrong bytes ${check.wrongBytes}, verdict not valid ${check.wrongVerdict}, not answered ${check.unanswered} -> ${ok ? 'PASS' : 'FAIL'}`,
  );
  await s.stop();
  stopGenerator();
  return ok ? 0 : 1;
}
