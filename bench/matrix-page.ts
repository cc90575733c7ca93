/**
 * Benchmark of the clause matrix page (`npm run bench:matrix-page`): a report of 10,000 evidence
 * entries (1,000 tests, 10 each, over the clauses of spec/clauses.yaml, one in ten with a retry
 * timeline) built, written, opened in Chromium from file://, and its largest clause's evidence
 * expanded. Prints the figures; goal: the page opens in under 2 s (evidence renders on expand).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildReport, loadClauses, writeReports, type TestRecord } from '../reports/index.ts';
import { launchChromium } from '../spec/chromium.ts';
import { RETRY_WINDOWS } from '../reports/demo-report.ts';

const TESTS = Number(process.env.BENCH_TESTS ?? 1_000);
const PER_TEST = 10;

async function main(): Promise<void> {
  const { clauses } = await loadClauses();
  const service = clauses.filter((c) => c.side === 'service' && c.level !== 'UNSPECIFIED');
  const tests: TestRecord[] = Array.from({ length: TESTS }, (_, i) => ({
    title: `check ${i}`,
    file: 'suites/service/x.spec.ts',
    line: i + 1,
    project: 'service',
    clauses: [service[i % service.length]!.id],
    status: 'passed',
    ok: true,
    durationMs: 100,
    errors: [],
    skipReasons: [],
    checks: [{ clauses: [service[i % service.length]!.id], rule: 'the rule holds', outcome: 'passed' }],
    evidence: Array.from({ length: PER_TEST }, (_, j) => ({
      sentence: `evidence ${i}.${j}`,
      entries: [0, 5_100, 25_200].map((at, k) => ({
        seq: i * 30 + j * 3 + k,
        attempt: k + 1,
        event: 'onComplete',
        arrival: new Date(at).toISOString(),
        arrivalMs: at,
        durationMs: 40,
        status: 503,
      })),
      ...(j === 0 ? { timeline: RETRY_WINDOWS } : {}),
    })),
  }));
  const dir = mkdtempSync(join(tmpdir(), 'ccs-bench-matrix-'));
  const browser = await launchChromium();
  try {
    let t = performance.now();
    const report = buildReport({
      runId: 'bench',
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      targetDescription: 'bench',
      projects: ['service'],
      clauses,
      tests,
    });
    const built = performance.now() - t;
    t = performance.now();
    writeReports(report, dir);
    const written = performance.now() - t;
    const bytes = statSync(join(dir, 'clauses.html')).size;
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    t = performance.now();
    await page.goto(pathToFileURL(join(dir, 'clauses.html')).href);
    const opened = performance.now() - t;
    const largest = [...report.clauses].sort((a, b) => b.evidence.length - a.evidence.length)[0]!;
    t = performance.now();
    await page.locator(`tr.ev-row[data-for="${largest.id}"] details.evidence summary`).click();
    await page.locator(`tr.ev-row[data-for="${largest.id}"] svg.timeline`).first().waitFor();
    const expanded = performance.now() - t;
    const evidence = report.clauses.reduce((n, c) => n + c.evidence.length, 0);
    process.stdout.write(
      [
        `matrix page, ${evidence} evidence entries over ${report.clauses.length} clauses (${(bytes / 1e6).toFixed(1)} MB of HTML)`,
        `  build report   ${built.toFixed(0)} ms`,
        `  write reports  ${written.toFixed(0)} ms`,
        `  open page      ${opened.toFixed(0)} ms (goal < 2000 ms)`,
        `  expand ${largest.id} (${largest.evidence.length} evidence entries)  ${expanded.toFixed(0)} ms`,
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
