/**
 * `ccs-conformance mutants`: the mutation matrix (suites/mutants/index.ts runMutationMatrix):
 * the suites against the reference once clean and once per seeded fault. Exit 1 when the matrix
 * fails (a fault missed, or caught only by unrelated clauses, or the clean run failing).
 */
import { resolve } from 'node:path';
import { isCcsError, reportDirFrom } from '../../spec/index.ts';
import { type FlagSpec, HELP_FLAG, helpText, list, parseOrHelp, positiveInt, str, usageError } from '../args.ts';
import { runMutationMatrix } from '../../suites/mutants/index.ts';

export const MUTANTS_FLAGS: FlagSpec[] = [
  { name: 'fault', kind: 'list', value: 'NAME', help: 'only these seeded faults (repeatable; default all)' },
  { name: 'concurrency', kind: 'string', value: 'N', help: 'faults run at once' },
  { name: 'direction', kind: 'string', value: 'D', help: "service, host or both (default: the runner's)" },
  { name: 'report-dir', kind: 'string', value: 'DIR', help: 'where mutants.json and the per-fault reports go' },
  HELP_FLAG,
];

export const MUTANTS_HELP = helpText(
  'ccs-conformance mutants [options]',
  'Runs the mutation matrix: the suites against the reference service clean and once per seeded fault; every fault must be caught by a test citing its clause.',
  MUTANTS_FLAGS,
  ['Exit codes: 0 every fault caught and the clean run clean; 1 the matrix fails; 2 usage error.'],
);

export async function run(argv: string[]): Promise<number> {
  try {
    const p = parseOrHelp(argv, MUTANTS_FLAGS, MUTANTS_HELP);
    if (!p) return 0;
    const direction = str(p, 'direction');
    if (direction !== undefined && !['service', 'host', 'both'].includes(direction))
      throw usageError(`--direction must be service, host or both, got '${direction}'`);
    const concurrency = positiveInt(str(p, 'concurrency'), 'concurrency');
    const faults = list(p, 'fault');
    // The user's folder, never the package's (the matrix would resolve a relative one against itself).
    const reportDir = reportDirFrom(str(p, 'report-dir'));
    const result = await runMutationMatrix({
      ...(faults.length > 0 ? { faults } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(direction !== undefined ? { direction: direction as 'service' | 'host' | 'both' } : {}),
      reportDir,
      onProgress: (line: string) => process.stdout.write(line.endsWith('\n') ? line : `${line}\n`),
    });
    process.stdout.write(`${result.table}\n`);
    const ok = result.ok;
    process.stdout.write(`mutation matrix ${ok ? 'PASS' : 'FAIL'}\n`);
    return ok ? 0 : 1;
  } catch (error) {
    if (isCcsError(error) && error.code === 'CLI_USAGE') {
      process.stderr.write(`ccs-conformance mutants: ${error.message}\n(see ccs-conformance mutants --help)\n`);
      return 2;
    }
    throw error;
  }
}
