/**
 * ERR-1: every error body is the framework default { timestamp, status, error, path } and
 * nothing else (no message, no code). Used on every error response an area test sees.
 */
import { STATUS_CODES } from 'node:http';
import { test } from '../fixtures.ts';
import type { ServiceResponse } from '../fixtures.ts';
import { check, precondition, type CheckOptions, type ClauseRef } from '../../shared/index.ts';

// The reason phrase is the framework's: node's table plus the RFC 9110 renames, so a framework
// on either vocabulary passes (ERR-1 says "reason phrase", not which edition of the status table).
const ALTERNATE_PHRASES: Record<number, string[]> = {
  413: ['Content Too Large', 'Request Entity Too Large', 'Payload Too Large'],
  422: ['Unprocessable Content', 'Unprocessable Entity'],
  416: ['Range Not Satisfiable', 'Requested Range Not Satisfiable'],
};

export function reasonPhrases(status: number): string[] {
  const out = new Set<string>(ALTERNATE_PHRASES[status] ?? []);
  const node = STATUS_CODES[status];
  if (node) out.add(node);
  return [...out];
}

/** The request path of a recorded response, read from its curl line (the client records the URL there). */
export function requestPathOf(res: ServiceResponse): string | undefined {
  if (res.url) {
    try {
      return new URL(res.url).pathname;
    } catch {
      /* fall back to the curl line */
    }
  }
  const m = /(https?:\/\/[^\s'"]+)/.exec(res.curl ?? '');
  if (!m || !m[1]) return undefined;
  try {
    return new URL(m[1]).pathname;
  } catch {
    return undefined;
  }
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/**
 * A path as a framework may report it in an error body (ERR-1 reading): decoded, repeated slashes
 * as one; a configEnd written with its slash (UNSPEC-9, dataApi.configEnd with-slash) puts two in
 * a row, and many frameworks normalize them.
 */
function comparablePath(p: string): string {
  return safeDecode(p).replace(/\/{2,}/g, '/');
}

/** Problems of an error body against ERR-1 (empty when it conforms). */
export function errorBodyProblems(res: ServiceResponse): string[] {
  const problems: string[] = [];
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [`the ${res.status} body is not a JSON object: ${JSON.stringify(res.text.slice(0, 200))}`];
  const keys = Object.keys(body).sort();
  const expected = ['error', 'path', 'status', 'timestamp'];
  if (keys.join(',') !== expected.join(','))
    problems.push(`members are [${keys.join(', ')}], the framework default has exactly [${expected.join(', ')}]`);
  if (body.status !== res.status)
    problems.push(`status member is ${JSON.stringify(body.status)}, the HTTP status is ${res.status}`);
  if (typeof body.timestamp !== 'string') problems.push(`timestamp is ${JSON.stringify(body.timestamp)}, not a string`);
  const phrases = reasonPhrases(res.status);
  if (typeof body.error !== 'string' || !phrases.includes(body.error))
    problems.push(
      `error is ${JSON.stringify(body.error)}, not the reason phrase of ${res.status} (${phrases.join(' / ')})`,
    );
  const sent = requestPathOf(res);
  if (typeof body.path !== 'string') problems.push(`path is ${JSON.stringify(body.path)}, not a string`);
  else if (sent !== undefined && comparablePath(body.path) !== comparablePath(sent))
    problems.push(`path is ${JSON.stringify(body.path)}, the request path was ${JSON.stringify(sent)}`);
  return problems;
}

/** What a response was, in words: its status and the start of its body. */
export function answered(res: ServiceResponse): string {
  const body = res.text.slice(0, 300);
  return `${res.status}${body ? ` ${body}` : ''}`;
}

/**
 * A check of `clause`: the response has one of these statuses (its curl line is in the test's
 * evidence). The body's ERR-1 shape is only annotated here (expectErrorBodyIfError).
 */
export function expectError(
  clause: ClauseRef,
  res: ServiceResponse,
  status: number | number[],
  what: string,
  soft = false,
  o: CheckOptions = {},
): boolean {
  const allowed = Array.isArray(status) ? status : [status];
  const ok = (soft ? check.soft : check)(clause, `${what} is answered ${allowed.join(' or ')}`, o).that(
    allowed.includes(res.status),
    { expected: allowed.join(' or '), seen: answered(res), ...hintOf(res) },
  );
  expectErrorBodyIfError(res, what);
  return ok;
}

/**
 * ERR-1 on any error response (status >= 400) except the two 409 bodies (ERR-2/ERR-3). Outside
 * error-bodies.spec.ts a broken body is recorded as an annotation, not a failure: the failure
 * belongs to the ERR-1 tests, so a test of another clause never fails for ERR-1's rule.
 */
export function expectErrorBodyIfError(res: ServiceResponse, what = ''): void {
  if (res.status < 400 || res.status === 409) return;
  const problems = errorBodyProblems(res);
  if (problems.length === 0) return;
  try {
    test.info().annotations.push({
      type: 'ERR-1',
      description: `${what || res.method + ' ' + res.url}: ${problems.join('; ')}`,
    });
  } catch {
    /* outside a test */
  }
}

/**
 * The strict form, for the error-body tests themselves: the status is the route's own rule (a
 * precondition here: a wrong status has its own clause and test), the body is a check of `clause`
 * (ERR-1, or ERR-4 / ERR-5 for the 500 and 503 bodies).
 */
export function expectFrameworkErrorBody(
  clause: ClauseRef,
  res: ServiceResponse,
  status: number,
  what: string,
  o: CheckOptions = {},
): void {
  precondition(res.status === status, `${what} is answered ${status}`, {
    expected: String(status),
    seen: answered(res),
  });
  check
    .soft(
      clause,
      `the ${status} body of ${what} is the framework default { timestamp, status, error, path } and nothing else`,
      o,
    )
    .none(errorBodyProblems(res), 'no difference');
}

/**
 * Success of any 2xx (never asserting a body the contract does not show). With a clause it is a
 * check of that clause; without, a precondition of the test (a failure leaves its clauses blocked).
 */
export function expectSuccess(res: ServiceResponse, what: string, clause?: ClauseRef, o: CheckOptions = {}): boolean {
  const ok = res.status >= 200 && res.status < 300;
  const words = { expected: 'a 2xx', seen: answered(res) };
  if (clause !== undefined)
    return check(clause, `${what} is answered with a 2xx`, o).that(ok, { ...words, ...hintOf(res) });
  precondition(ok, `${what} is answered with a 2xx`, { ...words, ...hintOf(res) });
  return ok;
}

/**
 * The hint beside a failing check of a data API answer: the target field of the data API form the
 * request was written in, when a 404, 405 or 400 may come from another form (UNSPEC-8, UNSPEC-9).
 */
export function hintOf(res: ServiceResponse): { hint?: string } {
  return res.formHint ? { hint: res.formHint } : {};
}
