import { test, expect } from '@playwright/test';
import { isCcsError } from '../../../spec/index.ts';
import { classToSchema, loadHostTarget, parseHostTarget } from '../../host/index.ts';

const good = {
  hostBaseUrl: 'http://127.0.0.1:3000',
  hookPath: '/hooks/ccs',
  signing: { mode: 'hmac', secretEnv: 'X_SECRET' },
  dataApi: { bearerTokenEnv: 'X_TOKEN' },
};
const env = { X_SECRET: 'secret-test-only', X_TOKEN: 'token-test-only' };

function fieldOf(value: unknown, e: NodeJS.ProcessEnv = env): string | undefined {
  try {
    parseHostTarget(value, e);
  } catch (error) {
    if (isCcsError(error, 'TARGET_FIELD_INVALID')) {
      // Secrets never reach an error message.
      expect(error.message).not.toContain('secret-test-only');
      return String(error.details?.field);
    }
    throw error;
  }
  return undefined;
}

test('a valid host target file loads with the contract defaults', () => {
  const t = parseHostTarget(good, env);
  expect(t.signing).toEqual({ mode: 'hmac', secret: 'secret-test-only' });
  expect(t.timeouts).toEqual({ requestMs: 10_000, dataReadMs: 10_000, noRetryWindowMs: 11_000 });
  expect(t.configEnd).toBe('/settings');
});

test('a host target error names the bad field (TARGET_FIELD_INVALID)', () => {
  expect(fieldOf({ ...good, hostBaseUrl: 'not a url' })).toBe('hostBaseUrl');
  expect(fieldOf({ ...good, hookPath: 'hooks' })).toBe('hookPath');
  expect(fieldOf({ ...good, signing: { mode: 'rsa' } })).toBe('signing.mode');
  expect(fieldOf({ ...good, signing: { mode: 'hmac' } })).toBe('signing.secret');
  expect(fieldOf(good, {})).toBe('signing.secretEnv');
  expect(fieldOf({ ...good, dataApi: {} })).toBe('dataApi.bearerToken');
  expect(fieldOf({ ...good, timeouts: { dataReadMs: -1 } })).toBe('timeouts.dataReadMs');
  expect(fieldOf({ ...good, factsClass: { fields: [{ name: 'a', type: 'money' }] } })).toBe(
    'factsClass.fields[0].type',
  );
  expect(fieldOf({ ...good, endUserHandle: 'org-acme' })).toBe('endUserHandle');
});

test('a FACTS class definition compiles to a closed schema of its field types (HOST-15 reading)', () => {
  const s = classToSchema(
    {
      fields: [
        { name: 'langs', type: 'string[]' },
        { name: 'age', type: 'integer' },
      ],
    },
    'factsClass',
  );
  expect(s).toEqual({
    type: 'object',
    additionalProperties: false,
    properties: {
      langs: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      age: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    },
  });
});

test('an unknown field of the host target file is refused, named with its path (TARGET_FIELD_INVALID)', () => {
  expect(fieldOf({ ...good, hookpath: '/typo' })).toBe('hookpath');
  expect(fieldOf({ ...good, signing: { mode: 'jwks', secret: 'x' } })).toBe('signing.secret');
  expect(fieldOf({ ...good, timeouts: { requestMS: 5 } })).toBe('timeouts.requestMS');
  expect(fieldOf({ ...good, factsClass: { fields: [{ name: 'a', type: 'string', note: 'x' }] } })).toBe(
    'factsClass.fields[0].note',
  );
});

test('host target secrets may be written as { env: NAME }, as in the service target file; an unset one is named', () => {
  const t = parseHostTarget(
    {
      ...good,
      signing: { mode: 'hmac', secret: { env: 'X_SECRET' }, previousSecret: 'inline-test-only' },
      dataApi: { bearerToken: { env: 'X_TOKEN' } },
    },
    env,
  );
  expect(t.signing).toEqual({ mode: 'hmac', secret: 'secret-test-only', previousSecret: 'inline-test-only' });
  expect(t.bearerToken).toBe('token-test-only');
  expect(fieldOf({ ...good, dataApi: { bearerToken: { env: 'X_UNSET' } } })).toBe('dataApi.bearerToken.env');
  expect(fieldOf({ ...good, dataApi: { bearerToken: { env: '1-not-a-name' } } })).toBe('dataApi.bearerToken.env');
  expect(fieldOf({ ...good, dataApi: { bearerToken: 5 } })).toBe('dataApi.bearerToken');
});

test('the example host target files validate', () => {
  const e = {
    CCS_HOST_SECRET: 'secret-test-only',
    CCS_HOST_PREVIOUS_SECRET: 'previous-test-only',
    CCS_HOST_BEARER_TOKEN: 'token-test-only',
  };
  expect(loadHostTarget('fixtures/targets/host-hmac.yaml', e).signing).toEqual({
    mode: 'hmac',
    secret: 'secret-test-only',
    previousSecret: 'previous-test-only',
  });
  expect(loadHostTarget('fixtures/targets/host-jwks.yaml', e).signing).toEqual({ mode: 'jwks' });
});

test('a sandbox workspace is optional: an sb- key of its own, its own secret in hmac mode only (2.1, 5.2)', () => {
  expect(parseHostTarget(good, env).sandbox).toBeUndefined();
  const sandbox = { workspaceKey: 'sb-test', secretEnv: 'X_SANDBOX' };
  const e = { ...env, X_SANDBOX: 'sandbox-secret-test-only' };
  expect(parseHostTarget({ ...good, sandbox }, e).sandbox).toEqual({
    workspaceKey: 'sb-test',
    secret: 'sandbox-secret-test-only',
  });
  const jwks = { ...good, signing: { mode: 'jwks' }, sandbox: { workspaceKey: 'sb-test' } };
  expect(parseHostTarget(jwks, env).sandbox).toEqual({ workspaceKey: 'sb-test' });
  expect(fieldOf({ ...good, sandbox: { workspaceKey: 'sb-test' } })).toBe('sandbox.secret');
  expect(fieldOf({ ...good, sandbox: { ...sandbox, workspaceKey: 'ws-test' } }, e)).toBe('sandbox.workspaceKey');
  const same = { ...good, workspaceKey: 'sb-test', sandbox };
  expect(fieldOf(same, e)).toBe('sandbox.workspaceKey');
});
