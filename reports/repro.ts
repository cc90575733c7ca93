/**
 * Reproduction of a failed clause: the fast-check seed and path when present,
 * the curl lines and journal entries of its evidence, and the command line that reruns it alone.
 */
import { isClauseIdShape } from '../spec/index.ts';
import type { Reproduction, TestRecord } from './model.ts';
import { readSettings } from '../spec/index.ts';

/** Flags of the run that produced the report, so the command line reruns the same target. */
export interface ReproContext {
  target?: string;
  faults?: string[];
  seed?: string;
  timeScale?: string;
  /** The flags that chose the receiver of a `host` run (CCS_HOST_REPRO_ARGS, set by the CLI). */
  hostArgs?: string[];
}

export function reproContextFromEnv(env: NodeJS.ProcessEnv = process.env): ReproContext {
  const s = readSettings(env);
  return {
    // The path as the user typed it (CCS_TARGET_ARG, set by the CLI), else the absolute one.
    ...(s.targetArg || s.target ? { target: (s.targetArg || s.target) as string } : {}),
    ...(s.faults.length > 0 ? { faults: s.faults } : {}),
    ...(s.seed !== undefined ? { seed: String(s.seed) } : {}),
    ...(s.timeScale ? { timeScale: s.timeScale } : {}),
    ...(s.hostReproArgs ? { hostArgs: hostArgsOf(s.hostReproArgs) } : {}),
  };
}

function hostArgsOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

// fast-check's failure text:
// "Counterexample: ... Shrunk 3 time(s) ... { seed: -123, path: "0:1:2", endOnFailure: true }"
const SEED_IN_TEXT = /seed:\s*(-?\d+)\s*,\s*path:\s*"([^"]*)"/;

/** A host-side clause reruns with `ccs-conformance host`, every other with `ccs-conformance run`. */
export function reproductionFor(
  clauseId: string,
  failing: TestRecord[],
  ctx: ReproContext,
  side?: string,
): Reproduction {
  let seed: string | undefined;
  let path: string | undefined;
  for (const t of failing) {
    for (const e of t.evidence) {
      if (seed === undefined && e.seed !== undefined) seed = String(e.seed);
      if (path === undefined && typeof e.path === 'string') path = e.path;
    }
    for (const err of t.errors) {
      const m = SEED_IN_TEXT.exec(err);
      if (m && seed === undefined) seed = m[1];
      if (m && path === undefined) path = m[2];
    }
  }
  const seedArg = seed ?? ctx.seed;
  const host = side === 'host';
  const args = ['ccs-conformance', host ? 'host' : 'run', '--grep', clauseId];
  if (host) args.push(...(ctx.hostArgs ?? []));
  else {
    if (ctx.target) args.push('--target', ctx.target);
    for (const f of ctx.faults ?? []) args.push('--fault', f);
  }
  if (seedArg !== undefined) args.push('--seed', seedArg);
  if (ctx.timeScale && !host) args.push('--time-scale', ctx.timeScale);
  // The failure's fast-check path with its seed (CCS_SEED_PATH, read by the property and model-based tests): the
  // line replays the shrunk counterexample itself, not a fresh search from the seed.
  const prefix = seed !== undefined && path ? `CCS_SEED_PATH='${path.replace(/'/g, `'\\''`)}' ` : '';
  return {
    command: prefix + args.map(quote).join(' '),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    curl: failing.flatMap((t) =>
      t.evidence.flatMap((e) =>
        (e.requests ?? []).map((r) => r.curl).filter((c): c is string => typeof c === 'string'),
      ),
    ),
    entries: failing.flatMap((t) => t.evidence.flatMap((e) => e.entries ?? [])),
  };
}

/** CCS_FAULT_CLAUSES="name:CLAUSE,name:CLAUSE" (set by `ccs-conformance run --fault`). */
export function seededFaultsFromEnv(env: NodeJS.ProcessEnv = process.env): Array<{ name: string; clause: string }> {
  return (readSettings(env).faultClauses ?? '')
    .split(',')
    .map((pair) => pair.trim().split(':'))
    .filter((p) => p.length === 2 && isClauseIdShape(p[1] as string))
    .map(([name, clause]) => ({ name: name as string, clause: clause as string }));
}
