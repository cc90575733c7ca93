/**
 * Judging the signature cases (signature-cases.ts) sent on every event of section 6 in one signing
 * mode, each check naming the clause its own condition decides:
 *   - a case a correct verifier accepts (a window edge) is answered 2xx: the case's clause;
 *   - a case a correct verifier refuses is refused on every event: the case's clause when it is
 *     accepted on every event (the step is missing), HOST-25 when it is accepted on some events and
 *     refused on others (verification skipped or broken on one code path, 5.2 item 3);
 *   - every answered refusal is exactly 401 (HOST-3, section 7); no answer fails HOST-1 (ack.ts)
 *     and is never taken for a refusal.
 * The facts GET's cases decide HOST-18 (refused: any 4xx) and HOST-16 (an edge inside the window
 * answered, like any correctly signed GET).
 */
import { check, warnCheck } from '../../shared/index.ts';
import { callbackCheckId, factsCheckId, type SignatureCase } from './signature-cases.ts';
import { noAnswerHint } from './send.ts';
import { answered, describe, isAck, type SendOutcome } from '../../../judge/host/index.ts';
import { AnswerJudge, failNoAnswers, judgeAcks, someOf } from './ack.ts';

export interface SentCase {
  mode: string;
  /** The event, or 'facts GET'. */
  kind: string;
  c: SignatureCase;
  o: SendOutcome;
  /**
   * The second t was computed from (the sender's whole-second clock) and the wall-clock ms when the
   * answer came: a window edge depends on the second the receiver reads it in, and signing many cases
   * on a loaded machine can take most of a second before the request leaves.
   */
  tBaseS: number;
  answeredAtMs: number;
}

/**
 * An edge whose verdict depends on the receiver's clock reading: t at base + 1 - 300 is inside the
 * window only until the second after base begins, t at base + 302 outside it only until base + 2 s
 * (a receiver on a fractional clock). An answer that came after that is not evidence either way.
 */
export function edgeInconclusive(s: SentCase): boolean {
  if (s.o.status === undefined) return false;
  const late = s.answeredAtMs - s.tBaseS * 1000;
  if (s.c.id === 'sig.t-past-300s-accepted') return !isAck(s.o) && late >= 1_000;
  if (s.c.id === 'sig.t-future-301s') return isAck(s.o) && late >= 2_000;
  return false;
}

function groups(sent: readonly SentCase[]): SentCase[][] {
  const by = new Map<string, SentCase[]>();
  for (const s of sent) by.set(`${s.mode}\u0000${s.c.id}`, [...(by.get(`${s.mode}\u0000${s.c.id}`) ?? []), s]);
  return [...by.values()];
}

/**
 * The (mode, kind) pairs whose control (a correctly signed request, t at now) was accepted: a case
 * is evidence only where the receiver accepts a signature at all (refusing every one is the
 * verifier's failure or HOST-1's, decided on the controls, not the case's).
 */
function acceptingControls(sent: readonly SentCase[]): Set<string> {
  return new Set(sent.filter((s) => s.c.control && isAck(s.o)).map((s) => `${s.mode}\u0000${s.kind}`));
}

/**
 * The callbacks of the cases, every event of section 6 each, in one or more modes. The controls
 * (correctly signed) are judged as every callback is (ack.ts: HOST-1, HOST-2, the verifier); a case
 * left unanswered fails HOST-1 and decides nothing of its own clause (no answer is not a refusal),
 * and no clause passes in a run where one of these requests got no answer.
 */
export function judgeCallbackCases(sent: readonly SentCase[], deadlineMs: number): void {
  const controls = acceptingControls(sent);
  const judge = new AnswerJudge(sent.map((s) => s.o));
  // Sent amid every other case at once: HOST-1 and the verifier here; HOST-2 where callbacks go out a few at a time.
  const controlled = sent.filter((s) => s.c.control).map((s) => ({ mode: s.mode, kind: s.kind, o: s.o }));
  judgeAcks(controlled, { deadlineMs, timed: false });
  const unanswered = sent.filter((x) => !x.c.control && !answered(x.o));
  failNoAnswers(
    unanswered.map((s) => ({ mode: s.mode, kind: `${s.kind} (${s.c.name})`, o: s.o })),
    deadlineMs,
    'ack.answered',
  );
  for (const g of groups(sent)) {
    const { c, mode } = g[0]!;
    if (c.control) continue;
    const key = (s: SentCase) => `${s.mode}\u0000${s.kind}`;
    const seen = g.filter((s) => answered(s.o) && !edgeInconclusive(s));
    // A refusal (or an edge accepted) is evidence only where the control of its mode and event was
    // acknowledged: a receiver that answers every callback 404 (a wrong hook path) or 401 refuses a
    // bad signature by accident. A bad signature accepted is evidence wherever it is.
    const withControl = seen.filter((s) => controls.has(key(s)));
    for (const s of g.filter(edgeInconclusive))
      warnCheck(
        c.clause,
        `${mode} ${s.kind}: ${c.name}`,
        `the answer came after the second in which t was at the window's edge (${describe(s.o)}): not evidence either way`,
      );
    if (c.accepted) {
      for (const s of withControl) {
        const words = { expected: 'a 2xx', seen: describe(s.o) };
        judge.soft(c.clause, `${mode} ${s.kind}: ${c.name}`, callbackCheckId(c), isAck(s.o), words);
      }
      continue;
    }
    const accepted = seen.filter((s) => isAck(s.o));
    const refused = withControl.filter((s) => !isAck(s.o));
    const rule = `${mode}: ${c.name}, on every event alike`;
    if (accepted.length > 0 && refused.length > 0) {
      judge.soft('HOST-25', rule, 'sig.every-event', false, {
        expected: 'refused on every event',
        seen: `accepted on ${accepted.map((s) => `${s.kind} (${describe(s.o)})`).join(', ')}; refused on ${refused.map((s) => s.kind).join(', ')}`,
      });
    } else {
      if (accepted.length + refused.length > 0) {
        judge.soft('HOST-25', rule, 'sig.every-event', true, { expected: '', seen: '' });
      }
      for (const s of [...accepted, ...refused]) {
        judge.soft(c.clause, `${mode} ${s.kind}: ${c.name}`, callbackCheckId(c), !isAck(s.o), {
          expected: 'refused (401)',
          seen: describe(s.o),
        });
      }
    }
    for (const s of refused) {
      judge.soft('HOST-3', `${mode} ${s.kind}: ${c.name}: the refusal is 401`, 'sig.refusal-401', s.o.status === 401, {
        expected: '401',
        seen: describe(s.o),
      });
    }
  }
}

/**
 * The facts GETs of the cases: refused with a 4xx (HOST-18, SHOULD), the edges answered where the
 * control was (HOST-16). No answer at all fails HOST-16 (the facts endpoint answers within the 10 s
 * fetch timeout) and decides nothing of HOST-18.
 */
export function judgeFactsCases(sent: readonly SentCase[], deadlineMs: number): void {
  const controls = acceptingControls(sent);
  const judge = new AnswerJudge(sent.map((s) => s.o));
  // No answer: one failed check per mode, naming each case (as failNoAnswers does for callbacks).
  for (const mode of new Set(sent.map((s) => s.mode))) {
    const missed = sent.filter((s) => s.mode === mode && !answered(s.o));
    const first = missed[0];
    if (first === undefined) continue;
    const id = 'facts.answered-within-10s';
    const rule = `${mode} facts GET: ${missed.length === 1 ? first.c.name : `each of ${missed.length} cases`}`;
    check.soft('HOST-16', `${rule}: answered within ${deadlineMs} ms`, { id }).that(false, {
      expected: `an HTTP answer within ${deadlineMs} ms`,
      seen:
        missed.length === 1
          ? describe(first.o)
          : `none of ${missed.length} answered (${someOf(missed.map((s) => s.c.name))}), e.g. ${describe(first.o)}`,
      hint: noAnswerHint(first.o, 'hostBaseUrl + factsPath'),
    });
  }
  for (const s of sent) {
    const rule = `${s.mode} facts GET: ${s.c.name}`;
    if (!answered(s.o)) continue;
    const withControl = controls.has(`${s.mode}\u0000${s.kind}`);
    // A refusal is evidence only where a correctly signed GET is answered; a bad one served, wherever.
    if (s.c.control || (!withControl && (s.c.accepted || !isAck(s.o)))) continue;
    if (edgeInconclusive(s)) {
      warnCheck(
        s.c.accepted ? 'HOST-16' : 'HOST-18',
        rule,
        `the answer came after the second in which t was at the window's edge (${describe(s.o)}): not evidence either way`,
      );
      continue;
    }
    const id = factsCheckId(s.c);
    if (s.c.accepted) judge.soft('HOST-16', rule, id, isAck(s.o), { expected: 'a 2xx', seen: describe(s.o) });
    else {
      judge.soft('HOST-18', rule, id, s.o.status! >= 400 && s.o.status! < 500, {
        expected: 'refused with a 4xx',
        seen: describe(s.o),
      });
    }
  }
}
