/** Escapes text for HTML and SVG (attributes and content); ANSI colour codes of error text are dropped. */
export function htmlEscape(s: string): string {
  return s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escapes element text only (not attributes): quotes stay as they are, which keeps JSON evidence small. */
export function textEscape(s: string): string {
  return s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
