/**
 * One error type for the whole harness: every error carries a stable `code` (SCREAMING_SNAKE,
 * prefixed by the room that raises it, e.g. SPEC_CLAUSE_UNKNOWN, TARGET_FIELD_INVALID) so
 * callers and tests match on the code, never on the message. Messages quote the contract where
 * a rule of it is at stake.
 */
export class CcsError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CcsError';
    this.code = code;
    this.details = details;
  }
}

export function isCcsError(value: unknown, code?: string): value is CcsError {
  return value instanceof CcsError && (code === undefined || value.code === code);
}
