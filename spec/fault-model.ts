/**
 * The fault models (spec/faults/<side>.yaml): for every clause of a side, the ways an implementation
 * can break it, one row per way, derived from the contract's words (every step of an algorithm,
 * every edge on both sides, every request kind, attempt and mode). Each row names the check that
 * catches it (a check id the suites give to check(), spec/checks.ts) and the seeded fault or
 * faulty receiver that proves that check; a row the harness cannot observe says why instead.
 * The suites, the mutation matrix, the known-answer vectors and docs/clauses.md read these rows.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { ccsError } from './errors.ts';
import { readYaml } from './documents.ts';
import type { Side } from './types.ts';

export interface FaultModelRow {
  /** Stable id: the clause, a slash, a slug of the way ('HOST-6/hmac-t-future-301s'). */
  row: string;
  clause: string;
  /** How an implementation breaks the clause, in one sentence. */
  way: string;
  /** Request kinds, modes or attempts the way applies to, in words. */
  applies?: string[];
  /** The id of the check that catches it (check(clause, rule, { id })). */
  check?: string;
  /** The seeded fault (service) or faulty receiver (host) that proves the check. */
  fault?: string;
  /** Why no check can catch it (it cannot be observed from outside). */
  notChecked?: string;
  /** A known library or mistake that explains a failure of the check, in one sentence. */
  hint?: string;
  /**
   * Where several rows of one check carry hints: a regular expression the failure's rule and seen words
   * ("<rule>: <seen>") match when this row's hint explains it (a 3xx, not a 404; a code, not a native
   * name). A row without one gives its hint to a failure no row's expression matches.
   */
  hintWhen?: string;
  /** Where the remedy is written (a recipe under docs/recipes/). */
  recipe?: string;
  /** A signature row that a known-answer vector can express offline (`ccs-conformance vectors`). */
  vector?: boolean;
  /**
   * The row's check is decided from callback traffic alone (`ccs-conformance observe`): the judge
   * (judge/service/) makes that check, and the row's fault, met by a team's own traffic (open, save,
   * complete, delete, bulk delete) with these flags of observe (`--inject`, `--facts-path`), fails it on
   * the row's clause.
   */
  traffic?: string;
}

/**
 * A seeded fault (service) or faulty receiver (host) the rows name: the implementation switches on its
 * name (typed by the generated ServiceFaultName / HostFaultName, spec/generated/fault-models.ts).
 */
export interface SeededFault {
  name: string;
  /** The clause it breaks. */
  clause: string;
  /** What it does wrong, in one sentence. */
  sentence: string;
  /** Further clauses it breaks by its nature (the matrix counts them as its own). */
  also?: string[];
  /** false: it breaks everything at once, proves nothing about one check and stays out of the matrix. */
  matrix?: false;
}

export interface FaultModel {
  side: Side;
  rows: FaultModelRow[];
  faults: SeededFault[];
}

const ROW_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['row', 'clause', 'way'],
  properties: {
    row: { type: 'string', pattern: '^[A-Z]+-[1-9][0-9]*/[a-z0-9][a-z0-9.-]*$' },
    clause: { type: 'string', pattern: '^[A-Z]+-[1-9][0-9]*$' },
    way: { type: 'string', minLength: 1 },
    applies: { type: 'array', items: { type: 'string', minLength: 1 } },
    check: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$' },
    fault: { type: 'string', minLength: 1 },
    notChecked: { type: 'string', minLength: 1 },
    hint: { type: 'string', minLength: 1 },
    hintWhen: { type: 'string', minLength: 1 },
    recipe: { type: 'string', pattern: '^docs/recipes/' },
    vector: { type: 'boolean' },
    traffic: { type: 'string', pattern: '^--[a-z-]+ ' },
  },
  // A row is checked (check and the fault that proves it) or says why not: never neither, never both.
  oneOf: [
    { required: ['check', 'fault'], not: { required: ['notChecked'] } },
    { required: ['notChecked'], not: { anyOf: [{ required: ['check'] }, { required: ['fault'] }] } },
  ],
} as const;

const FAULT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'clause', 'sentence'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    clause: { type: 'string', pattern: '^[A-Z]+-[1-9][0-9]*$' },
    sentence: { type: 'string', minLength: 1 },
    also: { type: 'array', items: { type: 'string', pattern: '^[A-Z]+-[1-9][0-9]*$' } },
    matrix: { const: false },
  },
} as const;

const MODEL_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['side', 'rows', 'faults'],
  properties: {
    side: { enum: ['service', 'host'] },
    rows: { type: 'array', items: ROW_SCHEMA },
    faults: { type: 'array', items: FAULT_SCHEMA },
  },
} as const;

/** Compiled on first use: every test worker imports this module, few load a model. */
let compiled: ValidateFunction | undefined;
const validate = (raw: unknown): boolean =>
  (compiled ??= new Ajv({ allErrors: false, strict: false }).compile(MODEL_SCHEMA))(raw);
const cache = new Map<Side, FaultModel>();

/** Reads spec/faults/<side>.yaml; a malformed row is a load error naming the row and the field. */
export function loadFaultModel(side: Side): FaultModel {
  const known = cache.get(side);
  if (known) return known;
  const file = `faults/${side}.yaml`;
  const raw = readYaml(file, true);
  if (!validate(raw)) {
    const e = compiled?.errors?.[0];
    const at = e?.instancePath ?? '';
    const m = /^\/rows\/(\d+)/.exec(at);
    const row = m ? (raw as { rows: Array<{ row?: string }> }).rows[Number(m[1])]?.row : undefined;
    throw ccsError('SPEC_FAULT_MODEL_INVALID', {
      file,
      row: row || undefined,
      problem: `spec/${file}${row ? ` row ${row}` : ''}: ${at || '(top level)'} ${e?.message ?? 'is invalid'}`,
    });
  }
  const model = raw as FaultModel;
  if (model.side !== side)
    throw ccsError('SPEC_FAULT_MODEL_INVALID', { file, problem: `spec/${file}: side is ${model.side}, not ${side}` });
  const seen = new Set<string>();
  for (const r of model.rows) {
    if (seen.has(r.row))
      throw ccsError('SPEC_FAULT_MODEL_INVALID', {
        file,
        row: r.row,
        problem: `spec/${file}: row ${r.row} appears twice`,
      });
    seen.add(r.row);
    if (!r.row.startsWith(`${r.clause}/`))
      throw ccsError('SPEC_FAULT_MODEL_INVALID', {
        file,
        row: r.row,
        problem: `spec/${file}: row ${r.row} is not under its clause ${r.clause}`,
      });
    if (r.hintWhen !== undefined && !compiles(r.hintWhen))
      throw ccsError('SPEC_FAULT_MODEL_INVALID', {
        file,
        row: r.row,
        problem: `spec/${file}: row ${r.row}'s hintWhen is not a regular expression`,
      });
  }
  checkFaults(file, model);
  cache.set(side, model);
  return model;
}

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** Every fault is declared once, and every fault a row names is declared. */
function checkFaults(file: string, model: FaultModel): void {
  const declared = new Set<string>();
  for (const f of model.faults) {
    if (declared.has(f.name))
      throw ccsError('SPEC_FAULT_MODEL_INVALID', { problem: `spec/${file}: fault ${f.name} is declared twice`, file });
    declared.add(f.name);
  }
  for (const r of model.rows)
    if (r.fault !== undefined && !declared.has(r.fault))
      throw ccsError('SPEC_FAULT_MODEL_INVALID', {
        problem: `spec/${file}: row ${r.row} names an undeclared fault ${r.fault}`,
        file,
        row: r.row,
      });
}

/** The rows whose check has this id (a check may catch several ways). */
export function rowsOfCheck(side: Side, checkId: string): FaultModelRow[] {
  return loadFaultModel(side).rows.filter((r) => r.check === checkId);
}

/** The row with this id, or a load error naming it. */
export function faultModelRow(side: Side, row: string): FaultModelRow {
  const r = loadFaultModel(side).rows.find((x) => x.row === row);
  if (r === undefined)
    throw ccsError('SPEC_FAULT_MODEL_INVALID', { row, problem: `spec/faults/${side}.yaml has no row ${row}` });
  return r;
}

/** A hint of the fault model: the sentence and where its remedy is written. */
export interface CheckHint {
  hint: string;
  recipe?: string;
}

/**
 * The hint of a failure of the check with this id, with its recipe: of the rows of either side that
 * check it and carry a hint, the first whose hintWhen the failure's words ("<rule>: <seen>") match, else
 * the first without a hintWhen; none when every hinted row names a failure other than this one.
 */
export function hintOfCheck(checkId: string, words = ''): CheckHint | undefined {
  for (const side of ['host', 'service'] as const) {
    let model: FaultModel;
    try {
      model = loadFaultModel(side);
    } catch {
      continue; // a model not written yet has no hints; its self test reports it
    }
    const hinted = model.rows.filter((x) => x.check === checkId && x.hint !== undefined);
    if (hinted.length === 0) continue;
    const r =
      hinted.find((x) => x.hintWhen !== undefined && new RegExp(x.hintWhen).test(words)) ??
      hinted.find((x) => x.hintWhen === undefined);
    return r ? { hint: r.hint!, ...(r.recipe ? { recipe: r.recipe } : {}) } : undefined;
  }
  return undefined;
}
