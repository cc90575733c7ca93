/**
 * Reads of the data API that a test needs before it can judge its rule (4.2, 7). A read the rule
 * under test does not judge is a precondition: a service that breaks it leaves the test's clauses
 * blocked, and fails the read's own clause in the test of that clause.
 */
import type { ServiceResponse } from '../fixtures.ts';
import { answered, hintOf } from './errors.ts';
import { asEnvelope } from '../../../judge/service/envelope.ts';
import { check, precondition, type ClauseRef } from '../../shared/index.ts';

export type Envelope = ReturnType<typeof asEnvelope>;

/** A read this test needs but does not judge answered 200 (else its clauses are blocked); its envelope. */
export function readOk(r: ServiceResponse, what: string): Envelope {
  precondition(r.status === 200, `${what} is answered 200`, { expected: '200', seen: answered(r), ...hintOf(r) });
  return asEnvelope(r.json);
}

/** A check of `clause`: the read answered 200 (the rule says it answers the record); its envelope. */
export function expectRead(clause: ClauseRef, r: ServiceResponse, rule: string): Envelope {
  check(clause, rule).that(r.status === 200, { expected: '200', seen: answered(r), ...hintOf(r) });
  return asEnvelope(r.json);
}
