/**
 * Judging the signature cases (signature-cases.ts) sent on every event of section 6 in one signing
 * mode, each check naming the clause its own condition decides:
 *   - a case a correct verifier accepts (a window edge) is answered 2xx: the case's clause;
 *   - a case a correct verifier refuses is refused on every event: the case's clause when it is
 *     accepted on every event (the step is missing), HOST-25 when it is accepted on some events and
 *     refused on others (verification skipped or broken on one code path, 5.2 item 3);
 *   - every answered refusal is exactly 401 (HOST-3, section 7); no answer is HOST-1's concern.
 * The facts GET's cases decide HOST-18 (refused: any 4xx) and HOST-16 (an edge inside the window
 * answered, like any correctly signed GET).
 */
import { check, warnCheck } from '../../shared/index.ts';
import type { ClauseId } from '../../../spec/index.ts';
import { factsCheckId, type SignatureCase } from './signature-cases.ts';
import { describe, isAck, type SendOutcome } from './send.ts';

export interface SentCase {
  mode: string;
  /** The event, or 'facts GET'. */
  kind: string;
  c: SignatureCase;
  o: SendOutcome;
  /** Wall-clock ms when it was sent: a window edge depends on the second the receiver reads it in. */
  sentAtMs: number;
}

/**
 * An edge whose verdict depends on the receiver's clock reading: t at now + 1 - 300 is inside the
 * window only until the next second begins, t at now + 302 outside it only for the next second (a
 * receiver on a fractional clock). An answer that came after that is not evidence either way.
 */
export function edgeInconclusive(s: SentCase): boolean {
  if (s.o.status === undefined) return false;
  const answeredAt = s.sentAtMs + s.o.elapsedMs;
  if (s.c.id === 'sig.t-past-300s-accepted') return !isAck(s.o) && Math.floor(answeredAt / 1000) > Math.floor(s.sentAtMs / 1000);
  if (s.c.id === 'sig.t-future-301s') return isAck(s.o) && answeredAt - Math.floor(s.sentAtMs / 1000) * 1000 >= 2_000;
  return false;
}

const answeredNon2xx = (o: SendOutcome) => o.status !== undefined && !isAck(o);

function groups(sent: readonly SentCase[]): SentCase[][] {
  const by = new Map<string, SentCase[]>();
  for (const s of sent) by.set(`${s.mode}\u0000${s.c.id}`, [...(by.get(`${s.mode}\u0000${s.c.id}`) ?? []), s]);
  return [...by.values()];
}

/**
 * The (mode, kind) pairs whose control (a correctly signed request, t at now) was accepted: a window
 * edge is evidence only where the receiver accepts a signature at all (refusing every one is the
 * verifier's failure, decided in lifecycle-ack.spec.ts, not the window's).
 */
function acceptingControls(sent: readonly SentCase[]): Set<string> {
  return new Set(sent.filter((s) => s.c.control && isAck(s.o)).map((s) => `${s.mode}\u0000${s.kind}`));
}

/** The callbacks of the cases, every event of section 6 each, in one or more modes. */
export function judgeCallbackCases(sent: readonly SentCase[]): void {
  const controls = acceptingControls(sent);
  for (const g of groups(sent)) {
    const { c, mode } = g[0]!;
    if (c.control) continue;
    // An edge left unanswered says nothing of the window (answering in time is HOST-1's rule).
    const judged = g.filter((s) => !edgeInconclusive(s) && (!c.accepted || (controls.has(`${s.mode}\u0000${s.kind}`) && s.o.status !== undefined)));
    for (const s of g.filter(edgeInconclusive)) warnCheck(c.clause, `${mode} ${s.kind}: ${c.name}`, `the answer came after the second in which t was at the window's edge (${describe(s.o)}): not evidence either way`);
    if (c.accepted) {
      for (const s of judged) check.soft(c.clause, `${mode} ${s.kind}: ${c.name}`, { id: c.id }).that(isAck(s.o), { expected: 'a 2xx', seen: describe(s.o) });
      continue;
    }
    const accepted = judged.filter((s) => isAck(s.o));
    const refused = judged.filter((s) => !isAck(s.o));
    if (accepted.length > 0 && refused.length > 0) {
      check.soft('HOST-25', `${mode}: ${c.name}, on every event alike`, { id: 'sig.every-event' }).that(false, {
        expected: 'refused on every event',
        seen: `accepted on ${accepted.map((s) => `${s.kind} (${describe(s.o)})`).join(', ')}; refused on ${refused.map((s) => s.kind).join(', ')}`,
      });
    } else {
      check.soft('HOST-25', `${mode}: ${c.name}, on every event alike`, { id: 'sig.every-event' }).that(true, { expected: '', seen: '' });
      for (const s of judged) check.soft(c.clause, `${mode} ${s.kind}: ${c.name}`, { id: c.id }).that(!isAck(s.o), { expected: 'refused (401)', seen: describe(s.o) });
    }
    for (const s of refused.filter((x) => answeredNon2xx(x.o))) {
      check.soft('HOST-3', `${mode} ${s.kind}: ${c.name}: the refusal is 401`, { id: 'sig.refusal-401' }).equals(s.o.status, 401);
    }
  }
}

/**
 * The facts GETs of the cases: refused with a 4xx (HOST-18, SHOULD; no answer at all is HOST-16's
 * concern, not a verdict on the signature), the edges answered where the control was (HOST-16).
 */
export function judgeFactsCases(sent: readonly SentCase[]): void {
  const controls = acceptingControls(sent);
  for (const s of sent) {
    if (s.c.control || (s.c.accepted && (!controls.has(`${s.mode}\u0000${s.kind}`) || s.o.status === undefined))) continue;
    const rule = `${s.mode} facts GET: ${s.c.name}`;
    if (edgeInconclusive(s)) {
      warnCheck(s.c.accepted ? 'HOST-16' : 'HOST-18', rule, `the answer came after the second in which t was at the window's edge (${describe(s.o)}): not evidence either way`);
      continue;
    }
    const id = factsCheckId(s.c);
    if (s.c.accepted) check.soft('HOST-16', rule, { id }).that(isAck(s.o), { expected: 'a 2xx', seen: describe(s.o) });
    else if (s.o.status !== undefined) check.soft('HOST-18', rule, { id }).that(s.o.status >= 400 && s.o.status < 500, { expected: 'refused with a 4xx', seen: describe(s.o) });
  }
}

/**
 * A correctly signed request, judged per its answer: a 2xx within the deadline is HOST-1's; a 401
 * is the verification of its mode refusing a good signature (HOST-10 in HMAC, HOST-7 in JWKS), or
 * HOST-1's when nothing is signed; anything else (no answer, a 3xx, a 5xx) is HOST-1's.
 */
export function judgeCorrectlySigned(mode: string, kind: string, o: SendOutcome, deadlineMs: number): void {
  const verification: ClauseId | undefined = mode === 'hmac' ? 'HOST-10' : mode === 'jwks' ? 'HOST-7' : undefined;
  if (o.status === 401 && verification !== undefined) {
    check.soft(verification, `${mode} ${kind}: a correctly signed callback is accepted by the verifier`, { id: 'sig.valid-accepted' }).that(false, { expected: 'a 2xx', seen: describe(o) });
    return;
  }
  if (verification !== undefined) check.soft(verification, `${mode} ${kind}: a correctly signed callback is accepted by the verifier`, { id: 'sig.valid-accepted' }).that(true, { expected: '', seen: '' });
  check.soft('HOST-1', `${mode} ${kind}: a correctly signed callback is acknowledged with a 2xx within ${deadlineMs} ms`, { id: 'ack.2xx-within-10s' }).that(isAck(o), { expected: `a 2xx within ${deadlineMs} ms`, seen: describe(o) });
}
