/**
 * The clause reporter: reads each test's clause tags and writes
 * conformance.json, junit.xml, summary.md and clauses.html into outputDir (option) or
 * CCS_REPORT_DIR (default reports/out). Only the conformance projects (service, service-realtime,
 * host) count as evidence. A tag or evidence `clause` naming no clause fails the run (check-clause-ids.ts).
 * Also re-run by `playwright merge-reports` over shard blobs.
 *
 * Options: outputDir, projects (which projects count), clausesFile (a clause list other than
 * spec/clauses.yaml), expectedFile (expected-outcomes YAML; also env CCS_EXPECTED_FILE).
 * Env: CCS_TARGET_DESCRIPTION (no secrets), CCS_DATA_API_FORMS (else the dataApi of CCS_TARGET's file,
 * else the defaults), CCS_SECRETS_FILE, CCS_TARGET/CCS_FAULTS/CCS_SEED (for the reproduction command line).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { CONFORMANCE_PROJECTS } from './model.ts';
import { buildReport } from './build-report.ts';
import { toTestRecord } from './collect.ts';
import { loadClauses } from './load-clauses.ts';
import { loadExpectedOutcomes } from './expected.ts';
import { JOURNAL_DIR, Redactor, ccsError, loadSecrets } from '../spec/index.ts';
import { clearJournals, judgedJournalRecords } from './judged-journals.ts';
import { reproContextFromEnv, seededFaultsFromEnv } from './repro.ts';
import { writeReports } from './write-reports.ts';
import { scrubDir } from './scrub.ts';
import { checkClauseIds } from './check-clause-ids.ts';
import {
  clauseCatalogueVersion,
  harnessVersion,
  readSettings,
  DEFAULT_DATA_API_FORMS,
  dataApiFormsOfTargetFile,
  parseDataApiForms,
  type Settings,
} from '../spec/index.ts';

/**
 * The data API forms the run's service requests were written in: as the CLI passed them, else as the
 * target file declares them, else (the embedded reference) the defaults.
 */
function dataApiFormsOfRun(s: Settings) {
  return (
    parseDataApiForms(s.dataApiForms) ??
    (s.target ? dataApiFormsOfTargetFile(s.target) : undefined) ?? { ...DEFAULT_DATA_API_FORMS }
  );
}

export interface ClauseReporterOptions {
  outputDir?: string;
  projects?: string[];
  clausesFile?: string;
  expectedFile?: string;
}

export const DEFAULT_TARGET_DESCRIPTION = 'embedded reference service';

export default class ClauseReporter implements Reporter {
  private readonly options: ClauseReporterOptions;
  private rootDir = process.cwd();
  private suite: Suite | undefined;
  private readonly results = new Map<string, TestResult>();
  private startedAt = new Date();

  constructor(options: ClauseReporterOptions = {}) {
    this.options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootDir = config.rootDir;
    this.suite = suite;
    this.startedAt = new Date();
    // the workers write this run's journals as they end: none of an earlier run may be judged with them
    clearJournals(join(this.outputDir(), JOURNAL_DIR));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // The last attempt decides (retries are 0 in this project; flaky still counts as failed).
    this.results.set(test.id, result);
  }

  /** Every reporter has written by now: scrub the listed secrets from their files too (scrub.ts). */
  async onExit(): Promise<void> {
    const secrets = loadSecrets();
    if (secrets.length > 0) scrubDir(this.outputDir(), new Redactor(secrets));
  }

  private outputDir(): string {
    return this.options.outputDir ?? readSettings().reportDir;
  }

  async onEnd(_result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const outputDir = this.outputDir();
    try {
      const { clauses } = await loadClauses(this.options.clausesFile);
      const expectedFile = this.options.expectedFile ?? readSettings().expectedFile;
      const expected = expectedFile ? loadExpectedOutcomes(expectedFile, new Set(clauses.map((c) => c.id))) : undefined;
      const tests = [
        ...(this.suite?.allTests() ?? []).map((t) =>
          toTestRecord(t, this.results.get(t.id) ?? t.results.at(-1), this.rootDir),
        ),
        // the one traffic judge's verdicts over every worker's journal, whichever test caused the traffic
        ...judgedJournalRecords(join(outputDir, JOURNAL_DIR)),
      ];
      const redactor = new Redactor(loadSecrets());
      // Every test of the run, not only the counted projects: a wrong id in a self test is a bug too.
      const ids = checkClauseIds(tests, clauses);
      const report = buildReport({
        runId: readSettings().runId ?? randomUUID(),
        startedAt: this.startedAt.toISOString(),
        endedAt: new Date().toISOString(),
        targetDescription: readSettings().targetDescription || DEFAULT_TARGET_DESCRIPTION,
        projects: this.options.projects ?? [...CONFORMANCE_PROJECTS],
        clauses,
        tests,
        ...(expected ? { expected } : {}),
        repro: reproContextFromEnv(),
        seededFaults: seededFaultsFromEnv(),
        versions: { harness: harnessVersion(), clauses: clauseCatalogueVersion(this.options.clausesFile) },
        dataApi: dataApiFormsOfRun(readSettings()),
        redactor,
        // The report says what the console says: a run these errors fail gets no PASS (verdict fail).
        harnessErrors: ids.errors,
      });
      writeReports(report, outputDir, redactor);
      if (ids.warnings.length > 0)
        process.stderr.write(
          `\n*** ccs-conformance clause reporter: clause tags to fix:\n  ${ids.warnings.join('\n  ')}\n`,
        );
      if (ids.errors.length > 0) {
        const n = ids.errors.length;
        const what = `${n} clause id${n === 1 ? '' : 's'} cited outside the clause list or a test's tags`;
        process.stderr.write(
          `\n*** ccs-conformance clause reporter: CLAUSE_UNKNOWN: ${what}` +
            ` (a defect of the harness's tests); the run fails with no verdict:\n  ${ids.errors.join('\n  ')}\n\n`,
        );
        return { status: 'failed' };
      }
      return undefined;
    } catch (error) {
      // Loud, never silent: a report that cannot be written or does not match its schema fails the run.
      // The error's own code first (REPORT_SCHEMA_INVALID, EACCES...), else the registry's.
      const failed = ccsError('REPORT_WRITE_FAILED', { file: join(outputDir, 'conformance.json') });
      const code = (error as { code?: string }).code ?? failed.code;
      process.stderr.write(
        `\n*** ccs-conformance clause reporter: ${code}: ${failed.message}\n${(error as Error).message}\n\n`,
      );
      return { status: 'failed' };
    }
  }
}
