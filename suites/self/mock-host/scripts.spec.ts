import { test, expect } from '@playwright/test';
import { MockHost } from '../../../mock-host/index.ts';
import { lcBody, lcHeaders, send } from './helpers.ts';
import { clauseTags, type CcsErrorCode } from '../../../spec/index.ts';

let host: MockHost;
test.beforeEach(async () => {
  host = await MockHost.start({
    routes: [
      { kind: 'lifecycle', path: '/hooks' },
      {
        kind: 'facts',
        path: '/facts',
        factsSchema: {
          type: 'object',
          properties: { name: { type: 'string' }, preferredLanguages: { type: 'array', items: { type: 'string' } } },
          additionalProperties: false,
        },
      },
    ],
  });
});
test.afterEach(async () => {
  await host.close();
});

const complete = lcBody('onComplete');

test('a respond step answers its status and body after its delay, and the entry names the step', async () => {
  host.script({
    id: 'slow-503',
    match: { event: 'onComplete' },
    steps: [{ action: 'respond', status: 503, body: { busy: true }, delayMs: 150 }],
  });
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(complete, { attempt: 1 }), body: complete });
  expect(r.status).toBe(503);
  expect(JSON.parse(r.body!)).toEqual({ busy: true });
  expect(r.ms).toBeGreaterThanOrEqual(140);
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(e!.step).toEqual({
    script: 'slow-503',
    index: 0,
    explain: 'Answers 503 with the JSON {"busy":true} after 150 ms.',
  });
  expect(e!.response).toMatchObject({ status: 503, delayMs: 150 });
  expect(e!.finished!.outcome).toBe('answered');
});

test('the n-th matching request gets step n, then the default answer, and says why', async () => {
  host.script({
    id: 'two',
    match: { path: '/hooks' },
    steps: [
      { action: 'respond', status: 500 },
      { action: 'respond', status: 502 },
    ],
  });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete })).status!);
  expect(statuses).toEqual([500, 502, 200]);
  const third = host.journal.entries()[2]!;
  expect(third.step).toBeUndefined();
  expect(third.unmatched).toContain("script 'two' matched, but its 2 step(s) are used up");
});

test("then: 'repeat-last' repeats the last step", async () => {
  host.script({ id: 'rep', match: {}, steps: [{ action: 'respond', status: 503 }], then: 'repeat-last' });
  const a = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
  const b = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
  expect([a.status, b.status]).toEqual([503, 503]);
  expect(host.journal.entries()[1]!.step!.index).toBe(0);
});

test(
  'scripts match on attempt, and an unmatched entry says which criterion failed (DELIV-7)',
  { tag: clauseTags('DELIV-7') },
  async () => {
    host.script({ id: 'x', match: { event: 'onComplete', attempt: 2 }, steps: [{ action: 'respond', status: 500 }] });
    const r1 = await send(host.url, { path: '/hooks', headers: lcHeaders(complete, { attempt: 1 }), body: complete });
    const r2 = await send(host.url, { path: '/hooks', headers: lcHeaders(complete, { attempt: 2 }), body: complete });
    expect([r1.status, r2.status]).toEqual([200, 500]);
    const [e1, e2] = host.journal.entries();
    expect(e1!.unmatched).toBe("script 'x' wants attempt 2, this was attempt 1");
    expect(e2!.step!.script).toBe('x');
  },
);

test('without an attempt header, the attempt is counted from earlier entries with the same delivery id and body', async () => {
  const body = lcBody('config.saved');
  for (let i = 0; i < 2; i++) await send(host.url, { path: '/hooks', headers: lcHeaders(body), body });
  const other = lcBody('config.saved', 7, { changedFields: ['other'] });
  await send(host.url, { path: '/hooks', headers: lcHeaders(other), body: other });
  expect(host.journal.entries().map((e) => e.attempt)).toEqual([1, 2, 1]);
});

test(
  'without an attempt header, attempts are counted in the order bodies were read, whichever entry is read first, dropped and reset ones included (HDR-4)',
  { tag: clauseTags('HDR-4') },
  async () => {
    const body = lcBody('config.saved');
    for (let i = 0; i < 3; i++) await send(host.url, { path: '/hooks', headers: lcHeaders(body), body });
    // the newest entry read alone first: the two before it still count
    expect(host.journal.since(2).map((e) => e.attempt)).toEqual([3]);
    expect(host.journal.entries().map((e) => e.attempt)).toEqual([1, 2, 3]);
    // a reset forgets every delivery: the same body is a first attempt again
    host.reset();
    await send(host.url, { path: '/hooks', headers: lcHeaders(body), body });
    expect(host.journal.entries().map((e) => e.attempt)).toEqual([1]);
    // a bounded journal counts the attempts it dropped, and never read them
    const small = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }], maxEntries: 2 });
    try {
      for (let i = 0; i < 5; i++) await send(small.url, { path: '/hooks', headers: lcHeaders(body), body });
      expect(small.journal.dropped).toBe(3);
      expect(small.journal.entries().map((e) => [e.attempt, e.bodySha256.length])).toEqual([
        [4, 64],
        [5, 64],
      ]);
    } finally {
      await small.close();
    }
  },
);

test(
  'a hold step outlives a caller deadline: the caller times out, the entry ends client-closed (DELIV-3)',
  { tag: clauseTags('DELIV-3') },
  async () => {
    host.script({ id: 'hold', match: {}, steps: [{ action: 'hold', ms: 3000 }] });
    const r = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete, timeoutMs: 300 });
    expect(r.error).toBe('TIMEOUT');
    const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
    expect(e!.finished!.outcome).toBe('client-closed');
    expect(e!.response).toMatchObject({ fault: 'hold', delayMs: 3000 });
    expect(e!.response!.status).toBeUndefined();
  },
);

test('a hold step answers its status when the caller is still there', async () => {
  host.script({ id: 'hold', match: {}, steps: [{ action: 'hold', ms: 200, thenStatus: 204 }] });
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete, timeoutMs: 5000 });
  expect(r.status).toBe(204);
  expect(r.ms).toBeGreaterThanOrEqual(190);
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(e!.response).toMatchObject({ fault: 'hold', status: 204 });
});

test('a never step leaves the request open and visible in the journal until the caller gives up', async () => {
  host.script({ id: 'never', match: {}, steps: [{ action: 'never' }] });
  const pending = send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete, timeoutMs: 3000 });
  const [open] = await host.journal.waitFor({ predicate: (e) => e.step !== undefined }, { timeoutMs: 5000 });
  expect(open!.finished).toBeUndefined();
  expect((await pending).error).toBe('TIMEOUT');
  await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(open!.finished!.outcome).toBe('client-closed');
});

test('a reset step resets the connection for real: the caller sees ECONNRESET', async () => {
  host.script({ id: 'rst', match: {}, steps: [{ action: 'reset' }] });
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
  expect(r.error).toBe('ECONNRESET');
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(e!.finished!.outcome).toBe('reset');
  expect(e!.step!.explain).toBe('Resets the TCP connection (RST) without answering.');
});

test('a close step ends the connection without an answer', async () => {
  host.script({ id: 'fin', match: {}, steps: [{ action: 'close' }] });
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
  expect(r.status).toBeUndefined();
  expect(['ECONNRESET', 'socket hang up']).toContain(r.error);
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(e!.finished!.outcome).toBe('closed');
});

test(
  'a refuse step makes new connections fail with ECONNREFUSED, then the host listens again on the same port (DELIV-7)',
  { tag: clauseTags('DELIV-7') },
  async () => {
    host.script({ id: 'refuse', match: {}, steps: [{ action: 'refuse', ms: 4000 }] });
    const first = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
    expect(first.error).toBe('ECONNRESET');
    const during = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
    expect(during.error).toBe('ECONNREFUSED');
    // poll with a deadline until the port answers again
    const deadline = performance.now() + 20_000;
    let after = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
    while (after.error && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete });
    }
    expect(after.status).toBe(200);
    const entries = host.journal.entries();
    expect(entries).toHaveLength(2); // the refused connection never arrived
    expect(entries[0]!.finished!.outcome).toBe('reset');
    expect(entries[0]!.response!.fault).toBe('refuse');
    const [window] = host.refusals();
    expect(window!.ms).toBe(4000);
    expect(BigInt(window!.endMonoNs!) - BigInt(window!.startMonoNs)).toBeGreaterThanOrEqual(3_900_000_000n);
  },
);

test(
  'a facts step answers the GET with an object, a non-object or raw text (FACTS-7)',
  { tag: clauseTags('FACTS-7') },
  async () => {
    host.script([
      { id: 'obj', match: { kind: 'facts', endUserHandle: 'a' }, steps: [{ action: 'facts', body: { name: 'Ann' } }] },
      { id: 'arr', match: { kind: 'facts', endUserHandle: 'b' }, steps: [{ action: 'facts', body: [1, 2] }] },
      {
        id: 'raw',
        match: { kind: 'facts', endUserHandle: 'c' },
        steps: [{ action: 'facts', body: 'not json{', delayMs: 100 }],
      },
    ]);
    const a = await send(host.url, { method: 'GET', path: '/facts?endUserHandle=a' });
    const b = await send(host.url, { method: 'GET', path: '/facts?endUserHandle=b' });
    const c = await send(host.url, { method: 'GET', path: '/facts?endUserHandle=c' });
    expect(JSON.parse(a.body!)).toEqual({ name: 'Ann' });
    expect(b.body).toBe('[1,2]');
    expect(c.body).toBe('not json{');
    expect(c.ms).toBeGreaterThanOrEqual(90);
  },
);

test(
  'a factsNotFitting step answers an object that does not fit the FACTS class (FACTS-8)',
  { tag: clauseTags('FACTS-8') },
  async () => {
    host.script({ id: 'misfit', match: { kind: 'facts' }, steps: [{ action: 'factsNotFitting' }] });
    const r = await send(host.url, { method: 'GET', path: '/facts?endUserHandle=a' });
    const body = JSON.parse(r.body!) as Record<string, unknown>;
    expect(typeof body).toBe('object');
    expect(typeof body.name).not.toBe('string');
    expect(Array.isArray(body.preferredLanguages)).toBe(false);
  },
);

test('the facts route answers its defaultFacts when no script matches', async () => {
  host.addRoute({ kind: 'facts', path: '/facts2', defaultFacts: { name: 'Default' } });
  const r = await send(host.url, { method: 'GET', path: '/facts2?endUserHandle=a' });
  expect(JSON.parse(r.body!)).toEqual({ name: 'Default' });
});

test('a bad script is refused with an error naming the field, over the admin API too', async () => {
  expect(() => host.script({ id: 'bad', match: {}, steps: [{ action: 'respond', status: 42 } as never] })).toThrow(
    /scripts\[0\]\.steps\[0\]\.status must be an integer HTTP status/,
  );
  const r = await send(host.url, {
    path: '/__admin/scripts',
    headers: { 'content-type': 'application/yaml' },
    body: '- id: y\n  match: { attempt: zero }\n  steps: [{ action: respond, status: 200 }]\n',
  });
  expect(r.status).toBe(400);
  expect(JSON.parse(r.body!)).toMatchObject({ error: 'MOCKHOST_SCRIPT_INVALID' satisfies CcsErrorCode });
  expect(JSON.parse(r.body!).message).toContain('scripts[0].match.attempt');
  const ok = await send(host.url, {
    path: '/__admin/scripts',
    headers: { 'content-type': 'application/yaml' },
    body: '- id: y\n  match: { event: onComplete }\n  steps: [{ action: respond, status: 503 }]\n',
  });
  expect(ok.status).toBe(200);
  expect((await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete })).status).toBe(503);
  expect((await send(host.url, { method: 'DELETE', path: '/__admin/scripts' })).status).toBe(200);
  expect((await send(host.url, { path: '/hooks', headers: lcHeaders(complete), body: complete })).status).toBe(200);
});
