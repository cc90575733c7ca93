/**
 * The attempts of one onComplete (6, 9): the same delivery id and body bytes on each, each re-signed with a fresh t.
 * Tests tagged @realtime run again at time scale 1 (service-realtime project): every interval comes from timing,
 * never a literal.
 */
import { test } from './fixtures.ts';
import { describe, header } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { retryTimeline } from './areas/times.ts';
import { hmacSignerOf } from './areas/signatures.ts';
import { realTime } from './areas/waiting.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { BACKOFF_1, completeOne } from './areas/deliveries.ts';

realTime(() =>
  test(
    'every attempt of one onComplete carries the same delivery id and the same body bytes (DELIV-11)',
    { tag: clauseTags('DELIV-11') },
    async ({ makeWorkspace, driver, host, timing }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
      host.script({
        id: uniqueId('503-503-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const endUserHandle = uniqueHandle('rstable');
      await completeOne(ws, driver, endUserHandle);
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs());
      const ids = attempts.map((e) => header(e, 'x-service-delivery-id'));
      check
        .soft('DELIV-11', 'every attempt of one onComplete carries the same X-Service-Delivery-Id', {
          id: 'delivery.same-id-same-body',
        })
        .that(new Set(ids).size === 1, {
          expected: `${show(ids[0])} on every attempt`,
          seen: ids.map((id, i) => `attempt ${i + 1}: ${show(id)}`).join(', '),
        });
      const hashes = new Set(attempts.map((e) => e.bodySha256));
      check
        .soft('DELIV-11', 'a retry of onComplete re-sends the same body bytes', { id: 'delivery.same-id-same-body' })
        .that(hashes.size === 1, {
          expected: 'identical body bytes on every attempt',
          seen: attempts.map(describe).join(' | '),
        });
    },
  ),
);

realTime(() =>
  test(
    'each onComplete retry is re-signed over the unchanged body with a fresh t (SIGN-5)',
    { tag: clauseTags('SIGN-5') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
      host.script({
        id: uniqueId('503-503-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const endUserHandle = uniqueHandle('rresign');
      await completeOne(ws, driver, endUserHandle);
      // Attempts must arrive over a second apart for t to move: three at a small time scale, two at real time.
      const needed = timing.scaled(BACKOFF_1) >= 2_000 ? 2 : 3;
      evidence.add({
        sentence: `Expected ${needed} attempts on the retry schedule, each re-signed (SIGN-5).`,
        timeline: retryTimeline(timing, { attempts: needed }),
      });
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, needed, timing.retryScheduleDeadlineMs());
      // Who signed and over which bytes, whatever the hex case or the joiner (those are SIGN-11's and SIGN-12's own
      // rules).
      const checks = attempts.map((e) => {
        const v = hmacSignerOf(e, [ws.signing.secret!]);
        return { e, v: { ...v, ok: v.secretIndex !== undefined } };
      });
      // The signature of attempt 1 is the signing rules' own (SIGN-11, SIGN-12); SIGN-5 is that each retry is signed
      // afresh.
      precondition(checks[0]!.v.ok, 'attempt 1 of onComplete carries a valid HMAC signature', {
        expected: 'a signature that verifies',
        seen: `${checks[0]!.v.reason}: ${describe(checks[0]!.e)}`,
      });
      checks.slice(1).forEach(({ e, v }, i) => {
        check
          .soft('SIGN-5', `attempt ${i + 2} of onComplete is signed over its unchanged body`, {
            id: 'sign.resigned-each-attempt',
          })
          .that(v.ok, {
            expected: 'a signature that verifies over the bytes of this attempt',
            seen: `${v.reason}: ${describe(e)}`,
          });
      });
      // SIGN-5 reading: t moves with the attempts' arrivals (skew-free: compared pairwise), equal t only within one
      // second.
      for (let i = 0; i < checks.length; i++) {
        for (let j = i + 1; j < checks.length; j++) {
          const a = checks[i]!;
          const b = checks[j]!;
          const arrival = (b.e.arrival.wallMs - a.e.arrival.wallMs) / 1000;
          const dt = (b.v.t ?? 0) - (a.v.t ?? 0);
          check
            .soft('SIGN-5', `t of attempt ${j + 1} moved from attempt ${i + 1} as the time between them`, {
              id: 'sign.resigned-each-attempt',
            })
            .that(Math.abs(dt - arrival) <= 1.5, {
              expected: `t moved ${arrival.toFixed(2)} s ± 1.5 s`,
              seen: `t moved ${dt} s (t ${String(a.v.t)} on #${a.e.seq}, ${String(b.v.t)} on #${b.e.seq})`,
            });
          if (arrival > 1.2)
            check
              .soft('SIGN-5', `attempt ${j + 1}, over a second after attempt ${i + 1}, carries a fresh t`, {
                id: 'sign.resigned-each-attempt',
              })
              .that(b.v.t !== a.v.t, {
                expected: `a t other than ${String(a.v.t)}`,
                seen: `the same t ${String(b.v.t)} on #${a.e.seq} and #${b.e.seq}, ${arrival.toFixed(2)} s apart`,
              });
        }
      }
    },
  ),
);
