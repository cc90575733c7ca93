/**
 * The one redactor: secrets (HMAC secrets, API keys, Bearer tokens, private keys, passwords)
 * never reach a report, evidence, a curl line, a log or an error message (CONTRIBUTING). One list
 * of secret names, one placeholder, used by the reports, the suites and the CLI alike. It lives in
 * spec/ because every room may import spec/ and reports may import nothing else.
 *
 * Three layers:
 *  1. every listed secret value is replaced wherever it appears, in any string;
 *  2. object members, target-file fields and headers named like a secret get their value replaced;
 *  3. header lines inside free text (curl lines, error text) "Authorization: ..." are cut.
 */
import { readFileSync } from 'node:fs';
import { readSettings } from './settings.ts';

export const REDACTED = '[REDACTED]';

/**
 * Names (case-insensitive) of members, fields and headers that hold a secret. The signature
 * header is not here: a signature is no secret (it proves nothing without the secret and t).
 */
export const SECRET_NAMES: readonly string[] = Object.freeze([
  'secret',
  'secrets',
  'hmacSecret',
  'previousSecret',
  'apiKey',
  'api_key',
  'bearerToken',
  'embedAuthorization',
  'privateKey',
  'private_key',
  'password',
  'token',
  'd',
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
]);
const NAMES = new Set(SECRET_NAMES.map((n) => n.toLowerCase()));

/** Headers of the list, as they appear in free text (curl lines, messages). */
const HEADER_IN_TEXT =
  /\b(proxy-authorization|authorization|x-api-key|cookie)(["']?\s*[:=]\s*["']?)(?!(?:(?:Bearer|Basic|ApiKey)\s+)?\$CCS_)(?:(?:Bearer|Basic|ApiKey)\s+)?[^\s'",}]+/gi;

/** A value shorter than this would shred ordinary text; a real secret is longer. */
const MIN_SECRET_LENGTH = 4;

/**
 * Whether a member, field or header of this name holds a secret (extra: names a target adds, e.g. its API key header).
 */
export function isSecretName(name: string, extra: readonly string[] = []): boolean {
  const n = name.toLowerCase();
  return NAMES.has(n) || extra.some((e) => e.toLowerCase() === n);
}

/** Reads the secret list named by CCS_SECRETS_FILE (one a line); a missing file is an empty list. */
export function loadSecrets(file: string | undefined = readSettings().secretsFile): string[] {
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s.length >= MIN_SECRET_LENGTH);
}

export class Redactor {
  private secrets: string[] = [];

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Adds a secret value (ignored when too short to be one). */
  add(secret: string | undefined | null): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || this.secrets.includes(secret)) return;
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = [...this.secrets, secret].sort((a, b) => b.length - a.length);
  }

  /** Replaces only the listed secret values (safe on rendered HTML or XML). */
  literal(value: string): string {
    let out = value;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  /** literal, and credential headers written in the text are cut (a $CCS_* shell variable, no secret, is kept). */
  text(value: string): string {
    return this.literal(value).replace(HEADER_IN_TEXT, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  }

  /** One header's value: replaced whole when the header holds a secret, else redacted as text. */
  headerValue(name: string, value: string, extra: readonly string[] = []): string {
    return isSecretName(name, extra) ? REDACTED : this.text(value);
  }

  headers(h: Record<string, string>, extra: readonly string[] = []): Record<string, string> {
    return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, this.headerValue(k, v, extra)]));
  }

  /** A JSON-like value with every string redacted and every secret-named member replaced. */
  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] = isSecretName(k) && v !== null && v !== undefined && typeof v !== 'boolean' ? REDACTED : this.walk(v);
      }
      return out;
    }
    return value;
  }
}

/**
 * The redactor of a test process: every credential a suite creates or reads from its target is
 * registered here, so evidence, curl lines and messages built in that process are scrubbed of it.
 */
export const processRedactor = new Redactor();

export function registerSecret(value: string | undefined | null): void {
  processRedactor.add(value);
}

export function redactText(text: string): string {
  return processRedactor.text(text);
}
