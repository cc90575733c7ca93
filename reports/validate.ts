/** Every report written is validated against reports/conformance.schema.json. */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ccsError, CcsError } from '../spec/index.ts';

const require = createRequire(import.meta.url);
export const conformanceSchema = require('./conformance.schema.json') as object;

type ValidateFn = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };
let compiled: ValidateFn | undefined;

function validator(): ValidateFn {
  if (!compiled) {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false, allowUnionTypes: true });
    const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void;
    addFormats(ajv);
    compiled = ajv.compile(conformanceSchema) as ValidateFn;
  }
  return compiled;
}

/**
 * Compiles the schema now, not on the first report: a live observation compiles it before its first callback, so
 * its verdict does not wait for it.
 */
export function prepareReportValidator(): void {
  validator();
}

/** Returns the list of problems ("/clauses/3/status: must be equal to one of the allowed values"). */
export function reportProblems(report: unknown): string[] {
  const v = validator();
  if (v(report)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '(top level)'}: ${e.message ?? 'invalid'}`);
}

/** Throws CcsError REPORT_SCHEMA_INVALID naming every problem. */
export function assertValidReport(report: unknown): void {
  const problems = reportProblems(report);
  if (problems.length > 0) {
    throw ccsError('REPORT_SCHEMA_INVALID', { list: problems.slice(0, 20).join('\n  '), problems });
  }
}
