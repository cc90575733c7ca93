/**
 * A transport failure is never a pass (PITFALLS "Evidence"): the host suites run, without the CLI
 * and its preflight, against a hook where nothing listens and against a receiver that resets every
 * connection. No clause may pass, HOST-1 fails on the transport error, and no hint of a library or
 * mistake is shown for what the transport explains.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { ROOT, readJson, tempDir } from '../cli/helpers.ts';

interface Report {
  clauses: Array<{ id: string; status: string; failures?: Array<{ error: string }>; hints?: Array<{ hint: string }> }>;
  hints?: Array<{ hint: string }>;
}

/** The host project's own run (no CLI), every file, against a target file; its deadline covers one 10 s wait a test. */
function runHostProject(targetFile: string, reportDir: string, deadlineMs: number): Promise<number | null> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PLAYWRIGHT_|PW_|CCS_)/.test(k)) env[k] = v;
  }
  Object.assign(env, {
    CCS_HOST_TARGET: targetFile,
    CCS_SERVICE_PORT: '0',
    CCS_REPORT_DIR: reportDir,
    CCS_REPORTER: 'dot',
  });
  const cliJs = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  return new Promise((resolve, reject) => {
    const args = [cliJs, 'test', '--project=host', '--workers=2'];
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the host project did not finish within ${deadlineMs} ms`));
    }, deadlineMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

function targetAt(dir: string, port: number): string {
  const file = join(dir, 'target.yaml');
  // Test-only values: nothing here is a real secret.
  writeFileSync(
    file,
    [
      `hostBaseUrl: http://127.0.0.1:${port}`,
      'hookPath: /hooks/ccs',
      'factsPath: /facts',
      'signing: { mode: hmac, secret: test-only-secret }',
      'dataApi: { bearerToken: test-only-token }',
      '',
    ].join('\n'),
  );
  return file;
}

/** A port nothing listens on: one the system gave out and took back. */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A receiver that accepts every connection and resets it (a TCP RST, not an answer). */
async function resetting(): Promise<{ port: number; close: () => Promise<void> }> {
  const s = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => s.close(() => resolve()));
  return { port: (s.address() as net.AddressInfo).port, close };
}

function expectNoVerdictWithoutAnswer(report: Report): void {
  const passed = report.clauses.filter((c) => c.status === 'passed').map((c) => c.id);
  expect(passed, 'no clause passes when no request got an answer').toEqual([]);
  const host1 = report.clauses.find((c) => c.id === 'HOST-1');
  expect(host1?.status).toBe('failed');
  expect(host1?.failures?.[0]?.error).toMatch(/no answer|connection failed/);
  // Every hint shown is the transport's, never a library's or a mistake's (a redirect, stripe, a header limit).
  const hints = [...report.clauses.flatMap((c) => c.hints ?? []), ...(report.hints ?? [])].map((h) => h.hint);
  for (const h of hints) expect(h).toMatch(/^No HTTP answer/);
}

test('against a hook where nothing listens, no host clause passes; HOST-1 fails on the refusal', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('ccs-host-no-answer-');
  await runHostProject(targetAt(dir, await deadPort()), join(dir, 'report'), 220_000);
  expectNoVerdictWithoutAnswer(readJson<Report>(join(dir, 'report', 'conformance.json')));
});

test('against a receiver that resets every connection, no host clause passes; HOST-1 fails on the reset', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('ccs-host-reset-');
  const receiver = await resetting();
  try {
    await runHostProject(targetAt(dir, receiver.port), join(dir, 'report'), 220_000);
  } finally {
    await receiver.close();
  }
  expectNoVerdictWithoutAnswer(readJson<Report>(join(dir, 'report', 'conformance.json')));
});
