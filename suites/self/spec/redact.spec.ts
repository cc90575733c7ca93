import { test, expect } from '@playwright/test';
import { REDACTED, Redactor, isSecretName, processRedactor, redactText, registerSecret } from '../../../spec/index.ts';

test('one placeholder for every layer: listed values, secret-named members and credential headers in text', () => {
  const r = new Redactor(['test-only-value-1234']);
  const out = r.value({
    sentence: 'sent test-only-value-1234',
    headers: {
      Authorization: 'Bearer abc',
      'X-Api-Key': 'k',
      cookie: 'sid=1',
      accept: 'json',
      'x-service-signature': 't=1,v1=ab',
    },
    target: { previousSecret: 'old-one', embedAuthorization: 'Bearer e', workspaceKey: 'ws-1' },
    curl: "curl -H 'Authorization: Bearer tok123' -H 'X-Api-Key: kkk' u",
  });
  const text = JSON.stringify(out);
  for (const s of ['test-only-value-1234', 'abc', 'sid=1', 'old-one', 'Bearer e', 'tok123', 'kkk'])
    expect(text).not.toContain(s);
  expect(text).not.toMatch(/<redacted|\*\*\*/);
  // A signature is no secret, and neither is a workspaceKey: both stay for the reader.
  expect(out).toMatchObject({
    headers: { accept: 'json', 'x-service-signature': 't=1,v1=ab', Authorization: REDACTED },
    target: { workspaceKey: 'ws-1' },
  });
});

test('a curl line keeps its $CCS_* shell variables (no secret) and loses a literal credential', () => {
  const r = new Redactor();
  const withVariables = 'curl -H "Authorization: Bearer $CCS_AUTHORIZATION" -H "X-Api-Key: $CCS_X_API_KEY" u';
  expect(r.text(withVariables)).toBe(withVariables);
  expect(r.text("curl -H 'Authorization: Bearer live-token-xyz' u")).toBe(`curl -H 'Authorization: ${REDACTED}' u`);
});

test("the secret names cover target-file fields and headers alike, case-insensitively, plus a target's own API key header", () => {
  for (const n of ['hmacSecret', 'APIKEY', 'bearerToken', 'privateKey', 'authorization', 'X-Api-Key', 'previousSecret'])
    expect(isSecretName(n), n).toBe(true);
  for (const n of ['workspaceKey', 'serviceKey', 'x-service-signature', 'endUserHandle'])
    expect(isSecretName(n), n).toBe(false);
  expect(isSecretName('X-Custom-Key', ['x-custom-key'])).toBe(true);
});

test("a registered secret is scrubbed from the process's text; values too short to be secrets are ignored", () => {
  registerSecret('test-only-registered-5678');
  registerSecret('ab');
  expect(redactText('key=test-only-registered-5678; ab')).toBe(`key=${REDACTED}; ab`);
  expect(processRedactor.literal('test-only-registered-5678')).toBe(REDACTED);
});
