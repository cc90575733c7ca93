/**
 * A small strict flag parser for the subcommands: unknown flags, missing values and bad values are
 * usage errors (CcsError CLI_USAGE, exit 2) naming the flag.
 */
import { CcsError } from '../spec/index.ts';

export interface FlagSpec {
  name: string;
  /** 'boolean' takes no value; 'string' one; 'list' may repeat. */
  kind: 'boolean' | 'string' | 'list';
  value?: string;
  help: string;
}

export type Parsed = { flags: Record<string, string | string[] | boolean>; positionals: string[] };

export function usageError(message: string): CcsError {
  return new CcsError('CLI_USAGE', message);
}

export function parseArgs(argv: string[], specs: FlagSpec[], opts: { positionals?: boolean } = {}): Parsed {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags: Parsed['flags'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      if (!opts.positionals) throw usageError(`unexpected argument '${arg}'`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const spec = byName.get(name);
    if (!spec) throw usageError(`unknown flag '--${name}'`);
    if (spec.kind === 'boolean') {
      if (eq > 0) throw usageError(`flag '--${name}' takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw usageError(`flag '--${name}' needs a value (${spec.value ?? 'VALUE'})`);
      i++;
    }
    if (spec.kind === 'list') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else {
      if (flags[name] !== undefined) throw usageError(`flag '--${name}' given twice`);
      flags[name] = value;
    }
  }
  return { flags, positionals };
}

export function helpText(usage: string, description: string, specs: FlagSpec[], footer: string[] = []): string {
  const left = specs.map((s) => `--${s.name}${s.kind === 'boolean' ? '' : ` ${s.value ?? 'VALUE'}`}${s.kind === 'list' ? '...' : ''}`);
  const width = Math.max(...left.map((l) => l.length));
  return [`Usage: ${usage}`, '', description, '', 'Options:', ...specs.map((s, i) => `  ${(left[i] as string).padEnd(width)}  ${s.help}`), ...(footer.length ? ['', ...footer] : []), ''].join('\n');
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
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw usageError(`--${flag} must be an integer, got '${value}'`);
  return Number(value);
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw usageError(`--${flag} must be a positive number, got '${value}'`);
  return n;
}

/** --shard i/n: 1 <= i <= n (Playwright's convention). */
export function shard(value: string | undefined): { current: number; total: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(value);
  if (!m || Number(m[1]) > Number(m[2])) throw usageError(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), got '${value}'`);
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
    if (CLAUSE_ID_SHAPE.test(g) && !knownIds.has(g)) throw usageError(`--grep ${g}: not a clause id of spec/clauses.yaml (e.g. ${example})`);
  }
  if (greps.length === 0) return undefined;
  return greps.map((g) => (CLAUSE_ID_SHAPE.test(g) ? `@${g}\\b` : g)).join('|');
}

/** --time-scale X: the target schema's range, 0 < X <= 1 (1 is the contract's own clock). */
export function timeScale(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) throw usageError(`--time-scale must be a number with 0 < X <= 1 (e.g. 0.1), got '${value}'`);
  return n;
}
