import { test, expect } from '@playwright/test';
import { loadSpec } from '../../../spec/index.ts';

const spec = () => loadSpec();
const example = (name: string, i = 0): Record<string, unknown> =>
  structuredClone(
    (spec().schema(name) as { examples: Record<string, unknown>[] }).examples[i] as Record<string, unknown>,
  );

const LIFECYCLE: Record<string, string> = {
  onStart: 'OnStartPayload',
  onComplete: 'OnCompletePayload',
  onSessionInterrupted: 'OnSessionInterruptedPayload',
  onSessionTimeout: 'OnSessionTimeoutPayload',
  'config.saved': 'ConfigSavedPayload',
  'config.deleted': 'ConfigDeletedPayload',
  'config.bulk_deleted': 'ConfigBulkDeletedPayload',
};

test.describe('payload schemas: positive and negative samples', () => {
  test('a valid onComplete payload validates', () => {
    expect(spec().validateWebhook('onComplete', example('OnCompletePayload'))).toEqual({ valid: true, errors: [] });
  });

  test('onComplete with zero serviceKeys fails (one or more keys)', () => {
    const r = spec().validateWebhook('onComplete', { ...example('OnCompletePayload'), serviceKeys: [] });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(['/serviceKeys must NOT have fewer than 1 items']);
  });

  test('a payload with a data or values member fails, for every lifecycle event', () => {
    for (const [event, schema] of Object.entries(LIFECYCLE)) {
      for (const member of ['data', 'values']) {
        const r = spec().validateWebhook(event, { ...example(schema), [member]: { street: '1 Main St' } });
        expect(r.errors, `${event} ${member}`).toEqual([`(root) must NOT have additional properties: ${member}`]);
      }
    }
  });

  test('a timestamp with Z, with an offset or without three fractional digits fails', () => {
    for (const ts of [
      '2026-03-01T12:31:02.004Z',
      '2026-03-01T12:31:02.004+01:00',
      '2026-03-01T12:31:02',
      '2026-03-01T12:31:02.04',
      '2026-03-01T12:31:02.0040',
      '2026-03-01 12:31:02.004',
    ]) {
      const r = spec().validateWebhook('onComplete', { ...example('OnCompletePayload'), timestamp: ts });
      expect(r.valid, ts).toBe(false);
      expect(r.errors[0], ts).toMatch(/^\/timestamp must match pattern/);
    }
  });

  test('a bulk page with 501 keys fails, 500 keys validate', () => {
    const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `rec-${i}`);
    const page = { ...example('ConfigBulkDeletedPayload'), count: 501, totalPages: 2 };
    expect(spec().validateWebhook('config.bulk_deleted', { ...page, keys: keys(500) }).valid).toBe(true);
    expect(spec().validateWebhook('config.bulk_deleted', { ...page, keys: keys(501) }).errors).toEqual([
      '/keys must NOT have more than 500 items',
    ]);
  });

  test('configEnd without its leading slash fails', () => {
    expect(spec().validateWebhook('onStart', { ...example('OnStartPayload'), configEnd: 'profile' }).errors[0]).toMatch(
      /^\/configEnd must match pattern/,
    );
  });

  test('endUserHandle: 255 characters validate, 256 or an org- handle fail', () => {
    const base = example('OnStartPayload');
    expect(spec().validateWebhook('onStart', { ...base, endUserHandle: 'u'.repeat(255) }).valid).toBe(true);
    expect(spec().validateWebhook('onStart', { ...base, endUserHandle: 'u'.repeat(256) }).valid).toBe(false);
    expect(spec().validateWebhook('onStart', { ...base, endUserHandle: 'org-acme' }).errors).toEqual([
      '/endUserHandle must NOT be valid',
    ]);
  });

  test('eventType in place of event fails; serviceKeys is empty on onStart; conversationId is an integer', () => {
    const { event, ...rest } = example('OnStartPayload');
    expect(spec().validateWebhook('onStart', { ...rest, eventType: event }).valid).toBe(false);
    expect(spec().validateWebhook('onStart', { ...example('OnStartPayload'), serviceKeys: ['rec-1'] }).valid).toBe(
      false,
    );
    expect(spec().validateWebhook('onStart', { ...example('OnStartPayload'), conversationId: '1001' }).valid).toBe(
      false,
    );
  });

  test('config.deleted carries a singular serviceKey, never serviceKeys', () => {
    expect(
      spec().validateWebhook('config.deleted', { ...example('ConfigDeletedPayload'), serviceKeys: ['rec-7f3a'] }).valid,
    ).toBe(false);
    const { serviceKey: _drop, ...rest } = example('ConfigDeletedPayload');
    expect(spec().validateWebhook('config.deleted', rest).errors).toEqual([
      "(root) must have required property 'serviceKey'",
    ]);
  });

  test('config.saved carries callbackStatus PENDING or DELIVERED only', () => {
    expect(
      spec().validateWebhook('config.saved', { ...example('ConfigSavedPayload'), callbackStatus: 'DELIVERED' }).valid,
    ).toBe(true);
    expect(
      spec().validateWebhook('config.saved', { ...example('ConfigSavedPayload'), callbackStatus: 'DONE' }).valid,
    ).toBe(false);
  });

  test('LifecyclePayload accepts every event example and rejects an unknown event', () => {
    for (const schema of Object.values(LIFECYCLE))
      expect(spec().validateSchema('LifecyclePayload', example(schema)).valid, schema).toBe(true);
    expect(spec().validateSchema('LifecyclePayload', { ...example('OnStartPayload'), event: 'onFinish' }).valid).toBe(
      false,
    );
  });

  test('callback headers: both signature formats validate, a malformed one or a wrong delivery id fails', () => {
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'x-service-event': 'onComplete',
      'x-service-delivery-id': 'lc-1001-onComplete',
      'x-service-delivery-attempt': '2',
    };
    const hmac = `t=1767225600,v1=${'ab'.repeat(32)}`;
    const jws = 'eyJhbGciOiJFUzI1NiJ9.MTc2NzIyNTYwMC57fQ.c2ln';
    expect(spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-signature': hmac })).toEqual({
      valid: true,
      errors: [],
    });
    expect(spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-signature': jws })).toEqual({
      valid: true,
      errors: [],
    });
    expect(spec().validateWebhookHeaders('onComplete', headers).valid).toBe(true);
    expect(
      spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-signature': `t=1,v1=${'AB'.repeat(32)}` })
        .valid,
    ).toBe(false);
    expect(
      spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-delivery-id': 'lc-1001-onStart' }).valid,
    ).toBe(false);
    expect(spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-event': 'onStart' }).valid).toBe(false);
    expect(spec().validateWebhookHeaders('onComplete', { ...headers, 'x-service-delivery-attempt': '4' }).valid).toBe(
      false,
    );
    expect(spec().validateWebhookHeaders('onComplete', { ...headers, 'content-type': 'text/plain' }).errors).toEqual([
      'header Content-Type must be application/json, got "text/plain"',
    ]);
  });

  test('header errors never echo the header value (a signature may carry secret material)', () => {
    const secretish = 'v1=deadbeef-super-secret-value';
    const r = spec().validateWebhookHeaders('onStart', {
      'content-type': 'application/json',
      'x-service-event': 'onStart',
      'x-service-delivery-id': 'lc-1-onStart',
      'x-service-signature': secretish,
    });
    expect(r.valid).toBe(false);
    expect(r.errors.join('\n')).not.toContain('super-secret');
  });

  test('the user-facts answer is a flat JSON object; a list, a scalar or language codes fail', () => {
    expect(
      spec().validateWebhook('user.facts.fetch', {
        preferredLanguages: ['Brazilian Portuguese', 'English'],
        plan: 'gold',
      }).valid,
    ).toBe(true);
    expect(spec().validateWebhook('user.facts.fetch', [{ plan: 'gold' }]).valid).toBe(false);
    expect(spec().validateWebhook('user.facts.fetch', 'gold').valid).toBe(false);
    expect(spec().validateWebhook('user.facts.fetch', { preferredLanguages: ['pt-BR'] }).valid).toBe(false);
    const h = {
      accept: 'application/json',
      'x-service-event': 'user.facts.fetch',
      'x-service-workspace': 'ws-acme',
      'x-service-end-user': 'user-42',
      'x-service-delivery-id': 'uf-17-user-42',
    };
    expect(spec().validateWebhookHeaders('user.facts.fetch', h)).toEqual({ valid: true, errors: [] });
    expect(
      spec().validateWebhookHeaders('user.facts.fetch', { ...h, 'x-service-delivery-id': 'lc-17-user-42' }).valid,
    ).toBe(false);
    expect(spec().validateWebhookHeaders('user.facts.fetch', { ...h, accept: 'text/html' }).valid).toBe(false);
  });

  test('embed-tokens body: configEnd, nested data values or an org- handle fail; a flat openingContext validates', () => {
    expect(spec().validateRequestBody('createEmbedToken', example('EmbedTokenRequest', 1)).valid).toBe(true);
    expect(
      spec().validateRequestBody('createEmbedToken', { endUserHandle: 'u', configEnd: '/profile' }).errors,
    ).toEqual(['(root) must NOT have additional properties: configEnd']);
    expect(
      spec().validateRequestBody('createEmbedToken', {
        endUserHandle: 'u',
        openingContext: { data: { address: { city: 'Lyon' } } },
      }).valid,
    ).toBe(false);
    expect(
      spec().validateRequestBody('createEmbedToken', { endUserHandle: 'u', openingContext: { data: { tags: ['a'] } } })
        .valid,
    ).toBe(false);
    expect(spec().validateRequestBody('createEmbedToken', { endUserHandle: 'org-x' }).valid).toBe(false);
    expect(spec().validateRequestBody('createEmbedToken', {}).errors).toEqual([
      "(root) must have required property 'endUserHandle'",
    ]);
  });

  test('the record envelope: data may be null, completedAt may not; callbackStatus is PENDING or DELIVERED', () => {
    const env = example('RecordEnvelope');
    expect(spec().validateResponse('getRecord', 200, env).valid).toBe(true);
    expect(spec().validateResponse('getRecord', 200, { ...env, data: null }).valid).toBe(true);
    expect(spec().validateResponse('getRecord', 200, { ...env, completedAt: null }).valid).toBe(false);
    expect(spec().validateResponse('getRecord', 200, { ...env, callbackStatus: 'DONE' }).valid).toBe(false);
    expect(spec().validateResponse('getRecord', 200, { ...env, errors: { city: 3 } }).valid).toBe(false);
    expect(spec().validateResponse('listRecords', 200, [env, env]).valid).toBe(true);
    expect(spec().validateResponse('listRecords', 200, env).valid).toBe(true);
    expect(spec().validateResponse('listRecords', 200, { items: [env] }).valid).toBe(false);
  });

  test('error bodies: the framework default has no message and no code; the two 409 bodies validate', () => {
    const err = example('ErrorBody');
    expect(spec().validateResponse('getRecord', 404, err).valid).toBe(true);
    expect(spec().validateResponse('getRecord', 404, { ...err, message: 'no record' }).errors).toEqual([
      '(root) must NOT have additional properties: message',
    ]);
    expect(spec().validateResponse('getRecord', 404, { ...err, code: 'NOT_FOUND' }).valid).toBe(false);
    expect(spec().validateResponse('getRecord', 404, { ...err, status: '404' }).valid).toBe(false);
    expect(spec().validateResponse('writeRecord', 409, example('IdentityConflictBody')).valid).toBe(true);
    expect(spec().validateResponse('writeRecord', 409, example('MigratingConflictBody')).valid).toBe(true);
    expect(spec().validateResponse('getRecord', 409, example('MigratingConflictBody')).valid).toBe(true);
    expect(spec().validateResponse('getRecord', 409, example('IdentityConflictBody')).valid).toBe(false);
    expect(spec().validateResponse('writeRecord', 409, { code: 'CONFLICT' }).valid).toBe(false);
  });
});
