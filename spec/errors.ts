import { renderError, type CcsErrorArgs, type CcsErrorCode, type CcsErrorPrefix } from './error-codes.ts';

export type { CcsErrorCode, CcsErrorPrefix, CcsErrorParams } from './error-codes.ts';

/**
 * One error type for the whole harness: every error carries a stable `code` declared in
 * spec/error-codes.ts (SCREAMING_SNAKE, prefixed by the room that raises it, e.g. SPEC_CLAUSE_UNKNOWN,
 * TARGET_FIELD_INVALID) so callers and tests match on the code, never on the message. Messages quote the
 * contract where a rule of it is at stake. Build one with `ccsError(code, params)`, never `new` at a site.
 */
export class CcsError extends Error {
  readonly code: CcsErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: CcsErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CcsError';
    this.code = code;
    this.details = details;
  }
}

/** The error of a registered `code`: its template filled with `params` (a typo in either fails typecheck). */
export function ccsError<C extends CcsErrorCode>(code: C, ...args: CcsErrorArgs<C>): CcsError {
  const { message, details } = renderError(code, args[0] as Record<string, unknown> | undefined);
  return new CcsError(code, message, details);
}

/** The body an HTTP answer of the mock host's admin API carries for `error`. */
export function errorAnswer(error: CcsError): { error: CcsErrorCode; message: string } {
  return { error: error.code, message: error.message };
}

export function isCcsError(value: unknown, code?: CcsErrorCode): value is CcsError {
  return value instanceof CcsError && (code === undefined || value.code === code);
}

/** A CcsError raised in the room of `prefix` (TARGET: anything the user gave). */
export function isCcsErrorOf(value: unknown, prefix: CcsErrorPrefix): value is CcsError {
  return value instanceof CcsError && value.code.startsWith(`${prefix}_`);
}
