/**
 * A reproducible curl line for a request the harness sent (failures print it): credentials are
 * replaced by shell variables ($CCS_API_KEY ...) so the line can be pasted after exporting them.
 */
import { isSecretName, redactText } from '../../../spec/index.ts';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface CurlInput {
  method: string; url: string; headers?: Record<string, string>;
  body?: string | Uint8Array | { length: number; description: string };
  secretHeaders?: readonly string[];
}

const MAX_INLINE_BODY = 4_096;

export function curlLine(r: CurlInput): string {
  const parts = ['curl', '-sS', '-i', '-X', r.method, shellQuote(r.url)];
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    if (isSecretName(k, r.secretHeaders)) {
      const scheme = /^(Bearer|Basic|ApiKey)\s+/i.exec(v)?.[1];
      const variable = `$CCS_${k.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
      parts.push('-H', `"${k}: ${scheme ? scheme + ' ' : ''}${variable}"`);
    } else parts.push('-H', shellQuote(`${k}: ${redactText(v)}`));
  }
  if (typeof r.body === 'string') {
    if (r.body.length <= MAX_INLINE_BODY) parts.push('--data-binary', shellQuote(redactText(r.body)));
    else parts.push('--data-binary', `@body.bin  # ${r.body.length} characters, starts ${shellQuote(redactText(r.body.slice(0, 80)))}`);
  } else if (r.body instanceof Uint8Array) {
    parts.push('--data-binary', `@body.bin  # ${r.body.byteLength} bytes`);
  } else if (r.body) {
    parts.push('--data-binary', `@body.bin  # ${r.body.length} bytes: ${r.body.description}`);
  }
  return parts.join(' ');
}
