/**
 * The mock host's request pipeline and journal: entries on arrival and on completion, paging, a bounded journal's
 * drops, and the request lines. The signature verdicts are pipeline-verdicts.spec.ts's.
 */
import { test, expect } from '@playwright/test';
import { connect } from 'node:net';
import {
  MockHost,
  arrivalLine,
  finishLine,
  printRequestLines,
  type JournalChange,
  type JournalEntry,
  type SigningConfig,
} from '../../../mock-host/index.ts';
import { TEST_ONLY_SECRET, hmacHeader, lcBody, lcHeaders, send } from './helpers.ts';

const body = lcBody('onComplete', 70);

test('journal subscribers hear of each entry on arrival and on completion, complete by then, and of each dropped one', async () => {
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }], maxEntries: 2 });
  try {
    const changes: Array<{ kind: JournalChange['kind']; seq: number; event?: string; finished: boolean }> = [];
    const off = host.journal.subscribe((c) =>
      changes.push({ kind: c.kind, seq: c.entry.seq, event: c.entry.event, finished: c.entry.finished !== undefined }),
    );
    for (let i = 0; i < 3; i++) {
      const b = lcBody('onStart', 80 + i);
      await send(host.url, { path: '/hooks', headers: lcHeaders(b), body: b });
    }
    await host.journal.waitFor({ completed: true, predicate: (e) => e.seq === 3 }, { timeoutMs: 5000 });
    off();
    const b = lcBody('onStart', 90);
    await send(host.url, { path: '/hooks', headers: lcHeaders(b), body: b });
    expect(changes.filter((c) => c.kind === 'completed')).toEqual(
      [1, 2, 3].map((seq) => ({ kind: 'completed', seq, event: 'onStart', finished: true })),
    );
    expect(changes.filter((c) => c.kind === 'arrived').map((c) => c.seq)).toEqual([1, 2, 3]);
    expect(changes.filter((c) => c.kind === 'dropped')).toEqual([
      { kind: 'dropped', seq: 1, event: 'onStart', finished: true },
    ]);
    expect(host.journal.dropped).toBe(2);
  } finally {
    await host.close();
  }
});

test('an entry handed out on arrival is complete once its request is, and reads the same as one read late', async () => {
  const host = await MockHost.start({
    routes: [{ kind: 'lifecycle', path: '/hooks', signing: { mode: 'hmac', secrets: [TEST_ONLY_SECRET] } }],
  });
  try {
    let early: JournalEntry | undefined;
    await new Promise<void>((resolve, reject) => {
      const s = connect(host.port, '127.0.0.1', () => {
        const head = Object.entries({
          ...lcHeaders(body, { signature: hmacHeader(body) }),
          'content-length': String(body.length),
        })
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        s.write(`POST /hooks HTTP/1.1\r\nHost: x\r\n${head}\r\n${body.slice(0, 10)}`);
        host.journal.waitFor({ path: '/hooks' }, { timeoutMs: 5000 }).then(([e]) => {
          early = e;
          expect(e!.bodySize).toBe(0);
          s.end(body.slice(10));
          resolve();
        }, reject);
      });
      s.on('error', () => undefined);
    });
    await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
    expect(early!.signature.verdict).toBe('valid');
    expect(early!.event).toBe('onComplete');
    expect(Buffer.from(early!.bodyBase64, 'base64').toString()).toBe(body);
    // a second request nobody watched: read only now, it has every field, in the journal's order
    await send(host.url, { path: '/hooks', headers: lcHeaders(body, { signature: hmacHeader(body) }), body });
    const late = host.journal.entries().at(-1)!;
    expect(late.signature.verdict).toBe('valid');
    expect(Object.keys(JSON.parse(JSON.stringify(late)))).toEqual(Object.keys(JSON.parse(JSON.stringify(early))));
    expect(Object.keys(JSON.parse(JSON.stringify(late)))).toEqual([
      'seq',
      'id',
      'arrival',
      'method',
      'url',
      'path',
      'query',
      'headers',
      'rawHeaders',
      'bodyBase64',
      'bodySize',
      'bodySha256',
      'transfer',
      'kind',
      'signature',
      'checks',
      'json',
      'event',
      'deliveryId',
      'endUserHandle',
      'workspaceKey',
      'attempt',
      'schema',
      'unmatched',
      'response',
      'finished',
    ]);
  } finally {
    await host.close();
  }
});

test('the admin API pages through the journal with since and limit', async () => {
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }] });
  try {
    for (let i = 0; i < 5; i++) await send(host.url, { path: '/hooks', headers: lcHeaders(body), body });
    const page = async (q: string) =>
      (
        JSON.parse((await send(host.url, { method: 'GET', path: `/__admin/journal?${q}` })).body!) as {
          entries: JournalEntry[];
        }
      ).entries.map((e) => e.seq);
    expect(await page('limit=2')).toEqual([1, 2]);
    expect(await page('since=2&limit=2')).toEqual([3, 4]);
    expect(await page('since=4&limit=2')).toEqual([5]);
  } finally {
    await host.close();
  }
});

test('the request lines say when a bounded journal drops its oldest entries, never silently', async () => {
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }], maxEntries: 1 });
  const written: string[] = [];
  const stop = printRequestLines(host.journal, {
    write: (t: string) => (written.push(t), true),
    once: () => undefined,
  });
  try {
    for (let i = 0; i < 3; i++) {
      const b = lcBody('onStart', 95 + i);
      await send(host.url, { path: '/hooks', headers: lcHeaders(b), body: b });
    }
    await host.journal.waitFor({ completed: true, predicate: (e) => e.seq === 3 }, { timeoutMs: 5000 });
  } finally {
    stop();
    await host.close();
  }
  const lines = written.join('').trim().split('\n');
  expect(lines.filter((l) => l.startsWith('-> ')).length).toBe(3);
  expect(lines.filter((l) => l.startsWith('<- ')).length).toBe(3);
  expect(lines.filter((l) => l.startsWith('x- journal full')).join(' ')).toMatch(/dropped \(2 so far/);
});

test(
  'a request line says what the entry says once read, and printing it changes nothing the journal records (HOST-5, HDR-1)',
  { tag: ['@HOST-5', '@HDR-1'] },
  async () => {
    const signing: SigningConfig = { mode: 'hmac', secrets: [TEST_ONLY_SECRET] };
    const printed = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks', signing }] });
    const quiet = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks', signing }] });
    const written: string[] = [];
    const stop = printRequestLines(printed.journal, {
      write: (t: string) => (written.push(t), true),
      once: () => undefined,
    });
    const requests = [
      { headers: lcHeaders(body, { signature: hmacHeader(body) }), body },
      { headers: lcHeaders(body, { signature: hmacHeader(body, 'test-only-wrong-secret') }), body },
      { headers: { ...lcHeaders(body, { signature: hmacHeader(body) }), 'content-type': 'text/plain' }, body },
      { headers: lcHeaders(body, { signature: hmacHeader('{"event":"onStart"') }), body: '{"event":"onStart"' },
    ];
    try {
      for (const host of [printed, quiet]) for (const r of requests) await send(host.url, { path: '/hooks', ...r });
      await printed.journal.waitFor({ completed: true }, { count: requests.length, timeoutMs: 5000 });
      await new Promise((r) => setImmediate(r));
    } finally {
      stop();
    }
    try {
      const lines = written.join('').trim().split('\n');
      const entries = printed.journal.entries();
      expect(lines.filter((l) => l.startsWith('-> '))).toEqual(entries.map(arrivalLine));
      expect(lines.filter((l) => l.startsWith('<- '))).toEqual(entries.map(finishLine));
      expect(lines.filter((l) => l.startsWith('-> ')).map((l) => / sig=(\S+)/.exec(l)?.[1])).toEqual([
        'valid',
        'invalid',
        'valid',
        'valid',
      ]);
      const recorded = (e: JournalEntry) => ({
        ...e,
        id: undefined,
        arrival: undefined,
        finished: undefined,
        headers: { ...e.headers, host: undefined },
        rawHeaders: undefined,
        signature: { ...e.signature, skewSeconds: undefined },
      });
      expect(entries.map(recorded)).toEqual(quiet.journal.entries().map(recorded));
    } finally {
      await printed.close();
      await quiet.close();
    }
  },
);
