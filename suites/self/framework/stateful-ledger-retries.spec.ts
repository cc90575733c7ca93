/**
 * The model-based test's ledger (suites/service/stateful/ledger.ts) and the attempts of one onComplete
 * delivery: another attempt under a delivery id already matched is that delivery re-sent (DELIV-11,
 * DELIV-12), in whichever order a loaded machine hands the hook the two requests; the same attempt
 * twice is a callback nobody expected (EVT-19 reading). Real mock host, real HTTP on loopback.
 */
import { test, expect } from '@playwright/test';
import { MockHost } from '../../../mock-host/index.ts';
import { Ledger, type Expected } from '../../service/stateful/ledger.ts';
import { StepViolation, Tally } from '../../service/stateful/violation.ts';
import { send } from '../mock-host/helpers.ts';

const HOOK = '/hooks';
const USERS = ['ledger-user'];
const ID = 'lc-7-onComplete';
const BODY = JSON.stringify({ event: 'onComplete', conversationId: 7, endUserHandle: USERS[0], serviceKeys: ['k1'] });

const completed = (): Expected => ({
  event: 'onComplete',
  conversationId: 7,
  user: 0,
  keys: ['k1'],
  arrival: 'STATE-4',
  rule: 'a completion fires onComplete with the keys it finalizes',
  matched: [],
});

async function withLedger(use: (l: Ledger, attempt: (n: number) => Promise<void>) => Promise<void>): Promise<void> {
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: HOOK }] });
  const ledger = new Ledger(host, HOOK, USERS, { tally: new Tally() }, () => ({
    clause: 'EVT-19',
    rule: 'onComplete fires only when the user says done',
  }));
  const attempt = async (n: number) => {
    const headers = {
      'content-type': 'application/json',
      'x-service-event': 'onComplete',
      'x-service-delivery-id': ID,
      'x-service-delivery-attempt': String(n),
    };
    expect((await send(host.url, { path: HOOK, headers, body: BODY })).status).toBe(200);
  };
  try {
    await use(ledger, attempt);
  } finally {
    ledger.close();
    await host.close();
  }
}

test('a first attempt that reaches the hook after its retry is the same delivery, not a second onComplete', async () => {
  await withLedger(async (ledger, attempt) => {
    await attempt(2);
    await attempt(1);
    const x = completed();
    await ledger.settle([x], 2_000);
    await ledger.quiet(200);
    expect(x.matched).toHaveLength(1);
  });
});

test('the same attempt of a delivery twice is a callback nobody expected (EVT-19)', async () => {
  await withLedger(async (ledger, attempt) => {
    await attempt(1);
    await ledger.settle([completed()], 2_000);
    await attempt(1);
    const error = await ledger.quiet(500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepViolation);
    expect((error as StepViolation).clause).toBe('EVT-19');
  });
});
