/**
 * The model-based test's wait for a step's callbacks (suites/service/stateful/ledger.ts): the contract
 * gives no time within which an event fires, so a callback missing at the harness's deadline fails its
 * arrival clause only when the service had the time to send it. Real mock host, real HTTP on loopback.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { MockHost } from '../../../mock-host/index.ts';
import { Ledger, type Expected, type Load } from '../../service/stateful/ledger.ts';
import { StepViolation, Tally } from '../../service/stateful/violation.ts';
import { makeTiming } from '../../../target/service/timing.ts';
import { send } from '../mock-host/helpers.ts';

const HOOK = '/hooks';
const USERS = ['ledger-user'];
const BODY = JSON.stringify({ event: 'onSessionTimeout', conversationId: 7, endUserHandle: USERS[0] });

const timedOut = (): Expected => ({
  event: 'onSessionTimeout',
  conversationId: 7,
  user: 0,
  arrival: 'EVT-21',
  rule: 'onSessionTimeout fires when a conversation is swept after the idle TTL',
  matched: [],
});

async function withLedger(load: Load | undefined, use: (l: Ledger, host: MockHost) => Promise<void>): Promise<void> {
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: HOOK }] });
  const ledger = new Ledger(
    host,
    HOOK,
    USERS,
    { tally: new Tally() },
    () => ({ clause: 'EVT-15', rule: 'stray' }),
    load,
  );
  try {
    await use(ledger, host);
  } finally {
    ledger.close();
    await host.close();
  }
}

/** A service answering at once (lag 1 ms), with the rule of a target at time scale 0.1. */
const quick: Load = {
  roundTripMs: async () => 1,
  extensionMs: makeTiming(0.1, { minMs: 250, relative: 0.25 }).loadExtensionMs,
};

test('a callback missing at its deadline while the service answers at once fails its arrival clause then (EVT-21)', async () => {
  await withLedger(quick, async (ledger) => {
    const started = performance.now();
    const error = await ledger.settle([timedOut()], 300).catch((e: unknown) => e);
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(StepViolation);
    expect((error as StepViolation).clause).toBe('EVT-21');
    expect((error as StepViolation).expected).toContain('within 300 ms');
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(300 + 1_000);
  });
});

test('a callback missing at its deadline while the service answers late is waited for longer, and matched', async () => {
  let probes = 0;
  const loaded: Load = {
    roundTripMs: async () => {
      probes += 1;
      return 500;
    },
    extensionMs: (lagMs, extendedMs) => (lagMs >= 100 && extendedMs === 0 ? 2_000 : 0),
  };
  await withLedger(loaded, async (ledger, host) => {
    const late = new Promise<void>((resolve) => setTimeout(resolve, 600)).then(() =>
      send(host.url, { path: HOOK, headers: { 'content-type': 'application/json' }, body: BODY }),
    );
    await ledger.settle([timedOut()], 300);
    expect(probes).toBe(1);
    expect((await late).status).toBe(200);
  });
});

test('the longer wait has its end: a callback that never comes fails with the time waited in all (EVT-21)', async () => {
  const loaded: Load = {
    roundTripMs: async () => 500,
    extensionMs: (lagMs, extendedMs) => (lagMs >= 100 && extendedMs < 400 ? 200 : 0),
  };
  await withLedger(loaded, async (ledger) => {
    const error = await ledger.settle([timedOut()], 300).catch((e: unknown) => e);
    expect((error as StepViolation).clause).toBe('EVT-21');
    expect((error as StepViolation).expected).toContain('within 700 ms (300 ms, extended for a loaded machine)');
  });
});

test('a callback the socket already holds when the deadline timer fires is judged, not missed', async () => {
  // no Load: only reading the sockets before the verdict can save it (the harness's lateness would extend the wait)
  await withLedger(undefined, async (ledger, host) => {
    const settled = ledger.settle([timedOut()], 200);
    // A process of its own sends the callback while this one's event loop is blocked past the deadline:
    // the timer and the request are then ready together, and timers run first.
    const sender = spawn(process.execPath, [
      '-e',
      `fetch(${JSON.stringify(host.url + HOOK)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(BODY)} }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(2))`,
    ]);
    const sent = new Promise<number | null>((resolve) => sender.once('exit', resolve));
    const until = performance.now() + 2_500;
    while (performance.now() < until) {
      // blocked: the sender starts, connects and writes meanwhile
    }
    await settled;
    expect(await sent).toBe(0);
  });
});

test("the harness's own timer firing late says the machine is loaded: the wait goes on, and the callback is matched", async () => {
  await withLedger(quick, async (ledger, host) => {
    const settled = ledger.settle([timedOut()], 200);
    const until = performance.now() + 1_500;
    while (performance.now() < until) {
      // blocked past the deadline: its timer fires about 1.3 s late
    }
    const late = new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() =>
      send(host.url, { path: HOOK, headers: { 'content-type': 'application/json' }, body: BODY }),
    );
    await settled;
    expect((await late).status).toBe(200);
  });
});
