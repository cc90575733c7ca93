/**
 * The `ccs-conformance` command: dispatches to one module per subcommand.
 * Exit codes: 0 pass, 1 a MUST clause failed, 2 usage or configuration error.
 */
import { clauseCatalogueVersion, harnessVersion } from '../spec/index.ts';

/** A subcommand: its line of the usage, and its module, loaded only when it runs (a run starts sooner). */
interface Command {
  text: string;
  load: () => Promise<{ run: (argv: string[]) => Promise<number> }>;
}

const COMMANDS: Record<string, Command> = {
  run: {
    text: 'run the service conformance suites against a target (default: the embedded reference service)',
    load: () => import('./commands/run.ts'),
  },
  host: {
    text: 'run the host conformance suites against a host receiver and facts endpoint',
    load: () => import('./commands/host.ts'),
  },
  observe: {
    text: 'judge a service from its callbacks alone (no driver): listen while its own tests run, or read a journal',
    load: () => import('./commands/observe.ts'),
  },
  'mock-host': {
    text: 'start the scriptable mock host that records and explains every callback',
    load: () => import('./commands/mock-host.ts'),
  },
  'reference-service': {
    text: 'start the reference service (the embedded default target), optionally with seeded faults',
    load: () => import('./commands/reference-service.ts'),
  },
  report: {
    text: 're-render the HTML and markdown reports from a conformance.json, or merge shard reports',
    load: () => import('./commands/report.ts'),
  },
  vectors: {
    text: 'write known-answer vectors (HMAC, JWS with its JWKS, facts request line) as JSON for verifiers in any language',
    load: () => import('./commands/vectors.ts'),
  },
  mutants: {
    text: 'run the mutation matrix: the suites against the reference once clean and once per seeded fault',
    load: () => import('./commands/mutants.ts'),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.text}`);
  return [
    'Usage: ccs-conformance <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `ccs-conformance <command> --help` for the options of one command; `ccs-conformance --version` for the versions.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage() + '\n');
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    // The harness version, then the clause catalogue's: a release gate records both.
    process.stdout.write(`${harnessVersion()}\nclauses ${clauseCatalogueVersion()}\n`);
    return 0;
  }
  const found = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!found) {
    process.stderr.write(`ccs-conformance: unknown command '${command}'\n\n${usage()}\n`);
    return 2;
  }
  return (await found.load()).run(rest);
}
