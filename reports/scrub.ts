/**
 * After every reporter has written (Reporter.onExit), the listed secrets are scrubbed from the
 * other text files of the report folder too: Playwright's results.json (attachment bodies are
 * base64: decoded, redacted, re-encoded) and the HTML report's attachment files. Playwright's
 * HTML report keeps test errors inside a compressed blob in its index.html that no text scrub
 * reaches: suites must keep secrets out of error messages (CONTRIBUTING, "Evidence").
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Redactor } from '../spec/index.ts';

const TEXT = new Set(['.json', '.xml', '.md', '.txt', '.log', '.csv', '.yaml', '.yml', '.html', '.htm', '']);
const MAX_BYTES = 64 * 1024 * 1024;

function walk(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.literal(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, redactor));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = walk(v, redactor);
    // Playwright JSON reporter attachment: { name, contentType, body: base64 }
    if (typeof o.body === 'string' && typeof o.contentType === 'string') {
      const text = Buffer.from(o.body, 'base64').toString('utf8');
      const clean = redactor.text(text);
      if (clean !== text) out.body = Buffer.from(clean, 'utf8').toString('base64');
    }
    return out;
  }
  return value;
}

export function scrubFile(path: string, redactor: Redactor): boolean {
  const st = statSync(path);
  if (!st.isFile() || st.size > MAX_BYTES || !TEXT.has(extname(path).toLowerCase())) return false;
  const text = readFileSync(path, 'utf8');
  let clean = redactor.literal(text);
  if (extname(path).toLowerCase() === '.json') {
    try {
      clean = JSON.stringify(walk(JSON.parse(text), redactor), null, 2);
      if (clean === JSON.stringify(JSON.parse(text), null, 2)) clean = redactor.literal(text);
    } catch {
      // not JSON after all: the literal pass stands
    }
  }
  if (clean === text) return false;
  writeFileSync(path, clean);
  return true;
}

/** Scrubs every text file under dir; returns the files changed. */
export function scrubDir(dir: string, redactor: Redactor): string[] {
  const changed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return changed;
  }
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) changed.push(...scrubDir(path, redactor));
    else if (scrubFile(path, redactor)) changed.push(path);
  }
  return changed;
}
