/**
 * A headless Chromium for the matrix page (its browser test and its screenshot): Debian's chromium
 * package, since Playwright cannot download browsers here (PITFALLS).
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { CcsError } from '../spec/index.ts';

export function chromiumPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CCS_CHROMIUM ?? chromiumPath();
  if (!executablePath) throw new CcsError('REPORT_NO_BROWSER', 'chromium is not installed: apt-get install -y chromium (the matrix page test and screenshot need it)');
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
  });
}
