/**
 * Console progress for `ccs-conformance run`: a line per clause area as its last
 * test finishes; on a TTY a spinner naming the running tests during long waits (the real-time
 * retry schedule), plain lines otherwise. Areas come from the clause tags. A failed test is its title,
 * then one line per failed check (the rule, what was seen, where; a check failed 12 times once, with
 * its count) or the first line of an error no check names; its stack frames (into the harness's own
 * files, dist/... when installed) only with --verbose (CCS_VERBOSE=1).
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { clausesOf, stripAnsi } from './collect.ts';
import { areaOf } from './model.ts';
import { CHECKS_ATTACHMENT, parseCheckRecords, readSettings } from '../spec/index.ts';
import { failedCheckLine, groupFailedChecks, seenFirst } from './failure-lines.ts';

/** The failed checks a test attached (suites/shared/checks.ts attachChecks). */
function failedRecordsOf(result: TestResult) {
  return result.attachments
    .filter((a) => a.name === CHECKS_ATTACHMENT && a.body)
    .flatMap((a) => parseCheckRecords(a.body!.toString('utf8')))
    .filter((r) => r.outcome === 'failed');
}

/**
 * What the console says of a failed test: a line per failed check, else the first line of each error
 * (a stopped precondition, a timeout), observation before request; verbose: the whole error, stack too.
 */
export function failureDetail(result: TestResult, verbose: boolean): string[] {
  const records = failedRecordsOf(result);
  const lines = groupFailedChecks(records).map((f) => `${f.clauses.join(', ')} ${failedCheckLine(f)}`);
  for (const e of result.errors) {
    const text = stripAnsi(e.message ?? e.value ?? 'error without a message');
    // A failed check's error repeats its words (said above): only an error no check names gets a line.
    if (!verbose && records.some((r) => text.includes(`${r.clauses.join(', ')}: ${r.rule}`))) continue;
    if (verbose) lines.push(...stripAnsi(e.stack ?? text).split('\n'));
    else lines.push(seenFirst(text.split('\n').find((l) => l.trim() !== '') ?? text));
  }
  return verbose ? lines : [...new Set(lines)];
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

interface AreaState {
  total: number;
  done: number;
  failed: number;
  skipped: number;
}

export default class ProgressReporter implements Reporter {
  private readonly out: NodeJS.WriteStream;
  private readonly tty: boolean;
  private readonly verbose: boolean;
  private readonly areas = new Map<string, AreaState>();
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private started = 0;

  constructor(options: { tty?: boolean; verbose?: boolean } = {}) {
    this.out = process.stdout;
    this.tty = options.tty ?? (readSettings().progressTty || Boolean(process.stdout.isTTY));
    this.verbose = options.verbose ?? readSettings().verbose;
  }

  printsToStdio(): boolean {
    return true;
  }

  private areasOf(test: TestCase): string[] {
    const areas = [...new Set(clausesOf(test.tags).map(areaOf))];
    return areas.length > 0 ? areas : ['(untagged)'];
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.started = performance.now();
    const tests = suite.allTests();
    for (const t of tests)
      for (const a of this.areasOf(t)) {
        const s = this.areas.get(a) ?? { total: 0, done: 0, failed: 0, skipped: 0 };
        s.total += 1;
        this.areas.set(a, s);
      }
    this.line(`running ${tests.length} tests in ${this.areas.size} areas`);
    if (this.tty) this.timer = setInterval(() => this.spin(), 120);
  }

  onTestBegin(test: TestCase): void {
    this.running.add(test.title);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.running.delete(test.title);
    const failed = test.outcome() === 'unexpected' || test.outcome() === 'flaky';
    if (failed) {
      this.line(`  ✗ ${test.title}`);
      for (const l of failureDetail(result, this.verbose)) this.line(`      ${l}`);
    }
    for (const a of this.areasOf(test)) {
      const s = this.areas.get(a);
      if (!s) continue;
      s.done += 1;
      if (failed) s.failed += 1;
      if (result.status === 'skipped') s.skipped += 1;
      if (s.done === s.total) {
        const mark = s.failed > 0 ? 'FAIL' : 'ok';
        this.line(
          `${mark.padEnd(4)} ${a.padEnd(8)} ${s.total - s.failed - s.skipped} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`,
        );
      }
    }
  }

  onEnd(result: FullResult): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
    this.line(`finished: ${result.status} in ${((performance.now() - this.started) / 1000).toFixed(1)} s`);
  }

  private spin(): void {
    if (this.running.size === 0) return;
    const names = [...this.running];
    const text = `${FRAMES[this.frame++ % FRAMES.length]} ${names.length} running: ${names[0]}${names.length > 1 ? ` (+${names.length - 1})` : ''}`;
    const width = (this.out.columns || 100) - 1;
    this.out.write(`\r\u001b[2K${text.slice(0, width)}`);
  }

  private clear(): void {
    if (this.tty) this.out.write('\r\u001b[2K');
  }

  private line(text: string): void {
    this.clear();
    this.out.write(text + '\n');
  }
}
