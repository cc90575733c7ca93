/**
 * Checks that name their clauses (spec/checks.ts): the one way a conformance test asserts.
 *
 *   check('HOST-3', 'a callback with a bad signature is refused').equals(o.status, 401)
 *   check.soft(['HOST-6'], `${mode} ${event}: t at now + 301 s is refused`).that(o.status === 401, { expected: '401',
 * seen: describe(o) })
 *
 * check(...) stops the test on a failure (what follows depends on it); check.soft(...) records the
 * failure and goes on, so one run reports every broken rule. Either way the failure is written in
 * words (the rule, what was expected, what was seen) and decides only the clauses it names; the
 * suites' fixtures attach the records when the test ends (attachChecks).
 */
import { expect as baseExpect, test, type TestInfo } from '@playwright/test';
import {
  CHECKS_ATTACHMENT,
  ccsError,
  checkWords,
  hintOfCheck,
  processRedactor,
  type CheckRecord,
  type ClauseId,
  type HostCheckId,
  type ServiceCheckId,
} from '../../spec/index.ts';

export type ClauseRef = ClauseId | readonly ClauseId[];

export interface Words {
  expected: string;
  seen: string;
  /** A known library or mistake that explains a failure (shown beside it). */
  hint?: string;
}

/** The conditions a check can state; each returns whether it held. */
export interface Checker {
  /** The general form: the condition with what the rule expects and what was seen, in words. */
  that(ok: boolean, words: Words): boolean;
  /** Deep equality of JSON values. */
  equals(seen: unknown, expected: unknown, hint?: string): boolean;
  oneOf(seen: unknown, allowed: readonly unknown[], hint?: string): boolean;
  matches(seen: string | undefined, pattern: RegExp, expected?: string): boolean;
  /** A value that must be there (a response, an entry, a field). */
  present(seen: unknown, expected: string): boolean;
  absent(seen: unknown, expected?: string): boolean;
  /** A list of problems (or offending items) that must be empty. */
  none(found: readonly unknown[], expected: string): boolean;
  atLeast(seen: number, min: number, unit?: string): boolean;
  atMost(seen: number, max: number, unit?: string): boolean;
}

interface Store {
  records: CheckRecord[];
  passes: Map<string, CheckRecord>;
}

const stores = new WeakMap<TestInfo, Store>();
/** At most this many failing records of one rule are kept: the count says how many more failed. */
const MAX_FAILURES_PER_RULE = 40;

function currentInfo(): TestInfo | undefined {
  try {
    return test.info();
  } catch {
    return undefined; // outside a test (a helper used from a script)
  }
}

function storeOf(info: TestInfo): Store {
  let s = stores.get(info);
  if (s === undefined) {
    s = { records: [], passes: new Map() };
    stores.set(info, s);
  }
  return s;
}

const ids = (clause: ClauseRef): string[] => (typeof clause === 'string' ? [clause] : [...clause]);

/** A value in words: JSON, cut short; undefined as "absent". */
export function show(v: unknown, max = 200): string {
  if (v === undefined) return 'absent';
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

const checkExpect = baseExpect.extend({
  toHold(received: CheckRecord) {
    return { pass: received.outcome !== 'failed', message: () => checkWords(received), name: 'check' };
  },
});

/** A check id of either fault model (generated from spec/faults/*.yaml): a mistyped id fails to typecheck. */
export type CheckId = ServiceCheckId | HostCheckId;

/** Options of a check: its id in the fault models (spec/faults/*.yaml), whose rows may carry a hint. */
export interface CheckOptions {
  id?: CheckId;
}

/**
 * A connection refused or never made is no HTTP answer (PITFALLS "Evidence"): nothing listens there, and
 * no library or mistake of the fault model explains it, so their hint would mislead ("a redirect is not
 * a 2xx"). A reset keeps the fault model's hint: a server's header limit can close the connection early.
 */
const NO_ANSWER = /\b(?:ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)\b/;
/**
 * A callback held open past its deadline (suites/host/harness/send.ts describe): no answer either, whatever
 * status the fault model's rows of the check speak of.
 */
const TIMED_OUT = /\bPOST \S+: no answer within the deadline\b/;

/** Where a request got no answer, when the check knows: the origin, the transport error, the target field. */
export interface NoAnswerAt {
  origin: string;
  error?: string;
  /** The field of the target file (or flag) that names where it listens, e.g. `hostBaseUrl + hookPath`. */
  field: string;
}

/**
 * The one hint of a request that got no HTTP answer: refused (nothing listens) or held past its
 * deadline (acknowledge first, 4.1). With `at`, it names the origin, the error and the field to check.
 */
export function noAnswerHint(failure: 'refused' | 'timeout', at?: NoAnswerAt): string {
  const from = at === undefined ? '' : ` from ${at.origin}`;
  if (failure === 'timeout')
    return (
      `No HTTP answer${from} within the deadline: the connection was accepted and held open. ` +
      'Acknowledge a callback first (a 2xx) and do its work afterwards: a data API read can take seconds (section 4.1).'
    );
  const why = at === undefined ? '' : ` (${at.error ?? 'connection failed'})`;
  const where = at === undefined ? 'the URL shown (the target file or flags give it)' : `the URL ${at.field} names`;
  return (
    `No HTTP answer${from}: nothing accepted the connection${why}. ` +
    `Check that the implementation is running and listens at ${where}.`
  );
}
export const NO_ANSWER_HINT = noAnswerHint('refused');
export const TIMED_OUT_HINT = noAnswerHint('timeout');

/** The hint of a failed check: its own, else the no-answer one, else its fault-model row's (hintOfCheck). */
export function hintOfFailure(
  o: CheckOptions,
  words: Words,
  rule = '',
): { hint: string } | ReturnType<typeof hintOfCheck> {
  if (words.hint !== undefined) return { hint: words.hint };
  if (NO_ANSWER.test(words.seen)) return { hint: NO_ANSWER_HINT };
  if (TIMED_OUT.test(words.seen)) return { hint: TIMED_OUT_HINT };
  return o.id === undefined ? undefined : hintOfCheck(o.id, `${rule}: ${words.seen}`);
}

function record(clauses: string[], rule: string, o: CheckOptions, ok: boolean, words: Words, hard: boolean): boolean {
  const info = currentInfo();
  // A failure a known library or mistake explains says so (the fault model's hint of this check).
  const hint = ok ? (words.hint !== undefined ? { hint: words.hint } : undefined) : hintOfFailure(o, words, rule);
  const id = o.id !== undefined ? { id: o.id } : {};
  const rec: CheckRecord = ok
    ? { clauses, ...id, rule, outcome: 'passed' }
    : {
        clauses,
        ...id,
        rule,
        outcome: 'failed',
        expected: words.expected,
        seen: words.seen,
        ...(hint ?? {}),
        ...(hard ? { stopped: true } : {}),
      };
  if (info !== undefined) {
    const s = storeOf(info);
    const key = `${clauses.join(',')}\u0000${o.id ?? ''}\u0000${rule}`;
    if (ok) {
      const known = s.passes.get(key);
      if (known) known.count = (known.count ?? 1) + 1;
      else {
        s.passes.set(key, rec);
        s.records.push(rec);
      }
    } else {
      const same = s.records.filter(
        (r) => r.outcome === 'failed' && r.rule === rule && r.id === o.id && r.clauses.join(',') === clauses.join(','),
      );
      if (same.length < MAX_FAILURES_PER_RULE) s.records.push(rec);
      else same[same.length - 1]!.count = (same[same.length - 1]!.count ?? 1) + 1;
    }
  }
  if (!ok) {
    if (hard) checkExpect(rec).toHold();
    else checkExpect.soft(rec).toHold();
  }
  return ok;
}

function checker(clause: ClauseRef, rule: string, o: CheckOptions, hard: boolean): Checker {
  const clauses = ids(clause);
  const say = (ok: boolean, words: Words) => record(clauses, rule, o, ok, words, hard);
  return {
    that: say,
    equals: (seen, expected, hint) =>
      say(deepEqual(seen, expected), { expected: show(expected), seen: show(seen), ...(hint ? { hint } : {}) }),
    oneOf: (seen, allowed, hint) =>
      say(
        allowed.some((a) => deepEqual(a, seen)),
        { expected: `one of ${allowed.map((a) => show(a)).join(', ')}`, seen: show(seen), ...(hint ? { hint } : {}) },
      ),
    matches: (seen, pattern, expected) =>
      say(typeof seen === 'string' && pattern.test(seen), {
        expected: expected ?? `a value matching ${String(pattern)}`,
        seen: show(seen),
      }),
    present: (seen, expected) =>
      say(seen !== undefined && seen !== null, { expected, seen: seen === null ? 'null' : 'nothing' }),
    absent: (seen, expected = 'absent') => say(seen === undefined, { expected, seen: show(seen) }),
    none: (found, expected) =>
      say(found.length === 0, { expected, seen: found.map((f) => (typeof f === 'string' ? f : show(f))).join('; ') }),
    atLeast: (seen, min, unit = '') => say(seen >= min, { expected: `at least ${min}${unit}`, seen: `${seen}${unit}` }),
    atMost: (seen, max, unit = '') => say(seen <= max, { expected: `at most ${max}${unit}`, seen: `${seen}${unit}` }),
  };
}

/** A check that stops the test when it fails. */
export const check = Object.assign(
  (clause: ClauseRef, rule: string, o: CheckOptions = {}): Checker => checker(clause, rule, o, true),
  {
    /** A check that records its failure and lets the test go on. */
    soft: (clause: ClauseRef, rule: string, o: CheckOptions = {}): Checker => checker(clause, rule, o, false),
  },
);

/**
 * A step the test needs but that no clause decides (a driver call, a record to set up, a callback
 * to wait for before the rule can be looked at): a failure stops the test, in words, and leaves
 * the clauses it cites blocked (not decided) rather than failed. A hint is written after the words,
 * as a check's is ("... Hint: ..."), and the report lists it with the run's hints.
 */
export function precondition(
  ok: boolean,
  what: string,
  words: { expected: string; seen: string; hint?: string },
): void {
  if (!ok) {
    const hint = words.hint ? `. Hint: ${words.hint}` : '';
    throw ccsError('TARGET_PRECONDITION_FAILED', { what, expected: words.expected, seen: words.seen, hint });
  }
}

/** The test ran but could not check these clauses: they are reported not exercised, with the reason. */
export function notExercised(clause: ClauseRef, reason: string): void {
  const info = currentInfo();
  if (info !== undefined)
    storeOf(info).records.push({
      clauses: ids(clause),
      rule: 'not exercised in this run',
      outcome: 'not-exercised',
      reason,
    });
}

/** The harness cannot tell whether the rule holds: shown beside the clause, never a failure. */
export function warnCheck(clause: ClauseRef, rule: string, reason: string): void {
  const info = currentInfo();
  if (info !== undefined) storeOf(info).records.push({ clauses: ids(clause), rule, outcome: 'warning', reason });
}

/** The checks a test made so far (its fixtures attach them at the end). */
export function checksOf(info: TestInfo): readonly CheckRecord[] {
  return stores.get(info)?.records ?? [];
}

/** Attaches the test's checks as 'ccs-checks' (called by the suites' fixtures after the test body). */
export async function attachChecks(info: TestInfo): Promise<void> {
  const records = checksOf(info);
  if (records.length === 0) return;
  // The words may quote what a target sent: they pass the one redactor like every evidence (spec/redact.ts).
  await info.attach(CHECKS_ATTACHMENT, {
    body: JSON.stringify(processRedactor.value(records)),
    contentType: 'application/json',
  });
}
