/** Builders for synthetic reporter input, and a small XML well-formedness check (no XML library in the project). */
import type { ClauseInput, TestRecord } from '../../../reports/index.ts';

export const CLAUSES: ClauseInput[] = [
  { id: 'FOO-1', section: '2.2', level: 'MUST', side: 'service', text: 'A synthetic MUST rule.' },
  { id: 'FOO-2', section: '4.2', level: 'MUST', side: 'service', text: 'Another synthetic MUST rule.' },
  { id: 'FOO-3', section: '6', level: 'SHOULD', side: 'service', text: 'A synthetic SHOULD rule.' },
  { id: 'BAR-1', section: '7', level: 'MUST', side: 'service', text: 'A rule whose test is skipped.' },
  { id: 'BAR-2', section: '8', level: 'MAY', side: 'service', text: 'A rule no test cites.' },
  {
    id: 'BAR-3',
    section: '5.2',
    level: 'MUST',
    side: 'service',
    text: 'An unobservable rule.',
    unobservable: 'inside the service',
  },
  { id: 'BAR-4', section: '4.1', level: 'MUST', side: 'host', text: 'A host rule cited by a self test only.' },
  { id: 'UNSPEC-1', section: '4.2', level: 'UNSPECIFIED', side: 'service', text: 'Not shown.' },
];

/**
 * A synthetic test. Without `checks`, it made one check per clause of its tags: held when it
 * passed, failed with its first error when it failed, none when it did not run.
 */
export function t(partial: Partial<TestRecord> & { title: string; clauses: string[] }): TestRecord {
  const base: TestRecord = {
    file: 'suites/service/x.spec.ts',
    line: 1,
    project: 'service',
    status: 'passed',
    ok: true,
    durationMs: 5,
    errors: [],
    skipReasons: [],
    evidence: [],
    checks: [],
    ...partial,
  };
  if (
    partial.checks !== undefined ||
    base.status === 'skipped' ||
    base.status === 'not-run' ||
    base.status === 'interrupted'
  )
    return base;
  return {
    ...base,
    checks: base.clauses.map((id) =>
      base.ok
        ? { clauses: [id], rule: `${id} holds`, outcome: 'passed' as const }
        : {
            clauses: [id],
            rule: `${id} holds`,
            outcome: 'failed' as const,
            expected: 'the rule to hold',
            seen: base.errors[0] ?? `test ${base.status}`,
          },
    ),
  };
}

/**
 * Well-formedness: one root, tags nest and close in order, attributes quoted, entities known.
 * Enough to catch what a hand-written renderer gets wrong (unescaped <, &, quotes, unclosed tags).
 */
export function checkXml(xml: string): string[] {
  const problems: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const token =
    /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|<!--[\s\S]*?-->|&(#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);|([<>&])/g;
  let m: RegExpExecArray | null;
  while ((m = token.exec(body))) {
    if (m[6]) {
      problems.push(`stray '${m[6]}' at ${m.index}: ${body.slice(m.index, m.index + 40)}`);
      continue;
    }
    if (!m[2]) continue;
    const [, close, name, , selfClose] = m;
    if (close) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      if (stack.length === 0) roots++;
      if (!selfClose) stack.push(name as string);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
