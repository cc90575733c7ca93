/**
 * The one curl-line builder of both directions: a failed request is printed as a line that
 * replays it when pasted into a POSIX shell. Every argument is shell-quoted, every header is
 * kept whole (a JWKS-mode X-Service-Signature is tens of kilobytes, and cutting it breaks the
 * replay), and the body is sent inline with --data-binary, so nothing refers to a file that
 * was never written. Credentials become shell variables ($CCS_AUTHORIZATION ...) to export first.
 */

/** POSIX single-quoting: the only character to escape inside '...' is ' itself. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface CurlRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** The exact bytes sent, or a description of a body that cannot be replayed from a line (multipart). */
  body?: string | Uint8Array | { length: number; description: string };
  /** Headers whose value is a credential: printed as a shell variable, never as their value. */
  isSecretHeader?: (name: string) => boolean;
  /** Scrubs registered secret values out of printed text. */
  scrub?: (text: string) => string;
  /** Path of a file the caller wrote the body to: used when the body cannot go inline. */
  bodyFile?: string;
}

/**
 * Bodies up to this size go inline. Linux caps one argument at 128 KiB; a full 500-key bulk page
 * is about 25 KB, well within.
 */
export const MAX_INLINE_BODY_BYTES = 100_000;

/** Text that survives a round trip through a shell argument unchanged (UTF-8, no NUL). */
function inlineText(body: string | Uint8Array): string | undefined {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  if (bytes.length > MAX_INLINE_BODY_BYTES || bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

export function curlLine(r: CurlRequest): string {
  const scrub = r.scrub ?? ((s: string) => s);
  const parts = ['curl', '-sS', '-i', '-X', r.method, shellQuote(r.url)];
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    if (r.isSecretHeader?.(k)) {
      const scheme = /^(Bearer|Basic|ApiKey)\s+/i.exec(v)?.[1];
      const variable = `$CCS_${k.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
      parts.push('-H', `"${k}: ${scheme ? scheme + ' ' : ''}${variable}"`);
    } else parts.push('-H', shellQuote(`${k}: ${scrub(v)}`));
  }
  const body = r.body;
  if (body === undefined) return parts.join(' ');
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = inlineText(body);
    if (text !== undefined) parts.push('--data-binary', shellQuote(scrub(text)));
    else if (r.bodyFile !== undefined) parts.push('--data-binary', shellQuote(`@${r.bodyFile}`));
    else
      parts.push(
        '--data-binary',
        `@body.bin  # ${typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength} bytes, not printable inline`,
      );
  } else {
    parts.push('--data-binary', `@body.bin  # ${body.length} bytes: ${body.description}`);
  }
  return parts.join(' ');
}
