#!/usr/bin/env node
// Run before the test command (npm's pretest): the clause-matrix page test drives Debian's chromium
// (Playwright cannot download browsers here). Present: nothing to do. Missing: installed with
// apt-get when we are root, otherwise one line saying what to install, and a failing exit.
import { execFileSync } from 'node:child_process';

function found() {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() !==
      ''
    );
  } catch {
    return false;
  }
}

if (!found()) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = (() => {
    try {
      return execFileSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();
  if (root && aptGet) {
    process.stdout.write('test: chromium is missing; installing the Debian package with apt-get\n');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      execFileSync(aptGet, ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
      execFileSync(aptGet, ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      });
    } catch {
      // Reported below by the second look.
    }
  }
  if (!found()) {
    process.stderr.write(
      'test: chromium is required for the page tests and is not installed: install the Debian package `chromium` (sudo apt-get install chromium), or any Chromium as `chromium` on PATH\n',
    );
    process.exitCode = 1;
  }
}
