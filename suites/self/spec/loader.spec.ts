import { isAbsolute } from 'node:path';
import { existsSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { CLAUSE_ID, LEVELS, SIDES, isCcsError, loadSpec, specPath, type CcsErrorCode } from '../../../spec/index.ts';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return isCcsError(err) ? err.code : `not a CcsError: ${String(err)}`;
  }
  return undefined;
};

test.describe('the spec loader', () => {
  test('loadSpec loads once and hands out the same compiled spec', () => {
    const a = loadSpec();
    expect(loadSpec()).toBe(a);
    expect(a.openapi.openapi).toMatch(/^3\.1\./);
    expect(a.clauses.length).toBeGreaterThan(0);
    expect(a.driver === undefined).toBe(!existsSync(specPath('driver.openapi.yaml')));
  });

  test('specPath is absolute and points into spec/', () => {
    expect(isAbsolute(specPath('openapi.yaml'))).toBe(true);
    expect(existsSync(specPath('openapi.yaml'))).toBe(true);
  });

  test('unknown names fail with stable codes', () => {
    const spec = loadSpec();
    expect(codeOf(() => spec.validateResponse('noSuchOperation', 200, {}))).toBe(
      'SPEC_OPERATION_UNKNOWN' satisfies CcsErrorCode,
    );
    expect(codeOf(() => spec.operation('noSuchOperation'))).toBe('SPEC_OPERATION_UNKNOWN' satisfies CcsErrorCode);
    expect(codeOf(() => spec.documentedStatuses('noSuchOperation'))).toBe(
      'SPEC_OPERATION_UNKNOWN' satisfies CcsErrorCode,
    );
    expect(codeOf(() => spec.validateWebhook('onFinish', {}))).toBe('SPEC_WEBHOOK_UNKNOWN' satisfies CcsErrorCode);
    expect(codeOf(() => spec.validateWebhookHeaders('onFinish', {}))).toBe(
      'SPEC_WEBHOOK_UNKNOWN' satisfies CcsErrorCode,
    );
    expect(codeOf(() => spec.validateSchema('NoSuchSchema', {}))).toBe('SPEC_SCHEMA_UNKNOWN' satisfies CcsErrorCode);
    expect(codeOf(() => spec.resolveRef('#/components/schemas/NoSuchSchema'))).toBe(
      'SPEC_REF_UNRESOLVED' satisfies CcsErrorCode,
    );
  });

  test('validateResponse picks the exact status, else the range, else default; an undocumented status is invalid', () => {
    const spec = loadSpec();
    expect(spec.validateResponse('getRecord', 418, {})).toEqual({
      valid: false,
      errors: [expect.stringMatching(/^status 418 not documented/)],
    });
    expect(spec.validateResponse('createEmbedToken', 204, undefined).valid).toBe(true); // 2XX
    expect(
      spec.validateResponse('getRecord', 404, { timestamp: 't', status: 404, error: 'Not Found', path: '/p' }).valid,
    ).toBe(true);
    expect(spec.validateWebhook('tool.dispatch', 'anything').valid).toBe(true); // default response, unspecified body
  });

  test('documentedStatuses lists exact statuses and expands a range', () => {
    const spec = loadSpec();
    expect(spec.documentedStatuses('getRecord')).toEqual([200, 400, 401, 403, 404, 409, 500, 503]);
    const embed = spec.documentedStatuses('createEmbedToken');
    expect(embed).toEqual(expect.arrayContaining([200, 201, 299, 400, 401, 403, 404, 500, 503]));
    expect(embed).not.toContain(300);
  });

  test('schema() and resolveRef() return document objects with refs left as is', () => {
    const spec = loadSpec();
    const payload = spec.schema('OnCompletePayload') as { properties: Record<string, unknown> };
    expect(payload.properties.timestamp).toEqual({ $ref: '#/components/schemas/CallbackTimestamp' });
    expect(spec.resolveRef('#/components/schemas/CallbackTimestamp')).toBe(spec.schema('CallbackTimestamp'));
  });

  test('validateRequestBody refuses a body on an operation that takes none', () => {
    const spec = loadSpec();
    expect(spec.validateRequestBody('getRecord', undefined).valid).toBe(true);
    expect(spec.validateRequestBody('getRecord', { a: 1 }).valid).toBe(false);
  });
});

test.describe('spec/clauses.yaml', () => {
  test('clause ids are unique and well formed, each clause has an allowed section, level, side and text', () => {
    const spec = loadSpec();
    const seen = new Set<string>();
    for (const c of spec.clauses) {
      expect(c.id, c.id).toMatch(CLAUSE_ID);
      expect(seen.has(c.id), `${c.id} twice`).toBe(false);
      seen.add(c.id);
      expect(c.section, c.id).toMatch(/^[1-9][0-9]*(\.[1-9][0-9]*)?( [1-9][0-9]*(\.[1-9][0-9]*)?)*$/);
      expect(LEVELS, c.id).toContain(c.level);
      expect(SIDES, c.id).toContain(c.side);
      expect(c.text.trim().length, c.id).toBeGreaterThan(10);
    }
    expect(spec.clauses.length).toBeGreaterThanOrEqual(90);
  });

  test('every clause belongs to a declared area, and UNSPEC clauses are exactly the UNSPECIFIED ones', () => {
    const spec = loadSpec();
    for (const c of spec.clauses) {
      const area = c.id.split('-')[0] as string;
      expect(spec.areas[area], `${c.id}: area ${area}`).toBeDefined();
      expect(c.level === 'UNSPECIFIED', c.id).toBe(area === 'UNSPEC');
    }
  });

  test('clause() finds a clause by id and returns undefined for an unknown id', () => {
    const spec = loadSpec();
    expect(spec.clause('DELIV-4')).toMatchObject({ id: 'DELIV-4', level: 'MUST', side: 'service' });
    expect(spec.clause('NOPE-1')).toBeUndefined();
  });
});
