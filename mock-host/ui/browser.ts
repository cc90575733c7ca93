/**
 * Debian's chromium for the inspector's pictures and tests: browsers cannot be downloaded here,
 * so Playwright drives the system binary (`command -v chromium`) with the flags that keep a
 * headless run quiet and sandbox-free.
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { CcsError } from '../../spec/index.ts';

export function chromiumPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new CcsError('MOCKHOST_NO_CHROMIUM', 'chromium is not installed: apt-get install -y chromium');
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
