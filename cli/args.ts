/**
 * The one flag parser of every subcommand: node:util's parseArgs (strict), described by FlagSpec
 * lists so the help text comes from the same table. Unknown flags, missing values, bad values and a
 * single-valued flag given twice are usage errors (CcsError CLI_USAGE, exit 2) naming the flag.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { ccsError, CcsError } from '../spec/index.ts';
import { parseTimeScale } from '../target/service/time-scale.ts';

export interface FlagSpec {
  name: string;
  /** 'boolean' takes no value; 'string' one; 'list' may repeat. */
  kind: 'boolean' | 'string' | 'list';
  short?: string;
  value?: string;
  help: string;
}

export type Parsed = { flags: Record<string, string | string[] | boolean>; positionals: string[] };

export function usageError(message: string): CcsError {
  return ccsError('CLI_USAGE', { problem: message });
}

/** node:util's messages, in the words the commands have always used (they name the flag). */
function translate(error: NodeJS.ErrnoException, specs: FlagSpec[]): CcsError {
  const message = error.message;
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return usageError(`unknown flag '${flag ?? message}'`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return usageError(`unexpected argument '${/'([^']*)'/.exec(message)?.[1] ?? message}'`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const spec = specs.find((s) => `--${s.name}` === flag || (s.short && `-${s.short}` === flag));
      if (spec?.kind === 'boolean') return usageError(`flag '--${spec.name}' takes no value`);
      return usageError(`flag '${spec ? `--${spec.name}` : flag}' needs a value (${spec?.value ?? 'VALUE'})`);
    }
    default:
      return usageError(message);
  }
}

export function parseArgs(argv: string[], specs: FlagSpec[], opts: { positionals?: boolean } = {}): Parsed {
  const options = Object.fromEntries(
    specs.map((s) => [
      s.name,
      {
        type: s.kind === 'boolean' ? ('boolean' as const) : ('string' as const),
        ...(s.kind === 'list' ? { multiple: true } : {}),
        ...(s.short ? { short: s.short } : {}),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: opts.positionals === true,
      tokens: true,
    });
  } catch (error) {
    throw translate(error as NodeJS.ErrnoException, specs);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const spec = specs.find((s) => s.name === token.name);
    if (spec?.kind === 'string' && seen.has(token.name)) throw usageError(`flag '--${token.name}' given twice`);
    seen.add(token.name);
    // A value that looks like another flag (--target --grep) is a forgotten value, as node:util
    // says for inline-less values; '--x=--y' stays allowed.
    if (
      spec &&
      spec.kind !== 'boolean' &&
      token.inlineValue === false &&
      typeof token.value === 'string' &&
      token.value.startsWith('--')
    ) {
      throw usageError(`flag '--${spec.name}' needs a value (${spec.value ?? 'VALUE'})`);
    }
  }
  return { flags: parsed.values as Parsed['flags'], positionals: parsed.positionals };
}

/** The flags every subcommand shares, written once. */
export const HELP_FLAG: FlagSpec = { name: 'help', kind: 'boolean', help: 'show this help' };
/** Stack traces of the harness's own files only on request: the console shows a failure as its check lines. */
export const VERBOSE_FLAG: FlagSpec = {
  name: 'verbose',
  kind: 'boolean',
  help: "show a failed test's whole errors with their stack frames",
};
/** The gate's flag for partial verdicts (reports/exercised.ts), shared by `run` and `host`. */
export const REQUIRE_FULL_FLAG: FlagSpec = {
  name: 'require-full',
  kind: 'boolean',
  help: 'fail when a MUST clause passed only partly (a test citing it, or a check of it, not exercised)',
};
export const REPORT_DIR_FLAG: FlagSpec = {
  name: 'report-dir',
  kind: 'string',
  value: 'DIR',
  help: 'where reports go (default reports/out)',
};

/** Parses a subcommand's flags; prints its help and answers undefined when --help was given. */
export function parseOrHelp(
  argv: string[],
  specs: FlagSpec[],
  help: string,
  opts: { positionals?: boolean } = {},
): Parsed | undefined {
  const p = parseArgs(argv, specs, opts);
  if (p.flags.help === true) {
    process.stdout.write(help);
    return undefined;
  }
  return p;
}

export function helpText(usage: string, description: string, specs: FlagSpec[], footer: string[] = []): string {
  const left = specs.map(
    (s) => `--${s.name}${s.kind === 'boolean' ? '' : ` ${s.value ?? 'VALUE'}`}${s.kind === 'list' ? '...' : ''}`,
  );
  const width = Math.max(...left.map((l) => l.length));
  return [
    `Usage: ${usage}`,
    '',
    description,
    '',
    'Options:',
    ...specs.map((s, i) => `  ${(left[i] as string).padEnd(width)}  ${s.help}`),
    ...(footer.length ? ['', ...footer] : []),
    '',
  ].join('\n');
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(p: Parsed, name: string): string[] {
  const v = p.flags[name];
  return Array.isArray(v) ? v : [];
}

export function bool(p: Parsed, name: string): boolean {
  return p.flags[name] === true;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw usageError(`--${flag} must be a positive integer, got '${value}'`);
  return Number(value);
}

export function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw usageError(`--${flag} must be an integer, got '${value}'`);
  return Number(value);
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw usageError(`--${flag} must be a positive number, got '${value}'`);
  return n;
}

/** --shard i/n: 1 <= i <= n (Playwright's convention). */
export function shard(value: string | undefined): { current: number; total: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(value);
  if (!m || Number(m[1]) > Number(m[2]))
    throw usageError(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), got '${value}'`);
  return { current: Number(m[1]), total: Number(m[2]) };
}

/** A --grep that looks like a clause id (DELIV-4, HOST-13); anything else is free text for test titles. */
export const CLAUSE_ID_SHAPE = /^[A-Z]+-\d+$/;

/**
 * The --grep values as one Playwright --grep pattern: a clause id selects the tests tagged with it
 * and must name a clause of the catalogue (a typo would otherwise select nothing and pass); free
 * text matches test titles as given.
 */
export function grepPattern(greps: string[], knownIds: ReadonlySet<string>, example: string): string | undefined {
  for (const g of greps) {
    if (g.trim() === '') throw usageError('--grep needs a clause id or a text');
    if (CLAUSE_ID_SHAPE.test(g) && !knownIds.has(g))
      throw usageError(`--grep ${g}: not a clause id of spec/clauses.yaml (e.g. ${example})`);
  }
  if (greps.length === 0) return undefined;
  return greps.map((g) => (CLAUSE_ID_SHAPE.test(g) ? `@${g}\\b` : g)).join('|');
}

/** --time-scale X: the target schema's range, 0 < X <= 1 (1 is the contract's own clock). */
export function timeScale(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw usageError(`--time-scale: must be a number in (0, 1], got ''`);
  // One range check for the flag, the environment and a target file (target/service/resolve.ts).
  try {
    return parseTimeScale(value, '--time-scale');
  } catch (error) {
    throw usageError((error as Error).message);
  }
}
