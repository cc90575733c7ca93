/**
 * The host judge's duties (judge/host/duties.ts), derived from the ledger alone: what an exchange's
 * history makes of it decides which clause its reads answer to, and a controlled rule needs a control.
 */
import { test, expect } from '@playwright/test';
import {
  dutiesOf,
  Ledger,
  type Sent,
  type Payload,
  type SendOutcome,
  type ServiceSide,
} from '../../../judge/host/index.ts';
import { lifecyclePayload } from '../../host/harness/payloads.ts';

const service = { reads: [], jwksFetches: [], sync: async () => undefined } as unknown as ServiceSide;
const ctx = { workspaceKey: 'ws', configEnd: '/settings', hookPath: '/hooks/ccs' };
const answer = (status?: number): SendOutcome => ({
  method: 'POST',
  url: 'http://127.0.0.1:1/hooks/ccs',
  headersSent: {},
  elapsedMs: 1,
  ...(status === undefined ? { failure: 'connect' as const } : { status }),
});
let clock = 0;
function sent(payload: Payload, o: Partial<Sent> = {}): Sent {
  return {
    kind: 'callback',
    mode: 'hmac',
    genuine: true,
    outcome: answer(200),
    at: 0,
    sentAtMs: ++clock,
    endUserHandle: String(payload.endUserHandle),
    payload,
    ...o,
  };
}
const complete = (handle: string, conversationId: number, keys = [`k-${conversationId}`]) =>
  lifecyclePayload('onComplete', { ...ctx, endUserHandle: handle, conversationId }, { serviceKeys: keys });
/** The ledger's keeper tells it the test running now (the suites' observer asks Playwright). */
const running = () => test.info().testId;
const summary = (ledger: Ledger) =>
  dutiesOf(ledger, test.info().testId).map((d) => `${d.kind} ${d.clause} ${'id' in d ? d.id : ''}`.trim());

test("an onComplete's history names the clause its reads answer to; a controlled rule needs a control (HOST-13)", () => {
  const ledger = new Ledger(service, running);
  const plain = complete('u-1', 1);
  ledger.add(sent(plain));
  ledger.add(sent(plain, { attempt: 2 })); // the same bytes again: a redelivery
  ledger.add(sent(complete('u-2', 2), { attempt: 2 })); // first seen at attempt 2
  const copied = complete('u-3', 3);
  ledger.add(sent(copied, { genuine: false, outcome: answer(401) })); // a forged copy, refused
  ledger.add(sent(copied));
  ledger.add(sent(lifecyclePayload('onStart', { ...ctx, endUserHandle: 'u-4', conversationId: 4 })));
  ledger.add(sent(complete('u-4', 4)));
  ledger.add(sent(complete('u-1', 5, ['k-1']))); // a key an earlier onComplete named
  ledger.add(sent(complete('u-6', 6), { genuine: false, outcome: answer(200) })); // a forgery accepted: no duty
  expect(summary(ledger)).toEqual([
    'read HOST-13 observe.every-key-read',
    'not-again HOST-11 delivery.redelivery-deduped',
    'read HOST-12 delivery.unseen-retry-handled',
    'read HOST-11 delivery.genuine-after-forged-handled',
    'read HOST-11 delivery.same-conversation-handled',
    'read HOST-20 delivery.repeat-complete-read',
  ]);
});

test('without a control in the test, an onComplete first seen at attempt 2 decides nothing (HOST-12)', () => {
  const ledger = new Ledger(service, running);
  ledger.add(sent(complete('u-7', 7), { attempt: 2 }));
  expect(summary(ledger)).toEqual([]);
});

test('a 2xx to a correctly signed facts GET is held to the facts class; a forged one is not (HOST-15)', () => {
  const ledger = new Ledger(service, running);
  const facts = { kind: 'facts' as const, mode: 'jwks', at: 0, endUserHandle: 'u-8' };
  ledger.add({ ...facts, genuine: true, outcome: answer(204), sentAtMs: ++clock });
  ledger.add({ ...facts, genuine: false, outcome: answer(200), sentAtMs: ++clock });
  ledger.add({ ...facts, genuine: true, outcome: answer(401), sentAtMs: ++clock });
  expect(summary(ledger)).toEqual(['facts HOST-15']);
});

test('the ledger records each exchange and naming under the test its keeper says is running (HOST-13)', () => {
  let now: string | undefined = 'test-a';
  const ledger = new Ledger(service, () => now);
  ledger.add(sent(complete('u-8', 8)));
  now = undefined; // between tests: a self test drives the harness outside one
  ledger.add(sent(complete('u-9', 9)));
  expect(ledger.ofTest('test-a').map((e) => e.endUserHandle)).toEqual(['u-8']);
  expect(ledger.exchanges.map((e) => e.testId)).toEqual(['test-a', undefined]);
  expect(ledger.namedFor('u-8').map((n) => n.testId)).toEqual(['test-a']);
  expect(ledger.namedFor('u-9').map((n) => n.testId)).toEqual([undefined]);
});
