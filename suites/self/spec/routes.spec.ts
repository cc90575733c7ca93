import { test, expect } from '@playwright/test';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec } from '../../../spec/index.ts';

const ROUTES: Array<[string, string, string]> = [
  ['createEmbedToken', 'POST', '/api/{workspaceKey}/embed-tokens'],
  ['uploadSources', 'POST', '/api/{workspaceKey}/upload'],
  ['getUploadStatus', 'GET', '/api/{workspaceKey}/upload/status/{id}'],
  ['listRecords', 'GET', '/api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}'],
  ['getRecord', 'GET', '/api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}/{serviceKey}'],
  ['writeRecord', 'POST', '/api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}'],
  ['putRecordNotAllowed', 'PUT', '/api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}'],
  ['putRecordByKeyNotAllowed', 'PUT', '/api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}/{serviceKey}'],
  ['getJwks', 'GET', '/.well-known/service/jwks.json'],
];

const LIFECYCLE = [
  'onStart',
  'onComplete',
  'onSessionInterrupted',
  'onSessionTimeout',
  'config.saved',
  'config.deleted',
  'config.bulk_deleted',
];
const PAYLOAD: Record<string, string> = {
  onStart: 'OnStartPayload',
  onComplete: 'OnCompletePayload',
  onSessionInterrupted: 'OnSessionInterruptedPayload',
  onSessionTimeout: 'OnSessionTimeoutPayload',
  'config.saved': 'ConfigSavedPayload',
  'config.deleted': 'ConfigDeletedPayload',
  'config.bulk_deleted': 'ConfigBulkDeletedPayload',
};

test.describe('routes and webhooks of spec/openapi.yaml', () => {
  test('every service route of section 4.2 is there with its operationId', () => {
    const spec = loadSpec();
    for (const [id, method, path] of ROUTES) expect(spec.operation(id), id).toMatchObject({ method, path });
  });

  test('every route documents 403, 500 and 503 (section 7, "Any")', () => {
    const spec = loadSpec();
    for (const [id] of ROUTES) expect(spec.documentedStatuses(id), id).toEqual(expect.arrayContaining([403, 500, 503]));
  });

  test('each route documents the error statuses of section 7', () => {
    const spec = loadSpec();
    expect(spec.documentedStatuses('createEmbedToken')).toEqual(expect.arrayContaining([400, 401]));
    expect(spec.documentedStatuses('uploadSources')).toEqual(expect.arrayContaining([400, 401, 413]));
    expect(spec.documentedStatuses('getUploadStatus')).toEqual(expect.arrayContaining([401, 404]));
    for (const id of ['listRecords', 'getRecord', 'writeRecord']) {
      expect(spec.documentedStatuses(id), id).toEqual(expect.arrayContaining([400, 401, 404, 409]));
    }
    expect(spec.documentedStatuses('putRecordNotAllowed')).toContain(405);
    expect(spec.documentedStatuses('putRecordByKeyNotAllowed')).toContain(405);
  });

  test('the data API uses Bearer, upload an API key, embed-tokens the Authorization header', () => {
    const spec = loadSpec();
    const schemes = (id: string): string[] =>
      (spec.operation(id).operation.security ?? []).flatMap((s) => Object.keys(s));
    for (const id of ['listRecords', 'getRecord', 'writeRecord', 'putRecordNotAllowed'])
      expect(schemes(id), id).toEqual(['Bearer']);
    expect(schemes('uploadSources')).toEqual(['ApiKey']);
    expect(schemes('getUploadStatus')).toEqual(['ApiKey']);
    expect(schemes('createEmbedToken')).toEqual(['EmbedAuthorization']);
    const all = spec.openapi.components?.securitySchemes as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
    expect(all.Bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(all.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
      'x-clauses': expect.arrayContaining(['UNSPEC-19']),
    });
    expect(all.EmbedAuthorization).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  test('each of the seven lifecycle events of sections 2.2 and 6 has a webhook with its closed payload schema', () => {
    const spec = loadSpec();
    const hooks = spec.openapi.webhooks as Record<string, OpenAPIV3_1.PathItemObject>;
    for (const event of LIFECYCLE) {
      const post = hooks[event]?.post;
      expect(post, event).toBeDefined();
      const body = post?.requestBody as OpenAPIV3_1.RequestBodyObject;
      expect(body.content['application/json']?.schema, event).toEqual({
        $ref: `#/components/schemas/${PAYLOAD[event]}`,
      });
      const schema = spec.schema(PAYLOAD[event] as string) as Record<string, unknown>;
      expect(schema.additionalProperties, event).toBe(false);
      expect((schema.properties as Record<string, { const?: string }>).event?.const, event).toBe(event);
    }
    expect(Object.keys(hooks).sort()).toEqual([...LIFECYCLE, 'tool.dispatch', 'user.facts.fetch'].sort());
  });

  test('the delivery-attempt header is declared on onComplete only and forbidden elsewhere', () => {
    const spec = loadSpec();
    for (const event of LIFECYCLE) {
      const base = {
        'Content-Type': 'application/json',
        'X-Service-Event': event,
        'X-Service-Delivery-Id': `lc-7-${event}`,
      };
      const withAttempt = spec.validateWebhookHeaders(event, { ...base, 'X-Service-Delivery-Attempt': '1' });
      const without = spec.validateWebhookHeaders(event, base);
      if (event === 'onComplete') {
        expect(withAttempt).toEqual({ valid: true, errors: [] });
        expect(without.errors).toEqual(['header X-Service-Delivery-Attempt is required']);
      } else {
        expect(without, event).toEqual({ valid: true, errors: [] });
        expect(withAttempt.errors, event).toEqual([`header X-Service-Delivery-Attempt must not be sent on ${event}`]);
      }
    }
  });

  test('the onComplete webhook carries the retry policy, every callback the 5 s / 10 s timeouts', () => {
    const spec = loadSpec();
    const hooks = spec.openapi.webhooks as Record<string, Record<string, Record<string, unknown>>>;
    expect(hooks.onComplete?.post?.['x-retry-policy']).toMatchObject({
      maxAttempts: 3,
      backoffSeconds: [5, 20],
      retryOn: ['timeout', '5xx', 'connect-failure'],
    });
    for (const event of LIFECYCLE) {
      expect(hooks[event]?.post?.['x-timeouts'], event).toMatchObject({ connectSeconds: 5, requestSeconds: 10 });
      if (event !== 'onComplete')
        expect(hooks[event]?.post?.['x-retry-policy'], event).toMatchObject({ maxAttempts: 1 });
    }
    expect(hooks['user.facts.fetch']?.get?.['x-facts-fetch']).toMatchObject({
      timeoutSeconds: 10,
      cacheSeconds: 86400,
    });
    const sig = spec.resolveRef('#/components/parameters/Signature') as Record<string, unknown>;
    expect(sig['x-replay-window-seconds']).toBe(300);
    expect((spec.schema('OpeningContext') as Record<string, unknown>)['x-serialized-max-chars']).toBe(16384);
  });

  test('what the contract marks "not shown" stays open: the embed-tokens, upload and upload-status bodies accept anything', () => {
    const spec = loadSpec();
    for (const id of ['createEmbedToken', 'uploadSources', 'getUploadStatus', 'writeRecord']) {
      for (const body of ['a token', { token: 'x' }, [1, 2], null, 42]) {
        expect(spec.validateResponse(id, 200, body), id).toEqual({ valid: true, errors: [] });
        expect(spec.validateResponse(id, 201, body), id).toEqual({ valid: true, errors: [] });
      }
    }
    expect(spec.validateWebhook('tool.dispatch', { anything: [1, { nested: true }] }).valid).toBe(true);
    expect(
      spec.validateSchema('RecordEnvelope', {
        ...(spec.schema('RecordEnvelope') as { examples: object[] }).examples[0],
        revision: 4,
      }).valid,
    ).toBe(true);
  });
});
