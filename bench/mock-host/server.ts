/**
 * A server under test of the mock-host benchmark, in a process of its own: a bare fastify server
 * that only acknowledges, or the embedded MockHost (optionally with one journal subscriber that
 * summarizes every change, as the inspector's event stream does). Answers the parent's messages: its URL at start,
 * then journal checks and memory figures on request.
 */
import Fastify from 'fastify';
import { MockHost, summarizeLazy, type JournalChange, type JournalEntry } from '../../mock-host/index.ts';
import { BENCH_ONLY_SECRET, HOOK_PATH, bodyFor, deliveryIdFor, sha256Of } from './callbacks.ts';

export type ServerKind = 'bare' | 'embedded' | 'embedded-subscriber';

export interface JournalCheck {
  entries: number;
  dropped: number;
  missing: number;
  wrongBytes: number;
  wrongVerdict: number;
  unanswered: number;
  /** changes seen by the subscriber, when one is attached */
  changes?: number;
}

export interface MemoryFigure {
  entries: number;
  heapBytes: number;
  externalBytes: number;
  bytesPerEntry: number;
}

type Message =
  { cmd: 'check'; from: number; n: number } | { cmd: 'reset' } | { cmd: 'memory' } | { cmd: 'cpu' } | { cmd: 'stop' };

/** Judges entries against what the load generator sent for indexes [from, from + n). */
export function checkEntries(
  entries: Iterable<Pick<JournalEntry, 'deliveryId' | 'bodySha256' | 'signature' | 'finished'>>,
  from: number,
  n: number,
  dropped: number,
): JournalCheck {
  const byId = new Map<string, Pick<JournalEntry, 'bodySha256' | 'signature' | 'finished'>>();
  let count = 0;
  for (const e of entries) {
    count++;
    if (e.deliveryId !== undefined) byId.set(e.deliveryId, e);
  }
  const out: JournalCheck = { entries: count, dropped, missing: 0, wrongBytes: 0, wrongVerdict: 0, unanswered: 0 };
  for (let i = from; i < from + n; i++) {
    const e = byId.get(deliveryIdFor(i));
    if (e === undefined) {
      out.missing++;
      continue;
    }
    if (e.bodySha256 !== sha256Of(bodyFor(i))) out.wrongBytes++;
    if (e.signature.verdict !== 'valid') out.wrongVerdict++;
    if (e.finished?.outcome !== 'answered') out.unanswered++;
  }
  return out;
}

function memory(entries: number, base: { heap: number; external: number }): MemoryFigure {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const heapBytes = m.heapUsed - base.heap;
  // external already includes arrayBuffers (every Buffer's bytes): counted once
  const externalBytes = m.external - base.external;
  return { entries, heapBytes, externalBytes, bytesPerEntry: entries ? (heapBytes + externalBytes) / entries : 0 };
}

async function main(kind: ServerKind, maxEntries: number | undefined): Promise<void> {
  let url: string;
  let host: MockHost | undefined;
  let changes = 0;
  let close: () => Promise<void>;
  if (kind === 'bare') {
    const app = Fastify({ logger: false });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    app.post(HOOK_PATH, (_req, reply) => {
      void reply.send({});
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    close = () => app.close();
  } else {
    host = await MockHost.start({
      routes: [{ kind: 'lifecycle', path: HOOK_PATH, signing: { mode: 'hmac', secrets: [BENCH_ONLY_SECRET] } }],
      ...(maxEntries !== undefined ? { maxEntries } : {}),
    });
    if (kind === 'embedded-subscriber') {
      // as the inspector's event stream does: note each change as it stands, then once per turn
      // of the loop summarize the noted ones (id, event, delivery id, attempt, status) as it sends them
      const queue: JournalChange[] = [];
      let scheduled = false;
      let bytes = 0;
      host.journal.subscribeLazy((change) => {
        queue.push(change);
        if (scheduled) return;
        scheduled = true;
        setImmediate(() => {
          for (const c of queue) bytes += JSON.stringify(summarizeLazy(c)).length;
          changes += queue.length;
          queue.length = 0;
          scheduled = false;
        });
      });
    }
    url = host.url;
    const h = host;
    close = () => h.close();
  }
  (globalThis as { gc?: () => void }).gc?.();
  const m0 = process.memoryUsage();
  const base = { heap: m0.heapUsed, external: m0.external };
  process.on('message', (msg: Message) => {
    if (msg.cmd === 'stop') {
      void close().then(() => process.send!({ stopped: true }, () => process.exit(0)));
      return;
    }
    if (msg.cmd === 'cpu') {
      // CPU time of this server process: a figure the machine's other load hardly moves
      const c = process.cpuUsage();
      process.send!({ cpuUs: c.user + c.system });
      return;
    }
    if (!host) {
      process.send!({ entries: 0, dropped: 0, missing: 0, wrongBytes: 0, wrongVerdict: 0, unanswered: 0 });
      return;
    }
    if (msg.cmd === 'reset') {
      host.reset();
      process.send!({ reset: true });
    } else if (msg.cmd === 'check') {
      const r = checkEntries(host.journal.entries(), msg.from, msg.n, host.journal.dropped);
      if (kind === 'embedded-subscriber') r.changes = changes;
      process.send!(r);
    } else if (msg.cmd === 'memory') {
      process.send!(memory(host.journal.size, base));
    }
  });
  process.send!({ url });
}

if (process.argv.includes('--child')) {
  const kind = process.argv[process.argv.indexOf('--child') + 1] as ServerKind;
  const max = process.argv.indexOf('--max-entries');
  await main(kind, max > 0 ? Number(process.argv[max + 1]) : undefined);
}
