/**
 * "Copy as curl": a POSIX sh line that re-sends a recorded request with the same method, target,
 * headers (names as received, in order) and body bytes. Signatures are computed over the raw
 * body (SIGN-*), so the body goes byte for byte: as a quoted string when it is text, through
 * printf octal escapes when it is not. The recorded signature header is shown as received; no
 * configured secret is involved.
 */
import type { JournalEntry } from '../types.ts';

// curl writes these itself from the line (or they describe the old connection)
const SKIP = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'expect',
  'te',
  'upgrade',
  'proxy-connection',
  'trailer',
]);

/** Quotes a string for sh: single quotes, each ' written as '\''. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function isPlainText(b: Buffer): boolean {
  if (b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

function octal(b: Buffer): string {
  let out = '';
  for (const byte of b) {
    // printable ASCII other than the quote, backslash and percent goes as itself
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c && byte !== 0x25)
      out += String.fromCharCode(byte);
    else out += '\\' + byte.toString(8).padStart(3, '0');
  }
  return `'${out}'`;
}

export function curlLine(e: JournalEntry, origin: string): string {
  const parts = ['curl', '-sS', '-X', e.method, shQuote(origin.replace(/\/$/, '') + e.url)];
  const names = new Set<string>();
  for (let i = 0; i + 1 < e.rawHeaders.length; i += 2) {
    const name = e.rawHeaders[i]!;
    const lower = name.toLowerCase();
    names.add(lower);
    if (SKIP.has(lower)) continue;
    // an empty value needs curl's "name;" form, "name:" would remove the header
    const value = e.rawHeaders[i + 1]!;
    parts.push('-H', shQuote(value === '' ? `${name};` : `${name}: ${value}`));
  }
  // curl's own defaults the original request did not carry are removed, so the headers match
  for (const own of ['User-Agent', 'Accept']) if (!names.has(own.toLowerCase())) parts.push('-H', shQuote(`${own}:`));
  const body = Buffer.from(e.bodyBase64, 'base64');
  if (body.length === 0) return parts.join(' ');
  if (!names.has('content-type')) parts.push('-H', shQuote('Content-Type:'));
  parts.push('-H', shQuote('Expect:'));
  // curl reads a --data-binary value starting with @ as a file name: such a body goes through stdin
  if (isPlainText(body) && body[0] !== 0x40) {
    parts.push('--data-binary', shQuote(body.toString('utf8')));
    return parts.join(' ');
  }
  return `printf ${octal(body)} | ${parts.join(' ')} --data-binary @-`;
}
