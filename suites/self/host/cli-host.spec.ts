/** The host command as a user runs it: a child process (suites never import cli/). */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { tempDir } from '../cli/helpers.ts';

function host(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['cli/bin.mjs', 'host', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

test('ccs-conformance host exits 2 naming the bad field of a host target file', () => {
  test.setTimeout(90_000);
  const dir = tempDir('host-cli-');
  const file = join(dir, 'target.yaml');
  writeFileSync(
    file,
    'hostBaseUrl: http://127.0.0.1:3000\nhookPath: /h\nsigning: { mode: rsa }\ndataApi: { bearerToken: t }\n',
  );
  const r = host(['--target', file]);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain("'signing.mode'");
});

test('ccs-conformance host exits 2 naming an unknown field of a host target file', () => {
  test.setTimeout(90_000);
  const dir = tempDir('host-cli-');
  const file = join(dir, 'bad.yaml');
  writeFileSync(
    file,
    'hostBaseUrl: http://127.0.0.1:3000\nhookPath: /h\nsigning: { mode: none }\ndataApi: { bearerToken: t }\nfactPath: /facts\n',
  );
  const r = host(['--target', file]);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain("'factPath' unknown field");
});

test('ccs-conformance host exits 2 on an unknown fault, an unknown flag, or a fault with a target', () => {
  test.setTimeout(90_000);
  expect(host(['--fault', 'no-such-fault']).status).toBe(2);
  expect(host(['--frobnicate']).status).toBe(2);
  expect(host(['--target', 'x.yaml', '--fault', 'slow-ack']).status).toBe(2);
});
