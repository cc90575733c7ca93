/**
 * Expected-outcomes file, YAML: { target, expectedFailures: [{ clause, reason }] }.
 * Bad files are a configuration error (CcsError REPORT_EXPECTED_INVALID naming the field).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ccsError, CcsError, isClauseIdShape, parseYaml } from '../spec/index.ts';
import type { ExpectedOutcomes } from './model.ts';

export function parseExpectedOutcomes(text: string, name: string, knownClauses?: Set<string>): ExpectedOutcomes {
  const fail = (field: string, why: string): never => {
    throw ccsError('REPORT_EXPECTED_INVALID', { name, field, problem: `${field}: ${why}` });
  };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    return fail('(top level)', `not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return fail('(top level)', 'must be a mapping with expectedFailures');
  const d = doc as Record<string, unknown>;
  for (const k of Object.keys(d))
    if (k !== 'target' && k !== 'expectedFailures') fail(k, 'unknown field (allowed: target, expectedFailures)');
  if (d.target !== undefined && typeof d.target !== 'string') fail('target', 'must be a string');
  if (!Array.isArray(d.expectedFailures)) return fail('expectedFailures', 'must be a list of { clause, reason }');
  const seen = new Set<string>();
  const list = d.expectedFailures.map((item, i) => {
    const at = `expectedFailures[${i}]`;
    if (!item || typeof item !== 'object') return fail(at, 'must be a mapping { clause, reason }');
    const { clause, reason, ...rest } = item as Record<string, unknown>;
    for (const k of Object.keys(rest)) fail(`${at}.${k}`, 'unknown field (allowed: clause, reason)');
    if (typeof clause !== 'string' || !isClauseIdShape(clause))
      return fail(`${at}.clause`, 'must be a clause id like DELIV-4');
    if (knownClauses && !knownClauses.has(clause))
      fail(`${at}.clause`, `${clause} is not a clause of spec/clauses.yaml`);
    if (seen.has(clause)) fail(`${at}.clause`, `${clause} is listed twice`);
    seen.add(clause);
    if (typeof reason !== 'string' || reason.trim() === '')
      return fail(`${at}.reason`, 'must be a non-empty string saying why the failure is known');
    return { clause, reason };
  });
  return { ...(typeof d.target === 'string' ? { target: d.target } : {}), expectedFailures: list };
}

export function loadExpectedOutcomes(file: string, knownClauses?: Set<string>): ExpectedOutcomes {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw ccsError('REPORT_EXPECTED_INVALID', {
      name: basename(file),
      field: '(file)',
      problem: 'cannot read the expected-outcomes file',
    });
  }
  return parseExpectedOutcomes(text, basename(file), knownClauses);
}
