/**
 * Secrets (API keys, Bearer tokens, HMAC secrets) never reach evidence, reports or messages
 * (CONTRIBUTING). Every header value that carries a credential is replaced by a placeholder
 * naming what it was, and any registered secret value is scrubbed from free text too.
 */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-service-signature', 'cookie', 'proxy-authorization']);
const registered = new Set<string>();

/** Registers a secret value so that redactText scrubs it wherever it appears (e.g. in a body). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) registered.add(value);
}

export function isSecretHeader(name: string, extra: readonly string[] = []): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || extra.some((e) => e.toLowerCase() === n);
}

export function redactHeaderValue(name: string, value: string, extra: readonly string[] = []): string {
  if (!isSecretHeader(name, extra)) return redactText(value);
  const scheme = /^(Bearer|Basic|ApiKey)\s+/i.exec(value)?.[1];
  return scheme ? `${scheme} <redacted ${name.toLowerCase()}>` : `<redacted ${name.toLowerCase()}>`;
}

export function redactText(text: string): string {
  let out = text;
  for (const s of registered) if (out.includes(s)) out = out.split(s).join('<redacted>');
  return out;
}

export function redactHeaders(h: Record<string, string>, extra: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, redactHeaderValue(k, v, extra)]));
}
