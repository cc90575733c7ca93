/**
 * The links of a written report: href and src attributes of an HTML page, inline links of markdown.
 * What each must resolve to is the package test's business (installed.spec.ts).
 */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };

export function reportLinks(file: string, text: string): string[] {
  if (file.endsWith('.html')) {
    // The page's own script builds no link of its own files: every target is an attribute here.
    return [...text.matchAll(/\s(?:href|src)="([^"]*)"/g)]
      .map((m) => m[1]!.replace(/&(?:amp|quot|#39|lt|gt);/g, (e) => ENTITIES[e]!))
      .filter((l) => l !== '' && !l.startsWith('data:') && !l.includes('${'));
  }
  // [words](target) outside code spans; a target has no spaces (a title after one is dropped).
  const prose = text.replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s[^)]*)?\)/g)].map((m) => m[1]!);
}
