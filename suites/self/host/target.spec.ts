import { test, expect } from '@playwright/test';
import { isCcsError } from '../../../spec/index.ts';
import { classToSchema, parseHostTarget } from '../../host/index.ts';

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
  expect(t.timeouts).toEqual({ requestMs: 10_000, dataReadMs: 10_000, noRetryWindowMs: 5_000 });
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
  expect(fieldOf({ ...good, factsClass: { fields: [{ name: 'a', type: 'money' }] } })).toBe('factsClass.fields[0].type');
  expect(fieldOf({ ...good, endUserHandle: 'org-acme' })).toBe('endUserHandle');
});

test('a FACTS class definition compiles to a closed schema of its field types (HOST-15 reading)', () => {
  const s = classToSchema({ fields: [{ name: 'langs', type: 'string[]' }, { name: 'age', type: 'integer' }] }, 'factsClass');
  expect(s).toEqual({
    type: 'object',
    additionalProperties: false,
    properties: {
      langs: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      age: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    },
  });
});
