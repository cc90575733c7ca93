/**
 * The `ccs-conformance` command: dispatches to one module per subcommand.
 * Exit codes (issue 7): 0 pass, 1 a MUST clause failed, 2 usage or configuration error.
 */
const COMMANDS: Record<string, string> = {
  run: 'run the service conformance suites against a target (default: the embedded reference service)',
  host: 'run the host conformance suites against a host receiver and facts endpoint',
  'mock-host': 'start the scriptable mock host that records and explains every callback',
  'reference-service': 'start the reference service (the embedded default target), optionally with seeded faults',
  report: 're-render the HTML and markdown reports from a conformance.json, or merge shard reports',
  mutants: 'run the mutation matrix: the suites against the reference once clean and once per seeded fault',
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return ['Usage: ccs-conformance <command> [options]', '', 'Commands:', ...lines, '', 'Run `ccs-conformance <command> --help` for the options of one command.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage() + '\n');
    return command === undefined ? 2 : 0;
  }
  if (!(command in COMMANDS)) {
    process.stderr.write(`ccs-conformance: unknown command '${command}'\n\n${usage()}\n`);
    return 2;
  }
  // Each subcommand lives in cli/commands/<name>.ts and exports `run(argv): Promise<number>`.
  let mod: { run?: (argv: string[]) => Promise<number> };
  try {
    mod = (await import(`./commands/${command}.ts`)) as typeof mod;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(`commands/${command}`)) {
      process.stderr.write(`ccs-conformance ${command}: not built yet\n`);
      return 2;
    }
    throw error;
  }
  if (typeof mod.run !== 'function') {
    process.stderr.write(`ccs-conformance ${command}: not built yet\n`);
    return 2;
  }
  return mod.run(rest);
}
