/**
 * What the model says each answer must be, each condition naming the clause it decides:
 *   - a genuine callback is acknowledged with a 2xx (HOST-1); refused 401 it is the verifier's failure of the
 *     key or secret that signed it (HOST-9 the previous secret, HOST-8 a rotated kid, new or still published,
 *     HOST-10 or HOST-7 otherwise); a redelivery's is HOST-11's, a retry's HOST-12's, a later bulk page's HOST-14's;
 *   - a bad copy (forged, tampered, replayed) that is refused is refused with 401 (HOST-3, section 7); whether
 *     it is refused at all is the judge's (the ledger's refused duty, judge/host/duties.ts), told by the sender;
 *   - a genuine facts GET is answered 2xx (HOST-16); the answer's shape is the judge's (HOST-15).
 * A callback without an answer is HOST-1's (ack.answered). Where two clauses both name the failure of one
 * answer (a retry of an acknowledged delivery refused: HOST-11's and HOST-12's), the step leaves it undecided
 * and the sequence goes on: the unambiguous steps decide each clause.
 */
import type { ClauseId, HostCheckId } from '../../../spec/index.ts';
import { answered, describe, isAck, type RefusalCheck, type SendOutcome } from '../../../judge/host/index.ts';
import type { BadKind, Signer } from './model.ts';
import { must, type HostTally } from './violation.ts';

export type Situation = 'first' | 'redelivery' | 'retry' | 'later-page';

const refusal = (o: SendOutcome) => o.status === 401 || o.status === 403;

/**
 * The clause of a genuine callback refused for its signature: the verifier of what signed it. A rotated kid
 * the receiver acknowledged before, or the first of two rotations' kids, is a kid the document still publishes
 * after a rotation (HOST-8's reading: every kid the document lists verifies); a rotated kid met for the first
 * time is the refetch's.
 */
function verifierOf(mode: string, s: Signer, known: boolean): { clause: ClauseId; id: HostCheckId } {
  if (s === 'previous') return { clause: 'HOST-9', id: 'hmac.previous-secret-accepted' };
  if (s === 'earlier-rotated' || (s === 'rotated' && known))
    return { clause: 'HOST-8', id: 'jwks.published-kid-accepted' };
  if (s === 'rotated') return { clause: 'HOST-8', id: 'jwks.refetch-on-new-kid' };
  return { clause: mode === 'jwks' ? 'HOST-7' : 'HOST-10', id: 'sig.valid-accepted' };
}

const SITUATION: Record<Exclude<Situation, 'first'>, { clause: ClauseId; id: HostCheckId; rule: string }> = {
  redelivery: {
    clause: 'HOST-11',
    id: 'delivery.redelivery-acked',
    rule: 'a redelivery (same delivery id, same body) is acknowledged again with a 2xx (section 6 rule 4)',
  },
  retry: {
    clause: 'HOST-12',
    id: 'delivery.retry-acked',
    rule: 'an onComplete at attempt 2 or 3 is acknowledged like attempt 1 (section 6 rule 4)',
  },
  'later-page': {
    clause: 'HOST-14',
    id: 'delivery.every-page-acked',
    rule: 'every page of a bulk manifest is acknowledged, each page a separate delivery (section 6)',
  },
};

export function expectAck(
  tally: HostTally,
  o: SendOutcome,
  x: { mode: string; signer: Signer; situation: Situation; what: string; retry: boolean; known: boolean },
): boolean {
  const seen = `${x.what}: ${describe(o)}`;
  const expected = 'a 2xx';
  if (!answered(o)) {
    const rule = 'every callback is answered (section 4.1: a 2xx within the 10 s whole-request timeout)';
    must(tally, false, { clause: 'HOST-1', id: 'ack.answered', rule, expected, seen });
  }
  if (isAck(o)) {
    const own = x.situation === 'first' ? undefined : SITUATION[x.situation];
    tally.add('HOST-1');
    if (own) tally.add(own.clause);
    if (x.signer !== 'current') tally.add(verifierOf(x.mode, x.signer, x.known).clause);
    return true;
  }
  // A redelivery at attempt 2 or 3 refused: HOST-11 (dedupe on the id) and HOST-12 (attempts alike) both apply.
  if (x.situation === 'redelivery' && x.retry && !refusal(o)) return false;
  if (refusal(o) && x.mode !== 'none') {
    const v = verifierOf(x.mode, x.signer, x.known);
    const rule = `a correctly signed callback (${x.signer} signer, t now) passes verification (section 5.2)`;
    must(tally, false, { ...v, rule, expected, seen });
  }
  const v =
    x.situation === 'first'
      ? {
          clause: 'HOST-1' as const,
          id: 'ack.2xx-within-10s' as const,
          rule: 'a verified callback is acknowledged with a 2xx (section 4.1)',
        }
      : SITUATION[x.situation];
  must(tally, false, { ...v, expected, seen });
  return false;
}

/** The refusal duty a bad copy's sender gives the judge (judge/host/duties.ts): the clause of the one thing broken. */
export function refusalOf(mode: string, kind: BadKind): RefusalCheck {
  const jwks = mode === 'jwks';
  if (kind === 'forged')
    return jwks
      ? { clause: 'HOST-7', id: 'sig.jws-wrong-key', rule: 'a callback signed by another key under the kid is refused' }
      : { clause: 'HOST-10', id: 'sig.hmac-wrong-secret', rule: 'a callback signed with another secret is refused' };
  if (kind === 'tampered')
    return jwks
      ? {
          clause: 'HOST-7',
          id: 'sig.jws-body-byte-changed',
          rule: 'a callback whose body lost a byte after signing is refused (step 6)',
        }
      : {
          clause: 'HOST-4',
          id: 'sig.body-byte-changed',
          rule: 'a callback whose body changed a byte after signing is refused (raw bytes)',
        };
  return {
    clause: 'HOST-5',
    id: 'sig.t-past-301s',
    rule: 'a copy replayed with its t more than 300 s in the past is refused (5.2 item 4)',
  };
}

/** A refused bad copy is refused with 401 (HOST-3); one accepted is the judge's refusal duty (refusalOf). */
export function expectRefusal(tally: HostTally, o: SendOutcome, what: string): void {
  if (!answered(o)) {
    const rule = 'every callback is answered, a bad copy too (section 4.1)';
    must(tally, false, { clause: 'HOST-1', id: 'ack.answered', rule, expected: 'a 401', seen: describe(o) });
  }
  if (isAck(o)) return;
  must(tally, o.status === 401, {
    clause: 'HOST-3',
    id: 'sig.refusal-401',
    rule: 'a callback that fails verification is answered 401 (section 7)',
    expected: '401',
    seen: `${what}: ${describe(o)}`,
  });
}

/**
 * A genuine facts GET answered: 2xx (HOST-16). Undecided (false, the sequence goes on) when it got no answer,
 * which says nothing of the facts endpoint when the receiver stopped (HOST-1's, on the next callback) and is
 * the facts tests' to time (HOST-16), or when it was refused before any genuine callback of the mode was
 * accepted: the verifier may refuse every correct signature (the verifier's clause, on the next callback).
 */
export function expectFacts(tally: HostTally, o: SendOutcome, what: string, verifierSeen: boolean): boolean {
  if (!answered(o) || (refusal(o) && !verifierSeen)) return false;
  must(tally, isAck(o), {
    clause: 'HOST-16',
    id: 'facts.answered-within-10s',
    rule: 'a correctly signed facts GET is answered 2xx within the 10 s fetch timeout (section 4.1)',
    expected: 'a 2xx',
    seen: `${what}: ${describe(o)}`,
  });
  return true;
}
