import { test, expect } from '@playwright/test';
import { verifyFactsRequest } from '../../../protocol/index.ts';
import { stage, type Stage } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

const SECRET = 'test-only-hmac-secret-facts';
let s: Stage;
let answer: { status?: number; body?: unknown; hang?: boolean };
test.beforeEach(async () => {
  s = await stage({ workspace: { signing: { mode: 'hmac', secret: SECRET } } });
  answer = { status: 200, body: { company: 'Acme', preferredLanguages: ['German'] } };
  s.host.script = (r) => (r.method === 'GET' ? answer : { status: 200 });
});
test.afterEach(async () => {
  await s.close();
});

const gets = () => s.host.received.filter((r) => r.method === 'GET');
const facts = async (handle = 'u-1') =>
  (await s.driver('GET', `/workspaces/${s.ws.workspaceKey}/users/${encodeURIComponent(handle)}/facts`)).json;
async function factsSettled(n: number): Promise<void> {
  await s.host.waitFor(
    () =>
      gets().length >= n &&
      gets()
        .slice(0, n)
        .every((r) => r.endAt !== undefined),
    5000,
    `${n} facts GETs answered`,
  );
  // The answer is handled right after the host sent it: poll the driver until the log or facts move.
  const deadline = performance.now() + 2000;
  while (performance.now() < deadline) {
    const lines = (await s.driver('GET', '/log')).json.lines as Array<{ event: string }>;
    const f = await facts();
    if (f.fetchedAt || lines.some((l) => l.event.startsWith('facts.'))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

test(
  'the facts GET carries its headers, delivery id and a signature over "GET " + the request target (FACTS-1 FACTS-2 FACTS-3 FACTS-4 SIGN-6 FACTS-14)',
  { tag: clauseTags('FACTS-1', 'FACTS-2', 'FACTS-3', 'FACTS-4', 'SIGN-6', 'FACTS-14') },
  async () => {
    const handle = 'u+1 a@b.c';
    await s.open(handle);
    await s.host.waitFor(() => gets().length === 1);
    const g = gets()[0]!;
    expect(g.url).toBe(`/user-facts?endUserHandle=${encodeURIComponent(handle)}`);
    expect(g.raw.length).toBe(0);
    expect(g.headers.accept).toBe('application/json');
    expect(g.headers['x-service-event']).toBe('user.facts.fetch');
    expect(g.headers['x-service-workspace']).toBe(s.ws.workspaceKey);
    expect(g.headers['x-service-end-user']).toBe(handle);
    expect(g.headers['x-service-delivery-id']).toBe(`uf-${s.ws.workspaceId}-${handle}`);
    const v = await verifyFactsRequest({
      requestTarget: g.url,
      headers: g.headers,
      config: { mode: 'hmac', secrets: [SECRET] },
    });
    expect(v.verdict, v.reason).toBe('valid');
  },
);

test(
  'facts fetched at an open are used from the next open, with English appended (FACTS-6 FACTS-9 FACTS-10)',
  { tag: clauseTags('FACTS-6', 'FACTS-9', 'FACTS-10') },
  async () => {
    const first = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/conversations`, {
      endUserHandle: 'u-1',
      configEnd: '/profile',
    });
    expect(first.json.openerLanguage).toBe('English');
    await factsSettled(1);
    expect((await facts()).languages).toEqual(['German', 'English']);
    answer = { status: 200, body: { company: 'Acme', preferredLanguages: ['French'] } };
    const second = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/conversations`, {
      endUserHandle: 'u-1',
      configEnd: '/profile',
    });
    expect(second.json.openerLanguage).toBe('German');
  },
);

test(
  'without preferredLanguages English alone is used; after 24 h on the service clock no cached facts remain (FACTS-11 FACTS-6)',
  { tag: clauseTags('FACTS-11', 'FACTS-6') },
  async () => {
    answer = { status: 200, body: { company: 'Acme' } };
    await s.open();
    await factsSettled(1);
    const f = await facts();
    expect(f.facts).toEqual({ company: 'Acme' });
    expect(f.languages).toEqual(['English']);
    await s.driver('POST', '/clock/advance', { ms: 24 * 3600 * 1000 });
    expect((await facts()).facts).toBeNull();
  },
);

test(
  'a non-object answer is dropped and an answer that does not fit is rejected whole, last good kept (FACTS-7 FACTS-8)',
  { tag: clauseTags('FACTS-7', 'FACTS-8') },
  async () => {
    await s.open();
    await factsSettled(1);
    answer = { status: 200, body: [1, 2] };
    await s.open();
    await s.host.waitFor(() => gets().length === 2 && gets()[1]!.endAt !== undefined);
    answer = { status: 200, body: { company: 42, preferredLanguages: ['French'] } };
    await s.open();
    await s.host.waitFor(() => gets().length === 3 && gets()[2]!.endAt !== undefined);
    const deadline = performance.now() + 3000;
    let events: string[] = [];
    while (performance.now() < deadline) {
      events = ((await s.driver('GET', '/log')).json.lines as Array<{ event: string }>).map((l) => l.event);
      if (events.includes('facts.dropped') && events.includes('facts.rejected')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(events).toContain('facts.dropped');
    expect(events).toContain('facts.rejected');
    expect((await facts()).facts).toEqual({ company: 'Acme', preferredLanguages: ['German'] });
  },
);

test('an open never waits for a hanging facts endpoint (FACTS-5)', { tag: clauseTags('FACTS-5') }, async () => {
  answer = { hang: true };
  const t0 = performance.now();
  await s.open();
  expect(performance.now() - t0).toBeLessThan(2000);
  await s.host.waitFor(() => s.host.callbacks('onStart').length === 1);
});
