/**
 * Response scripts as serializable data (JSON or YAML), kept apart from their implementations
 * (scripts/run-step.ts), like mockttp's rule definitions. The n-th request a script matches gets
 * its n-th step.
 */
import { ccsError, parseYaml } from '../../spec/index.ts';
import type { RouteKind } from '../route-kind.ts';

export interface RespondStep {
  action: 'respond';
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}
export interface HoldStep {
  action: 'hold';
  ms: number;
  thenStatus?: number;
}
export interface NeverStep {
  action: 'never';
}
export interface ResetStep {
  action: 'reset';
}
export interface CloseStep {
  action: 'close';
}
export interface RefuseStep {
  action: 'refuse';
  ms: number;
}
export interface FactsStep {
  action: 'facts';
  body: object | unknown[] | string | number | boolean | null;
  delayMs?: number;
}
export interface FactsNotFittingStep {
  action: 'factsNotFitting';
  delayMs?: number;
}

export type Step =
  RespondStep | HoldStep | NeverStep | ResetStep | CloseStep | RefuseStep | FactsStep | FactsNotFittingStep;
export type StepAction = Step['action'];

export interface ScriptMatch {
  path?: string;
  event?: string;
  deliveryId?: string;
  endUserHandle?: string;
  attempt?: number | number[];
  method?: string;
  kind?: RouteKind | 'unrouted';
}

export interface ResponseScript {
  id: string;
  match: ScriptMatch;
  steps: Step[];
  /** What answers once the steps are used up: the default answer (default) or the last step again. */
  then?: 'default' | 'repeat-last';
}

export const STEP_ACTIONS: readonly StepAction[] = [
  'respond',
  'hold',
  'never',
  'reset',
  'close',
  'refuse',
  'facts',
  'factsNotFitting',
];

function bad(field: string, rule: string, got: unknown): never {
  let shown: string;
  try {
    shown = JSON.stringify(got) ?? String(got);
  } catch {
    shown = String(got);
  }
  if (shown.length > 80) shown = shown.slice(0, 77) + '...';
  throw ccsError('MOCKHOST_SCRIPT_INVALID', { field, rule: `${rule}, got ${shown}` });
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function ms(v: unknown, field: string, required: boolean): void {
  if (v === undefined && !required) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    bad(field, 'must be an integer number of milliseconds >= 0', v);
}

function status(v: unknown, field: string, required: boolean): void {
  if (v === undefined && !required) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599)
    bad(field, 'must be an integer HTTP status 100..599', v);
}

function onlyKeys(o: Record<string, unknown>, allowed: string[], field: string): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) bad(`${field}.${k}`, `is not a known field (allowed: ${allowed.join(', ')})`, o[k]);
}

function validateStep(v: unknown, field: string): Step {
  if (!isObj(v)) bad(field, 'must be an object with an action', v);
  const action = v.action;
  if (typeof action !== 'string' || !STEP_ACTIONS.includes(action as StepAction)) {
    bad(`${field}.action`, `must be one of ${STEP_ACTIONS.join(', ')}`, action);
  }
  switch (action as StepAction) {
    case 'respond':
      onlyKeys(v, ['action', 'status', 'body', 'headers', 'delayMs'], field);
      status(v.status, `${field}.status`, true);
      ms(v.delayMs, `${field}.delayMs`, false);
      if (v.headers !== undefined) {
        if (!isObj(v.headers)) bad(`${field}.headers`, 'must be an object of header name to string', v.headers);
        for (const [k, h] of Object.entries(v.headers))
          if (typeof h !== 'string') bad(`${field}.headers.${k}`, 'must be a string', h);
      }
      break;
    case 'hold':
      onlyKeys(v, ['action', 'ms', 'thenStatus'], field);
      ms(v.ms, `${field}.ms`, true);
      status(v.thenStatus, `${field}.thenStatus`, false);
      break;
    case 'refuse':
      onlyKeys(v, ['action', 'ms'], field);
      ms(v.ms, `${field}.ms`, true);
      break;
    case 'facts':
      onlyKeys(v, ['action', 'body', 'delayMs'], field);
      if (!('body' in v))
        bad(`${field}.body`, 'is required (an object, array, string, number, boolean or null)', undefined);
      ms(v.delayMs, `${field}.delayMs`, false);
      break;
    case 'factsNotFitting':
      onlyKeys(v, ['action', 'delayMs'], field);
      ms(v.delayMs, `${field}.delayMs`, false);
      break;
    default:
      onlyKeys(v, ['action'], field);
  }
  return v as unknown as Step;
}

const MATCH_KEYS = ['path', 'event', 'deliveryId', 'endUserHandle', 'attempt', 'method', 'kind'];

function validateScript(v: unknown, field: string): ResponseScript {
  if (!isObj(v)) bad(field, 'must be an object { id, match, steps, then? }', v);
  onlyKeys(v, ['id', 'match', 'steps', 'then'], field);
  if (typeof v.id !== 'string' || v.id === '') bad(`${field}.id`, 'must be a non-empty string', v.id);
  const match = v.match ?? {};
  if (!isObj(match)) bad(`${field}.match`, 'must be an object', match);
  onlyKeys(match, MATCH_KEYS, `${field}.match`);
  for (const k of ['path', 'event', 'deliveryId', 'endUserHandle', 'method'] as const) {
    if (match[k] !== undefined && typeof match[k] !== 'string')
      bad(`${field}.match.${k}`, 'must be a string', match[k]);
  }
  if (match.kind !== undefined && !['lifecycle', 'tool', 'facts', 'unrouted'].includes(match.kind as string)) {
    bad(`${field}.match.kind`, 'must be one of lifecycle, tool, facts, unrouted', match.kind);
  }
  if (match.attempt !== undefined) {
    const list = Array.isArray(match.attempt) ? match.attempt : [match.attempt];
    if (list.length === 0 || list.some((a) => typeof a !== 'number' || !Number.isInteger(a) || a < 1)) {
      bad(`${field}.match.attempt`, 'must be an integer >= 1 or a non-empty list of them', match.attempt);
    }
  }
  if (!Array.isArray(v.steps) || v.steps.length === 0)
    bad(`${field}.steps`, 'must be a non-empty list of steps', v.steps);
  const steps = v.steps.map((s, i) => validateStep(s, `${field}.steps[${i}]`));
  if (v.then !== undefined && v.then !== 'default' && v.then !== 'repeat-last')
    bad(`${field}.then`, "must be 'default' or 'repeat-last'", v.then);
  return {
    id: v.id,
    match: match as ScriptMatch,
    steps,
    ...(v.then !== undefined ? { then: v.then as 'default' | 'repeat-last' } : {}),
  };
}

/** Validates one script or a list (or `{ scripts: [...] }`); throws MOCKHOST_SCRIPT_INVALID naming the field. */
export function validateScripts(input: unknown): ResponseScript[] {
  if (isObj(input) && Array.isArray(input.scripts)) input = input.scripts;
  const list = Array.isArray(input) ? input : [input];
  const out = list.map((s, i) => validateScript(s, `scripts[${i}]`));
  const ids = new Set<string>();
  out.forEach((s, i) => {
    if (ids.has(s.id)) bad(`scripts[${i}].id`, 'must be unique among the scripts', s.id);
    ids.add(s.id);
  });
  return out;
}

/** Parses script text (JSON or YAML) and validates it. */
export function parseScripts(text: string): ResponseScript[] {
  let data: unknown;
  try {
    data = parseYaml(text); // YAML is a superset of JSON
  } catch (error) {
    throw ccsError('MOCKHOST_SCRIPT_INVALID', {
      field: 'script text',
      rule: `is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`,
    });
  }
  return validateScripts(data);
}
