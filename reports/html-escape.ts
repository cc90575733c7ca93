/** Escapes text for HTML and SVG (attributes and content); ANSI colour codes of error text are dropped. */
export function htmlEscape(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
