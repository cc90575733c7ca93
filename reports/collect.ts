/** Turns Playwright's TestCase/TestResult into the reporter's TestRecord (pure but for reading attachment files). */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { CHECKS_ATTACHMENT, EVIDENCE_ATTACHMENT, parseCheckRecords, type CheckRecord } from '../spec/index.ts';
import { CLAUSE_TAG, type Evidence, type TestRecord, type TestStatusName } from './model.ts';

export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

export function clausesOf(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => CLAUSE_TAG.exec(t)?.[1]).filter((id): id is string => id !== undefined))];
}

function attachmentText(a: TestResult['attachments'][number]): string | undefined {
  try {
    return a.body ? a.body.toString('utf8') : a.path ? readFileSync(a.path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function checksOf(result: TestResult | undefined): CheckRecord[] {
  return (result?.attachments ?? [])
    .filter((a) => a.name === CHECKS_ATTACHMENT)
    .flatMap((a) => parseCheckRecords(attachmentText(a) ?? ''));
}

function evidenceOf(result: TestResult | undefined): Evidence[] {
  const out: Evidence[] = [];
  for (const a of result?.attachments ?? []) {
    if (a.name !== EVIDENCE_ATTACHMENT) continue;
    const text = attachmentText(a);
    if (text === undefined) continue;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const e = parsed as Evidence;
        out.push({ ...e, sentence: typeof e.sentence === 'string' ? e.sentence : '(evidence without a sentence)' });
        continue;
      }
    } catch {
      // fall through: an unparseable attachment is still shown, flagged
    }
    out.push({ sentence: '(ccs-evidence attachment is not a JSON object)' });
  }
  return out;
}

/** The annotation a test gives to say what it exercised of a table of the contract (one line each). */
export const COVERAGE_ANNOTATION = 'ccs-coverage';

function coverageOf(annotations: ReadonlyArray<{ type: string; description?: string }>): { coverage?: string[] } {
  // A test's annotations and its result's may both carry a line: each line once.
  const lines = [
    ...new Set(annotations.filter((a) => a.type === COVERAGE_ANNOTATION && a.description).map((a) => a.description!)),
  ];
  return lines.length > 0 ? { coverage: lines } : {};
}

export function toTestRecord(test: TestCase, result: TestResult | undefined, rootDir: string): TestRecord {
  const project = test.parent.project()?.name ?? '';
  const status: TestStatusName = result ? result.status : 'not-run';
  const outcome = result ? test.outcome() : 'skipped';
  const annotations = [...test.annotations, ...(result?.annotations ?? [])];
  const skipReasons =
    status === 'skipped' || status === 'not-run'
      ? [
          ...new Set(
            annotations
              .filter((a) => a.type === 'skip' || a.type === 'fixme')
              .map((a) => a.description ?? `${a.type} without a reason`),
          ),
        ]
      : [];
  if (status === 'not-run') skipReasons.push('not run (the run ended before this test)');
  if (status === 'interrupted') skipReasons.push('interrupted');
  return {
    title: test.titlePath().slice(3).join(' › ') || test.title,
    file: relative(rootDir, test.location.file).split('\\').join('/'),
    line: test.location.line,
    project,
    clauses: clausesOf(test.tags),
    status,
    // Flaky (passed only on a retry) counts as failed: a conformance verdict may not depend on luck.
    ok: outcome === 'expected' || outcome === 'skipped',
    durationMs: result?.duration ?? 0,
    errors: (result?.errors ?? []).map((e) => stripAnsi(e.message ?? e.value ?? 'error without a message')),
    skipReasons,
    evidence: evidenceOf(result),
    checks: checksOf(result),
    ...coverageOf(annotations),
  };
}
