/**
 * A check: one condition of a test, naming the clause or clauses that condition decides. A test
 * records every check it makes (attached as 'ccs-checks'); the reporter decides each clause from
 * the checks that name it, never from the test as a whole: one failed condition fails its own
 * clauses, the other clauses of the test keep the verdict of their own checks (PITFALLS
 * "Verdicts"). One definition for the suites that write checks and the reports that read them.
 */

export const CHECKS_ATTACHMENT = 'ccs-checks';

/**
 * passed / failed: the condition held or not. not-exercised: the test ran but could not check
 * the clause (signing off, say), with the reason. warning: the harness cannot tell whether the
 * rule holds; never fails a clause, always shown.
 */
export type CheckOutcome = 'passed' | 'failed' | 'not-exercised' | 'warning';

/**
 * The rule of a traffic judge's not-exercised note on the part of a clause only a driver can show (the
 * instances a user completed, a JWKS rotation, an attempt refused at connect): the judge decided the
 * clause only in part, whatever the traffic held, so a run whose tests failed it is no disagreement.
 */
export const DRIVER_PART_RULE = "the driver's part of the clause, never in the callbacks";

export interface CheckRecord {
  /** The clause ids the condition decides. */
  clauses: string[];
  /** The check's id in the fault models (spec/faults/*.yaml): the rows it catches name it. */
  id?: string;
  /** The rule, in the contract's words ("a bad signature is answered 401"). */
  rule: string;
  outcome: CheckOutcome;
  /** What the rule expects, in words ("401"). */
  expected?: string;
  /** What was seen, in words ("200 after 18 ms"). */
  seen?: string;
  /** not-exercised and warning: why. */
  reason?: string;
  /** A known library or mistake that explains this failure, in one sentence. */
  hint?: string;
  /** Where the remedy of the hint is written: a file of the package (docs/recipes/...). */
  recipe?: string;
  /** Passing records of one rule are kept once, with how many times it held. */
  count?: number;
  /** The failure ended the test: clauses without a check of their own were not reached. */
  stopped?: boolean;
}

/** "HOST-6: <rule>: expected 401, got 200 after 18 ms" (and the hint with its recipe, when there is one). */
/** "HOST-6: <rule>": how every check's words, and a failed check's error, begin. */
export function checkHead(r: Pick<CheckRecord, 'clauses' | 'rule'>): string {
  return `${r.clauses.join(', ')}: ${r.rule}`;
}

export function checkWords(r: CheckRecord): string {
  const head = checkHead(r);
  const body =
    r.outcome === 'failed'
      ? `${head}: expected ${r.expected ?? '(not stated)'}, got ${r.seen ?? '(nothing)'}`
      : r.outcome === 'passed'
        ? `${head}: held${r.count && r.count > 1 ? ` (${r.count} times)` : ''}`
        : `${head}: ${r.outcome}${r.reason ? `: ${r.reason}` : ''}`;
  return r.hint ? `${body}. Hint: ${hintWords(r.hint, r.recipe)}` : body;
}

/** "<hint> (see docs/recipes/...)": the sentence, then where its remedy is written. */
export function hintWords(hint: string, recipe?: string): string {
  return recipe ? `${hint} (see ${recipe})` : hint;
}

/** Whether a parsed value has a check record's shape. */
export function isCheckRecord(r: unknown): r is CheckRecord {
  return (
    !!r &&
    typeof r === 'object' &&
    Array.isArray((r as CheckRecord).clauses) &&
    typeof (r as CheckRecord).rule === 'string' &&
    typeof (r as CheckRecord).outcome === 'string'
  );
}

/** Parses an attachment body; anything that is not a list of records yields none. */
export function parseCheckRecords(text: string): CheckRecord[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter(isCheckRecord) : [];
  } catch {
    return [];
  }
}
