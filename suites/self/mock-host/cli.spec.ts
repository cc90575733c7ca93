import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hmacHeader, lcBody, lcHeaders, send } from './helpers.ts';

function waitForOutput(
  child: ChildProcess,
  out: { text: string },
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = out.text.match(pattern);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(m);
      }
    };
    const timer = setTimeout(() => {
      child.stdout!.off('data', check);
      reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms; got:\n${out.text}`));
    }, timeoutMs);
    child.stdout!.on('data', check);
    check();
  });
}

test('the standalone mock host starts, prints a line per request, serves the journal, and stops on SIGTERM', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'mockhost-cli-'));
  const secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, 'test-only-cli-secret\n');
  const child = spawn(
    process.execPath,
    [
      'cli/bin.mjs',
      'mock-host',
      '--port',
      '0',
      '--hook-path',
      '/hooks',
      '--hmac-secret-file',
      secretFile,
      '--time-scale',
      '0.1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = { text: '' };
  child.stdout!.on('data', (d: Buffer) => (out.text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.text += d.toString()));
  try {
    const [, url] = await waitForOutput(child, out, /mock host listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000);
    const body = lcBody('onStart', 50);
    const r = await send(url!, {
      path: '/hooks',
      headers: lcHeaders(body, { signature: hmacHeader(body, 'test-only-cli-secret') }),
      body,
    });
    expect(r.status).toBe(200);
    await waitForOutput(child, out, /-> #1 POST \/hooks event=onStart id=lc-50-onStart attempt=1 sig=valid/, 10_000);
    await waitForOutput(child, out, /<- #1 200 answered/, 10_000);
    const journal = JSON.parse((await send(url!, { method: 'GET', path: '/__admin/journal' })).body!) as {
      entries: Array<{ signature: { verdict: string } }>;
    };
    expect(journal.entries[0]!.signature.verdict).toBe('valid');
    // the inspector: its URL is printed, it knows the time scale, and it never carries the secret
    expect(out.text).toContain(`inspector: ${url}/__admin/ui`);
    const page = await send(url!, { method: 'GET', path: '/__admin/ui' });
    expect(page.status).toBe(200);
    const config = (await send(url!, { method: 'GET', path: '/__admin/ui/config' })).body!;
    expect(JSON.parse(config)).toMatchObject({ timeScale: 0.1, timeScaleKnown: true });
    expect(config).not.toContain('test-only-cli-secret');
    expect(out.text).not.toContain('test-only-cli-secret');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

function runCli(args: string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['cli/bin.mjs', 'mock-host', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
}

test('the mock-host command answers --help with 0 and a bad option with 2 and a message naming it', async () => {
  test.setTimeout(180_000);
  const [help, port, secret, scale] = await Promise.all([
    runCli(['--help']),
    runCli(['--port', 'abc']),
    runCli(['--hmac-secret-file', '/nonexistent-test-file']),
    runCli(['--time-scale', '0']),
  ]);
  expect(help.code).toBe(0);
  expect(help.text).toContain('--hook-path PATH');
  expect(port.code).toBe(2);
  expect(port.text).toContain('--port must be an integer >= 0, got "abc"');
  expect(secret.code).toBe(2);
  expect(secret.text).toContain('cannot read (ENOENT)');
  expect(scale.code).toBe(2);
  expect(scale.text).toContain('--time-scale must be a number > 0, got "0"');
});
