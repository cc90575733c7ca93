/**
 * A failed check in one line, for summary.md, the gate's console lines and the progress reporter:
 * the rule, then what was seen (a status, an error, a value), then the request where it was seen.
 * The seen part is never cut to make room: a long URL is cut in its middle instead. Failures of one
 * check (same clause and check id, else same rule) collapse into one line with a count and one
 * example; conformance.json and junit.xml keep every failure's words (ClauseRecord.failures).
 */
import type { CheckRecord } from '../spec/index.ts';
import type { ClauseRecord, FailedCheck } from './model.ts';

/** Longest request location shown in a line; the middle of a longer one gives way. */
const WHERE_MAX = 72;
/** A safety bound on one seen text (a payload excerpt can be long); the observation comes first. */
const SEEN_MAX = 600;

const METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS';
/** "POST http://h/hook: 200 after 18 ms" (suites/host describe) and "#3 POST http://h/x event=..." (journal). */
const LEADING_REQUEST = new RegExp(`^((?:#\\d+ )?(?:${METHODS}) \\S+?)(?::\\s+|\\s+)(\\S[\\s\\S]*)$`);

/** Cuts the middle of a long text ("http://127.0.0.1:3100/we…/hooks/ccs"), keeping both ends. */
export function middleCut(s: string, max = WHERE_MAX): string {
  if (s.length <= max) return s;
  const head = Math.ceil((max - 1) / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (max - 1 - head))}`;
}

function flat(s: string): string {
  return s
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits a seen text that starts with its request into what was seen and where. */
export function splitWhere(seen: string): { seen: string; where?: string } {
  const text = flat(seen);
  const m = LEADING_REQUEST.exec(text);
  return m ? { seen: m[2]!, where: m[1]! } : { seen: text };
}

/** Groups failed check records: one entry per clause set and check id (else rule), with the total count. */
export function groupFailedChecks(records: ReadonlyArray<CheckRecord & { test?: string }>): FailedCheck[] {
  const groups = new Map<string, FailedCheck>();
  for (const r of records) {
    if (r.outcome !== 'failed') continue;
    const key = `${r.clauses.join(',')}\u0000${r.id ?? `rule:${r.rule}`}`;
    const n = r.count ?? 1;
    const known = groups.get(key);
    if (known) {
      known.count += n;
      continue;
    }
    groups.set(key, {
      clauses: [...r.clauses],
      ...(r.id !== undefined ? { id: r.id } : {}),
      rule: r.rule,
      ...(r.expected !== undefined ? { expected: r.expected } : {}),
      seen: r.seen ?? '(nothing)',
      count: n,
      ...(r.test !== undefined ? { test: r.test } : {}),
    });
  }
  return [...groups.values()];
}

/**
 * "<rule>: got <seen> (expected <expected>) — at <where>", or with a count
 * "<rule>: failed 12 times, e.g. got <seen> ...". Without the clause ids: the caller prefixes them.
 */
export function failedCheckLine(f: Pick<FailedCheck, 'rule' | 'seen' | 'expected' | 'count'>): string {
  const { seen, where } = splitWhere(f.seen);
  const shown = seen.length > SEEN_MAX ? `${seen.slice(0, SEEN_MAX - 1)}…` : seen;
  const expected = f.expected !== undefined && f.expected !== '' ? ` (expected ${flat(f.expected)})` : '';
  const times = f.count > 1 ? `failed ${f.count} times, e.g. ` : '';
  return `${flat(f.rule)}: ${times}got ${shown}${expected}${where ? ` — at ${middleCut(where)}` : ''}`;
}

/**
 * The same order for a free text that quotes a request ("... expected a 2xx, got POST http://h/x:
 * connection failed (...)"): the observation first, the request after it, its URL cut in the middle.
 */
export function seenFirst(text: string): string {
  const t = flat(text);
  const m = new RegExp(`\\bgot ((?:${METHODS}) \\S+?):\\s+([\\s\\S]+?)(?=\\. Hint: |; |$)`).exec(t);
  if (!m) return t;
  // The observation ends where its parentheses balance: a ")" past that closes a text around it.
  let seen = m[2]!;
  let end = m.index + m[0].length;
  const count = (c: string) => seen.split(c).length - 1;
  while (seen.endsWith(')') && count(')') > count('(')) {
    seen = seen.slice(0, -1);
    end -= 1;
  }
  return `${t.slice(0, m.index)}got ${seen.trim()} — at ${middleCut(m[1]!)}${t.slice(end)}`;
}

/** How many checks of one clause get a line; the rest are counted ("and 2 more checks"). */
const CHECKS_SHOWN = 3;

/**
 * A failed clause's checks, one line each: "HOST-10 <rule>: failed 12 times, e.g. got ...". A report
 * without grouped checks (a stale expectation) gives its first failure's words, the observation first.
 */
export function clauseCheckLines(
  c: Pick<ClauseRecord, 'id' | 'failedChecks' | 'failures'>,
  shown = CHECKS_SHOWN,
): string[] {
  const checks = c.failedChecks ?? [];
  if (checks.length === 0) {
    const first = c.failures?.[0]?.error;
    return first === undefined ? [] : [seenFirst(first.split('\n')[0]!)];
  }
  const lines = checks.slice(0, shown).map((f) => `${f.clauses.join(', ')} ${failedCheckLine(f)}`);
  const more = checks.length - shown;
  if (more > 0) lines.push(`and ${more} more failed check${more === 1 ? '' : 's'} of ${c.id} (see clauses.html)`);
  return lines;
}
