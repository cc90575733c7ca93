/**
 * The target file loader: YAML and JSON validated against target.schema.json, each problem a
 * TARGET_FIELD_INVALID naming the file and the field, secrets read from the environment without
 * ever appearing in a message, and the timing derived from the target's scale and tolerances.
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTargetFile, validateTargetDocument, readWorkspace, readSecret } from '../../../target/service/load.ts';
import { resolveTarget } from '../../../target/service/resolve.ts';
import { makeTiming } from '../../../target/service/timing.ts';
import { CcsError } from '../../../spec/errors.ts';
import { tempDir } from '../cli/helpers.ts';
import type { CcsErrorCode } from '../../../spec/index.ts';

function errorOf(fn: () => unknown): CcsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CcsError) return e;
    throw e;
  }
  throw new Error('no error was thrown');
}

test('the example target files validate', () => {
  expect(loadTargetFile('fixtures/targets/reference.example.yaml').service.driverUrl).toMatch(/__driver$/);
  expect(loadTargetFile('fixtures/targets/fixed-workspaces.example.yaml').workspaces?.production.workspaceKey).toBe(
    'ws-conformance',
  );
});

test('a relative baseUrl is refused with a message naming the file and the field', () => {
  const e = errorOf(() => loadTargetFile('fixtures/targets/bad-base-url.example.yaml'));
  expect(e.code).toBe('TARGET_FIELD_INVALID' satisfies CcsErrorCode);
  expect(e.message).toBe('bad-base-url.example.yaml: service.baseUrl: must be an absolute http(s) URL');
});

test('each kind of bad field is named in the message', () => {
  const cases: Array<[unknown, string]> = [
    [{}, 't.yaml: service: is required'],
    [{ service: { baseUrl: 'http://x', extra: 1 } }, 't.yaml: service.extra: unknown field (not in the target schema)'],
    [
      { service: { baseUrl: 'http://x', driverUrl: 'ftp://x' } },
      't.yaml: service.driverUrl: must be an absolute http(s) URL',
    ],
    [{ service: { baseUrl: 'http://x' }, timing: { timeScale: 0 } }, 't.yaml: timing.timeScale: must be > 0'],
    [
      { service: { baseUrl: 'http://x' }, limits: { megabyte: 1000 } },
      't.yaml: limits.megabyte: must be one of [1000000,1048576]',
    ],
    [
      {
        service: { baseUrl: 'http://x' },
        workspaces: { production: { workspaceKey: 'w', apiKey: 5, bearerToken: 'b' } },
      },
      't.yaml: workspaces.production.apiKey: must be a non-empty string or { env: NAME }',
    ],
    [{ service: { baseUrl: 'http://x' }, mockHost: { port: 70000 } }, 't.yaml: mockHost.port: must be <= 65535'],
  ];
  for (const [doc, message] of cases) {
    const e = errorOf(() => validateTargetDocument(doc, 't.yaml'));
    expect(e.code).toBe('TARGET_FIELD_INVALID' satisfies CcsErrorCode);
    expect(e.message).toBe(message);
  }
});

test('a JSON target file is read like YAML', () => {
  const dir = tempDir('ccs-target-');
  const p = join(dir, 'target.json');
  writeFileSync(p, JSON.stringify({ service: { baseUrl: 'http://127.0.0.1:1' }, timing: { timeScale: 0.5 } }));
  expect(loadTargetFile(p).timing?.timeScale).toBe(0.5);
  writeFileSync(p, '{ "service": ');
  expect(errorOf(() => loadTargetFile(p)).code).toBe('TARGET_FILE_UNPARSEABLE' satisfies CcsErrorCode);
  expect(errorOf(() => loadTargetFile(join(dir, 'missing.yaml'))).code).toBe(
    'TARGET_FILE_UNREADABLE' satisfies CcsErrorCode,
  );
});

test('secrets come from the environment variables the file names; an unset one is named, never a value', () => {
  const env = { CCS_PROD_API_KEY: 'test-only-key-123456', CCS_PROD_BEARER: 'test-only-bearer-123456' };
  const w = readWorkspace(
    { workspaceKey: 'w', apiKey: { env: 'CCS_PROD_API_KEY' }, bearerToken: { env: 'CCS_PROD_BEARER' } },
    'workspaces.production',
    't.yaml',
    env,
  );
  expect(w.apiKey).toBe('test-only-key-123456');
  expect(w.embedAuthorization).toBe('Bearer test-only-bearer-123456');
  const e = errorOf(() => readSecret({ env: 'CCS_UNSET_SECRET' }, 'workspaces.production.apiKey', 't.yaml', {}));
  expect(e.message).toBe('t.yaml: workspaces.production.apiKey: environment variable CCS_UNSET_SECRET is not set');
});

test('a target without a driver must list its workspaces', async () => {
  const dir = tempDir('ccs-target-');
  const p = join(dir, 'nodriver.yaml');
  writeFileSync(p, 'service:\n  baseUrl: http://127.0.0.1:9\n');
  await expect(resolveTarget({ env: { CCS_TARGET: p } })).rejects.toThrow(
    'nodriver.yaml: workspaces: is required when service.driverUrl is absent',
  );
});

test('CCS_TIME_SCALE outside (0, 1] is refused with its value', async () => {
  await expect(resolveTarget({ env: { CCS_TIME_SCALE: '5' } })).rejects.toThrow(
    'CCS_TIME_SCALE: must be a number in (0, 1], got "5"',
  );
});

test('timing scales the contract durations and takes explicit tolerances from the target', () => {
  const t = makeTiming(0.1, { minMs: 250, relative: 0.25 });
  expect(t.scaled(5_000)).toBe(500);
  expect(t.tolerance(20_000)).toBe(500); // 25% of 2000 ms
  expect(t.tolerance(1_000)).toBe(400); // the loaded-machine floor beats 25 ms (250 ms scaled) and 25 ms
  expect(t.deliveryDeadlineMs()).toBe(1_500 + 2_000);
  expect(t.quietWindowMs()).toBe(t.deliveryDeadlineMs());
  const real = makeTiming(1, { minMs: 250, relative: 0.25 });
  expect(real.tolerance(5_000)).toBe(1_250);
  expect(real.retryScheduleDeadlineMs()).toBeGreaterThan(55_000);
});

test('a missing callback waits longer only on a loaded machine: 10 x the lag, one delivery deadline a time, three in all', () => {
  const t = makeTiming(0.1, { minMs: 250, relative: 0.25 });
  expect(t.loadExtensionMs(99, 0)).toBe(0); // the service answered at once: the miss is its own
  expect(t.loadExtensionMs(150, 0)).toBe(2_000); // at least the fixed slack
  expect(t.loadExtensionMs(300, 0)).toBe(3_000);
  expect(t.loadExtensionMs(5_000, 0)).toBe(3_500); // one delivery deadline a time
  expect(t.loadExtensionMs(5_000, 9_000)).toBe(1_500); // three in all
  expect(t.loadExtensionMs(5_000, 10_500)).toBe(0);
});
