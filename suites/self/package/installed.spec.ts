/**
 * What a user reaches from the installed package, not from the clone (PITFALLS: a build step that
 * copies only some file types ships a package without its pages): the mock host's inspector page
 * loads in Chromium, every command of `--help` runs, and every link of the reports a run writes into
 * the user's folder resolves there.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { launchChromium } from '../../../spec/chromium.ts';
import { sectionLink } from '../../../reports/index.ts';
import { userProject } from './installed.ts';
import { exec } from './tarball.ts';
import { reportLinks } from './links.ts';

test.describe.configure({ mode: 'serial' });

/** Starts `npx ccs-conformance mock-host` in the project; resolves with the inspector's URL it prints. */
interface Started {
  url: string;
  stop: () => void;
  log: () => string;
}

async function startMockHost(cwd: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn('npx', ['ccs-conformance', 'mock-host', '--port', '0', '--hook-path', '/hooks', '--quiet'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`mock-host printed no inspector line within 30 s:\n${log}`));
    }, 30_000);
    const onData = (c: Buffer) => {
      log += c.toString('utf8');
      const url = /^inspector: (http\S+)$/m.exec(log)?.[1];
      if (url) {
        clearTimeout(timer);
        resolveUrl({ url, stop, log: () => log });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mock-host exited ${code}:\n${log}`));
    });
  });
}

test('mock-host from the installed package serves /__admin/ui: it loads in Chromium, live, with no error', async () => {
  test.setTimeout(180_000);
  const user = await userProject();
  const host = await startMockHost(user.project, user.env);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`);
    });
    const answer = await page.goto(host.url);
    expect(answer?.status(), `GET ${host.url}\n${host.log()}`).toBe(200);
    // The page's script ran (inspector.js, a file the build must ship) and its event stream is open.
    await expect(page.locator('body')).toHaveAttribute('data-live', 'live', { timeout: 15_000 });
    await expect(page.locator('#filters')).toBeVisible();
    await expect(page.locator('#live')).toHaveText(/live/);
    expect(problems, 'the page and its files load with no error').toEqual([]);
    const shot = await page.screenshot();
    await test.info().attach('inspector from the installed package', { body: shot, contentType: 'image/png' });
  } finally {
    await browser.close();
    host.stop();
  }
});

test('every command `npx ccs-conformance --help` lists runs from the package with --help and exits 0', async () => {
  test.setTimeout(180_000);
  const user = await userProject();
  const npx = (args: string[]) =>
    exec('npx', ['ccs-conformance', ...args], { cwd: user.project, env: user.env, deadlineMs: 30_000 });
  const top = await npx(['--help']);
  expect(top.code, top.stderr).toBe(0);
  const listed = /^Commands:\n((?: {2}\S.*\n)+)/m.exec(top.stdout)?.[1] ?? '';
  const commands = [...listed.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!);
  expect(commands.length, `--help lists its commands:\n${top.stdout}`).toBeGreaterThanOrEqual(5);
  for (const command of commands) {
    const r = await npx([command, '--help']);
    expect.soft(r.code, `ccs-conformance ${command} --help\n${r.stdout}\n${r.stderr}`).toBe(0);
    const usage = new RegExp(`^Usage: ccs-conformance ${command}\\b`);
    expect.soft(r.stdout, `${command} --help prints its usage`).toMatch(usage);
  }
});

test('every link of clauses.html and summary.md of a packaged run resolves, none to the contract', async () => {
  test.setTimeout(240_000);
  const user = await userProject();
  // A failed clause with a hint: its recipe link (docs/recipes/node-stripe.md) is among the links.
  const args = ['host', '--fault', 'past-only-window', '--grep', 'HOST-6', '--workers', '1'];
  args.push('--report-dir', 'link-reports');
  const r = await exec('npx', ['ccs-conformance', ...args], { cwd: user.project, env: user.env, deadlineMs: 180_000 });
  expect(r.code, `a failed MUST clause: exit 1\n${r.stdout}\n${r.stderr}`).toBe(1);
  const dir = join(user.project, 'link-reports');
  const broken: string[] = [];
  let files = 0;
  for (const report of ['clauses.html', 'summary.md']) {
    const text = readFileSync(join(dir, report), 'utf8');
    const links = reportLinks(report, text);
    expect(links.length, `${report} has links`).toBeGreaterThan(0);
    test.info().annotations.push({ type: `links of ${report}`, description: [...new Set(links)].join(' ') });
    for (const link of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('file:')) {
        // Not followed: the run is offline. It must not be the contract the package does not ship.
        if (/host-integration-contract\.md/.test(link)) broken.push(`${report}: ${link} (the contract is not shipped)`);
        continue;
      }
      const [path, anchor] = link.split('#') as [string, string | undefined];
      if (path === '') {
        if (anchor && !text.includes(`id="${anchor}"`)) broken.push(`${report}: #${anchor} (no such id)`);
        continue;
      }
      const file = resolve(dir, decodeURIComponent(path));
      files++;
      if (!existsSync(file)) broken.push(`${report}: ${link} (no file ${file})`);
      else if (/host-integration-contract\.md$/.test(file)) broken.push(`${report}: ${link} (not shipped)`);
    }
  }
  expect(broken, 'links that do not resolve').toEqual([]);
  expect(files, 'the recipe of the failed clause is linked as a file of the installed package').toBeGreaterThan(0);
  const html = readFileSync(join(dir, 'clauses.html'), 'utf8');
  expect(html, 'without CCS_CONTRACT_URL a section is named, not linked').toContain(
    '<span class="section">contract §5.2</span>',
  );
  expect(dirname(dir)).toBe(user.project);
});

test("with CCS_CONTRACT_URL set, a clause's section links to its heading there", () => {
  expect(sectionLink('4.2, 7', 'https://example.test/contract.md')).toBe(
    'https://example.test/contract.md#42-routes-of-the-service-called-by-the-host',
  );
  expect(sectionLink('5.2', undefined)).toBeUndefined();
});
