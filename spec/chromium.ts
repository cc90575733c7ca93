/**
 * A headless Chromium for the page tests, the screenshots and the page benchmark: Debian's chromium
 * package, driven through Playwright with its executablePath, since Playwright cannot download
 * browsers where the harness runs.
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { ccsError } from './errors.ts';

export function chromiumPath(): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw ccsError('SPEC_NO_CHROMIUM');
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--font-render-hinting=none',
    ],
  });
}
