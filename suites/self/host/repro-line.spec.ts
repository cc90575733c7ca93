import { test, expect } from '@playwright/test';
import { reproductionFor, reproContextFromEnv } from '../../../reports/index.ts';

test('a failed host clause reruns with the host subcommand and the flags that chose the receiver', () => {
  const ctx = reproContextFromEnv({
    CCS_HOST_REPRO_ARGS: JSON.stringify(['--base-url', 'http://127.0.0.1:3000', '--signing', 'jwks']),
    CCS_SEED: '77',
  });
  expect(reproductionFor('HOST-24', [], ctx, 'host').command).toBe(
    'ccs-conformance host --grep HOST-24 --base-url http://127.0.0.1:3000 --signing jwks --seed 77',
  );
  expect(
    reproductionFor(
      'HOST-5',
      [],
      reproContextFromEnv({ CCS_HOST_REPRO_ARGS: '["--fault","stale-config-deleted"]' }),
      'host',
    ).command,
  ).toBe('ccs-conformance host --grep HOST-5 --fault stale-config-deleted');
});

test('a failed service clause still reruns with the run subcommand', () => {
  expect(reproductionFor('DELIV-4', [], { faults: ['x'] }, 'service').command).toBe(
    'ccs-conformance run --grep DELIV-4 --fault x',
  );
});
