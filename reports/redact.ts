/**
 * Secrets never reach a report (common rules; issue 7 acceptance). Three layers:
 *  1. every value listed in the file named by CCS_SECRETS_FILE (one per line) is replaced wherever
 *     it appears, in any string;
 *  2. object members named like a secret (secret, apiKey, bearerToken, privateKey, JWK 'd', ...) and
 *     the headers authorization / x-api-key get their value replaced;
 *  3. header lines inside strings (curl lines, error text) "Authorization: ..." are cut.
 */
import { readFileSync } from 'node:fs';
import { readSettings } from '../spec/index.ts';

export const REDACTED = '[REDACTED]';

const SECRET_KEY = /^(secret|secrets|hmacsecret|apikey|api_key|bearertoken|privatekey|private_key|password|token|d|authorization|x-api-key|embedauthorization)$/i;
const HEADER_IN_TEXT = /\b(authorization|x-api-key)(["']?\s*[:=]\s*["']?)(?:Bearer\s+|Basic\s+)?[^\s'",}]+/gi;

/** Reads the secret list named by CCS_SECRETS_FILE; a missing file is an empty list. */
export function loadSecrets(file: string | undefined = readSettings().secretsFile): string[] {
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  // Very short values would shred ordinary text; a real secret is longer than 3 characters.
  return text.split(/\r?\n/).map((s) => s.trim()).filter((s) => s.length >= 4);
}

export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: string[] = []) {
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  }

  /** Replaces only the listed secret values (safe on rendered HTML or XML). */
  literal(value: string): string {
    let out = value;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  text(value: string): string {
    return this.literal(value).replace(HEADER_IN_TEXT, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  }

  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined && typeof v !== 'boolean' ? REDACTED : this.walk(v);
      }
      return out;
    }
    return value;
  }
}
