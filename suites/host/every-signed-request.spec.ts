/**
 * The signature rows of the host fault model (spec/faults/host.yaml, harness/signature-cases.ts):
 * every case tried on every kind of signed request the host receives (each event of section 6,
 * 5.2 item 3; the facts GET, 5.2 item 6), in each signing mode under test. The window's edges come
 * first, sent at the start of a second (the receiver's clock decides them); then every other case
 * at once. Each check names the clause its own condition decides (harness/judge-signatures.ts).
 */
import { LIFECYCLE_EVENTS, unixNow, type LifecycleEvent } from '../../protocol/index.ts';
import { test, hostTags, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { casesFor, type SignatureCase } from './harness/signature-cases.ts';
import { signedModeClauses, signingModesUnderTest } from './harness/modes.ts';
import { deliverCase, fetchFactsCase } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { judgeCallbackCases, judgeFactsCases, edgeInconclusive, type SentCase } from './harness/judge-signatures.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { servedKeysOf } from '../../judge/host/index.ts';
import { atStartOfSecond } from './harness/clock.ts';
import type { ClauseId } from '../../spec/index.ts';

const MODES = signingModesUnderTest();

/** The clauses the callback cases of the modes under test decide, and those every case decides. */
function callbackClauses(extra: ClauseId[]): ClauseId[] {
  const cs = MODES.flatMap((m) =>
    casesFor(m, 'callback')
      .filter((c) => !c.control)
      .map((c) => c.clause),
  );
  return [...new Set([...extra, ...cs])];
}

function signedEndpoints(host: HostHarness): ModeEndpoint[] {
  const eps = allEndpoints(host).filter((e) => e.mode !== 'none');
  test.skip(eps.length === 0, 'capability signing not offered by the target (signing.mode none)');
  return eps;
}

/**
 * Prepares one case on one event: a fresh payload each, so a receiver that wrongly accepts one case
 * cannot dedupe the next. The records a callback names (an onComplete's keys, a config.saved's) are
 * announced here, before the second the edges go out in: with a shared service side that is a round
 * trip, which must not push the sending past the second t was taken from (the edge would then be
 * judged on the wrong second). The judge holds an accepted onComplete to its reads (HOST-13).
 */
async function prepareCallback(
  host: HostHarness,
  ep: ModeEndpoint,
  event: LifecycleEvent,
  c: SignatureCase,
): Promise<Send<SentCase>> {
  const payload = lifecyclePayload(event, {
    workspaceKey: host.target.workspaceKey,
    configEnd: host.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });
  const served = servedKeysOf(payload);
  if (served.length > 0) await host.service.announce(String(payload.endUserHandle), served);
  return async (now) => {
    const tBaseS = now ?? unixNow();
    const o = await deliverCase(host, ep, payload, c, tBaseS);
    return { mode: ep.mode, kind: event, c, o, tBaseS, answeredAtMs: Date.now() };
  };
}

/** A prepared case: sends it, t from `now` when given. */
type Send<T> = (now?: number) => Promise<T>;

/**
 * How long the other cases wait for the edges to be answered before they go out anyway (a receiver that never answers).
 */
const EDGES_HEAD_START_MS = 1_000;

/**
 * The edges first, at the start of a second, and an inconclusive edge (answered after its second)
 * once more; the other cases once the edges are answered, or a second after they went out, so a
 * receiver that never answers costs one request deadline, not two.
 */
async function sendAll<T extends SentCase>(
  plan: Array<{ c: SignatureCase; prepare: () => Promise<Send<T>> }>,
): Promise<T[]> {
  const edges = plan.filter((p) => p.c.t !== undefined);
  const rest = plan.filter((p) => p.c.t === undefined);
  const ready = await Promise.all(edges.map((p) => p.prepare()));
  const firstRound = atStartOfSecond((now) => Promise.all(ready.map((send) => send(now))));
  const restSent = Promise.race([
    firstRound,
    new Promise((resolve) => setTimeout(resolve, 1_000 + EDGES_HEAD_START_MS)),
  ]).then(() => Promise.all(rest.map(async (p) => (await p.prepare())())));
  const first = await firstRound;
  const again = first.map((s, i) => ({ s, i })).filter(({ s }) => edgeInconclusive(s));
  if (again.length > 0) {
    const retry = await Promise.all(again.map(({ i }) => edges[i]!.prepare()));
    const retried = await atStartOfSecond((now) => Promise.all(retry.map((send) => send(now))));
    again.forEach(({ i }, k) => {
      first[i] = retried[k]!;
    });
  }
  return [...first, ...(await restSent)];
}

{
  // The controls are correctly signed callbacks: judged on HOST-1 and the verifier (harness/ack.ts).
  const clauses = callbackClauses(['HOST-1', 'HOST-3', 'HOST-25', ...signedModeClauses()]);
  test(
    `every event with each bad signature of the fault model is refused with 401, and the window's edges are accepted, in every signing mode (${clauses.join(', ')})`,
    { tag: hostTags(...clauses) },
    async ({ host }, testInfo) => {
      test.setTimeout(3 * host.target.timeouts.requestMs + 30_000);
      const plan = signedEndpoints(host).flatMap((ep) =>
        casesFor(ep.mode as 'hmac' | 'jwks', 'callback').flatMap((c) =>
          (LIFECYCLE_EVENTS as readonly LifecycleEvent[]).map((event) => ({
            c,
            prepare: () => prepareCallback(host, ep, event, c),
          })),
        ),
      );
      const sent = await sendAll(plan);
      await attachEvidence(
        testInfo,
        'every event with a bad signature must be refused with 401; t at now - 300 s and now + 300 s accepted (HOST-3, HOST-25 and the clause of each case)',
        sent.map((s) => s.o),
      );
      judgeCallbackCases(sent, host.target.timeouts.requestMs);
    },
  );
}

{
  const clauses: ClauseId[] = MODES.length > 0 ? ['HOST-18', 'HOST-16', 'HOST-15'] : ['HOST-18'];
  test(
    "the facts GET with each bad signature of the fault model is refused with a 4xx, and the window's edges are answered with the facts, in every signing mode (HOST-18, HOST-16, HOST-15)",
    { tag: hostTags(...clauses) },
    async ({ host }, testInfo) => {
      const eps = signedEndpoints(host).filter((e) => e.factsUrl !== undefined);
      test.skip(eps.length === 0, 'capability facts endpoint not offered by the target (factsPath not set)');
      test.setTimeout(3 * host.target.timeouts.requestMs + 20_000);
      const handle = host.target.endUserHandle ?? freshHandle();
      const plan = eps.flatMap((ep) =>
        casesFor(ep.mode as 'hmac' | 'jwks', 'facts').map((c) => ({
          c,
          prepare: async (): Promise<Send<SentCase>> => async (now) => {
            const tBaseS = now ?? unixNow();
            const o = await fetchFactsCase(host, ep, handle, c, tBaseS);
            return { mode: ep.mode, kind: 'facts GET', c, o, tBaseS, answeredAtMs: Date.now() };
          },
        })),
      );
      const sent = await sendAll(plan);
      await attachEvidence(
        testInfo,
        "a facts GET with a bad signature should be refused with a 4xx (HOST-18); the window's edges answered (HOST-16)",
        sent.map((s) => s.o),
      );
      judgeFactsCases(sent, host.target.timeouts.requestMs);
    },
  );
}
