/**
 * Day-one mistakes that the preflight catches before any test: nothing listening at the receiver or
 * the service, a wrong driver URL, a mock host public URL the service cannot reach, the harness's own
 * port taken. Each run is the real CLI in a child process and must exit 2 within seconds with one line
 * naming the field to fix, in summary.md too, and no verdict of any clause.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { cli, tempDir, type CliResult } from './helpers.ts';
import { closedPort, answeringServer, startReferenceChild, type Live } from './live.ts';

test.describe.configure({ timeout: 90_000 });

/** The preflight's bound on a dead target: a run where nothing listens ends within 10 s, never waits out a test. */
const DEAD_TARGET_MS = 10_000;

type Timed = CliResult & { ms: number; dir: string };

async function timed(args: string[], extra: Record<string, string> = {}): Promise<Timed> {
  const dir = tempDir('ccs-preflight-');
  // A stale PASS from an earlier run in the same folder must not survive as this run's verdict.
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify({ verdict: 'pass' }));
  const started = performance.now();
  const r = await cli([...args, '--report-dir', dir], extra, 60_000);
  return { ...r, ms: Math.round(performance.now() - started), dir };
}

function expectPreflightExit(r: Timed, field: string, cause: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, r.stdout + r.stderr).toHaveLength(1);
  const line = lines[0]!;
  expect(line).toContain(field);
  expect(line).toMatch(cause);
  expect(line).toContain('no clause was run');
  expect(r.code).toBe(2);
  expect(r.ms, line).toBeLessThan(DEAD_TARGET_MS);
  const summary = readFileSync(join(r.dir, 'summary.md'), 'utf8');
  expect(summary).toContain(line);
  expect(existsSync(join(r.dir, 'conformance.json'))).toBe(false);
  const all = r.stdout + r.stderr + summary;
  expect(all).not.toMatch(/PASS/i);
  // No clause verdict: no clause id, no gate line, and Playwright never started.
  expect(all).not.toMatch(/\b[A-Z]+-\d+\b|conformance (PASS|FAIL)|^(error|warning): (MUST|SHOULD)/m);
  expect(r.stdout).not.toContain('Running');
}

function write(name: string, text: string): string {
  const file = join(tempDir('ccs-preflight-'), name);
  writeFileSync(file, text);
  return file;
}

function serviceTarget(name: string, baseUrl: string, driverUrl: string, publicUrl?: string): string {
  const mockHost = publicUrl ? `mockHost:\n  publicUrl: ${publicUrl}\n` : '';
  return write(name, `service:\n  baseUrl: ${baseUrl}\n  driverUrl: ${driverUrl}\n${mockHost}`);
}

function hostTarget(hostBaseUrl: string, extra = ''): string {
  const signing = 'signing: { mode: none }\ndataApi: { bearerToken: test-only-bearer-preflight }\n';
  return write('host.yaml', `hostBaseUrl: ${hostBaseUrl}\nhookPath: /hooks/ccs\nfactsPath: /facts\n${signing}${extra}`);
}

test('a host run where nothing listens at --base-url exits 2 in one line naming hostBaseUrl (--base-url)', async () => {
  const port = await closedPort();
  const flags = ['--hook-path', '/hooks', '--signing', 'none', '--bearer-token-env', 'PREFLIGHT_TEST_TOKEN'];
  const env = { PREFLIGHT_TEST_TOKEN: 'test-only-t' };
  const r = await timed(['host', '--base-url', `http://127.0.0.1:${port}`, ...flags], env);
  const cause = new RegExp(`http://127\\.0\\.0\\.1:${port}/hooks \\(ECONNREFUSED\\)`);
  expectPreflightExit(r, 'hostBaseUrl (--base-url)', cause);
});

test("a host target whose receiver is not running exits 2 in one line naming the file's hostBaseUrl", async () => {
  const file = hostTarget(`http://127.0.0.1:${await closedPort()}`);
  expectPreflightExit(await timed(['host', '--target', file]), `hostBaseUrl in ${file}`, /ECONNREFUSED/);
});

test('a host run whose servicePort is taken exits 2 in one line naming servicePort', async () => {
  const receiver = await answeringServer();
  const taken = await answeringServer();
  try {
    const file = hostTarget(receiver.url, `servicePort: ${taken.port}\n`);
    const r = await timed(['host', '--target', file]);
    expectPreflightExit(r, 'servicePort', new RegExp(`port ${taken.port} \\(EADDRINUSE\\).*--service-port`));
  } finally {
    await Promise.all([receiver.close(), taken.close()]);
  }
});

test('a service run where nothing listens at service.baseUrl exits 2 in one line naming service.baseUrl', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const file = serviceTarget('dead.yaml', url, `${url}/__driver`);
  expectPreflightExit(await timed(['run', '--target', file]), 'service.baseUrl in dead.yaml', /ECONNREFUSED/);
});

test('a driverUrl answering 404, a web page or nothing exits 2 in one line naming service.driverUrl', async () => {
  const service = await answeringServer();
  const page = await answeringServer(200, '<html>a web page</html>', 'text/html');
  try {
    const wrongPath = serviceTarget('wrong-path.yaml', service.url, `${service.url}/__drivr`);
    const other = serviceTarget('other-server.yaml', service.url, `${page.url}/__driver`);
    const refused = serviceTarget('refused.yaml', service.url, `http://127.0.0.1:${await closedPort()}/__driver`);
    const [a, b, c] = await Promise.all([wrongPath, other, refused].map((f) => timed(['run', '--target', f])));
    const notFound = /HTTP 404 to GET http:\/\/\S+\/__drivr\/capabilities/;
    expectPreflightExit(a!, 'service.driverUrl in wrong-path.yaml', notFound);
    expectPreflightExit(b!, 'service.driverUrl in other-server.yaml', /answered 200 but not the driver's capabilities/);
    expectPreflightExit(c!, 'service.driverUrl in refused.yaml', /ECONNREFUSED/);
  } finally {
    await Promise.all([service.close(), page.close()]);
  }
});

test.describe('against the reference service started as a user starts it', () => {
  let reference: Live | undefined;
  test.beforeAll(async () => {
    reference = await startReferenceChild(0.1);
  });
  test.afterAll(async () => {
    await reference?.close();
  });

  test('a mock host public URL the service cannot reach exits 2 in one line naming mockHost.publicUrl', async () => {
    const port = await closedPort();
    const url = reference!.url;
    const file = serviceTarget('unreachable.yaml', url, `${url}/__driver`, `http://127.0.0.1:${port}`);
    const r = await timed(['run', '--target', file]);
    const cause = new RegExp(`no request from the service reached .*127\\.0\\.0\\.1:${port}`);
    expectPreflightExit(r, 'mockHost.publicUrl in unreachable.yaml', cause);
  });

  test('a target that answers passes the preflight in one line and the run goes on to its verdict', async () => {
    const url = reference!.url;
    const file = serviceTarget('live.yaml', url, `${url}/__driver`, 'http://127.0.0.1:{port}');
    const r = await timed(['run', '--target', file, '--reporter', 'dot']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^preflight: service\.baseUrl answers \(\d+ in \d+ ms\); driver capabilities answer/m);
    expect(r.stdout).toMatch(/^preflight: .*; the service reaches mockHost\.publicUrl http:\/\/127\.0\.0\.1:\d+\//m);
    expect(r.stdout).toContain('conformance PASS');
  });
});
