/**
 * The data API forms the contract leaves open (UNSPEC-8, UNSPEC-9; spec/data-api-forms.ts): a path
 * or a body built in one form is read back in that form and in no other; the target loader names
 * a bad field; a service answering 404, 405 or 400 to a request in the declared form gets a hint
 * naming the target field; and an error body's path is compared as a framework may normalize it.
 * The forms run's plan is data-api-forms-run.spec.ts's.
 */
import { test, expect } from '@playwright/test';
import {
  CONFIG_END_FORMS,
  DEFAULT_DATA_API_FORMS,
  allDataApiForms,
  configEndInPath,
  dataApiPath,
  parseDataApiTail,
  readWriteBody,
  resolveDataApiForms,
  writeBodyOf,
  type DataApiForms,
  type CcsErrorCode,
} from '../../../spec/index.ts';
import { CcsError } from '../../../spec/errors.ts';
import { validateTargetDocument } from '../../../target/service/load.ts';
import { ServiceClient } from '../../service/clients/service-client.ts';
import { errorBodyProblems } from '../../service/areas/errors.ts';
import { startReferenceService } from '../../../reference-service/index.ts';

function errorOf(fn: () => unknown): CcsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CcsError) return e;
    throw e;
  }
  throw new Error('no error was thrown');
}

test.describe('the forms', () => {
  test('configEnd is written in the path exactly as documented, inner slashes included', () => {
    expect(CONFIG_END_FORMS.map((f) => configEndInPath('/profile', f))).toEqual(['profile', '/profile', '%2Fprofile']);
    expect(CONFIG_END_FORMS.map((f) => configEndInPath('/billing/invoice', f))).toEqual([
      'billing/invoice',
      '/billing/invoice',
      '%2Fbilling%2Finvoice',
    ]);
    expect(dataApiPath('ws-1', '/profile', 'ada lovelace', 'with-slash', 'k/1')).toBe(
      '/api/ws-1/endpoints//profile/data/ada%20lovelace/k%2F1',
    );
  });

  test('a path built in one configEnd form reads back in that form and in no other', () => {
    for (const configEnd of ['/profile', '/billing/invoice', '/a b', '/é']) {
      for (const built of CONFIG_END_FORMS) {
        const tail = dataApiPath('ws', configEnd, 'u-1', built, 'k-1').split('/endpoints/')[1]!;
        for (const read of CONFIG_END_FORMS) {
          const readings = parseDataApiTail(tail, read);
          if (read === built)
            expect(readings, `${configEnd} ${built}`).toEqual([{ configEnd, endUserHandle: 'u-1', serviceKey: 'k-1' }]);
          // A one-segment configEnd written without its slash is no other form; with inner slashes, encoded is one
          // segment.
          else expect(readings, `${configEnd} built ${built}, read ${read}`).toEqual([]);
        }
      }
    }
  });

  test('a configEnd holding a segment named data is read every way; the caller keeps the one naming a class', () => {
    expect(parseDataApiTail('profile/data/data/u-1', 'without-slash')).toEqual([
      { configEnd: '/profile', endUserHandle: 'data', serviceKey: 'u-1' },
      { configEnd: '/profile/data', endUserHandle: 'u-1' },
    ]);
  });

  test('a write body built in one form reads back with its fields and key', () => {
    for (const forms of allDataApiForms((f) => (f.writeBody === 'bare' ? 'recordKey' : 'serviceKey'))) {
      const fields = { label: 'home', city: 'Lyon' };
      expect(readWriteBody(writeBodyOf(fields, forms), forms), JSON.stringify(forms)).toEqual({ fields });
      const keyed = readWriteBody(writeBodyOf(fields, forms, 'k-1'), forms);
      expect(keyed, JSON.stringify(forms)).toEqual(
        forms.keyedWrite === 'body' ? { fields, serviceKey: 'k-1' } : { fields },
      );
    }
    const bare: DataApiForms = { ...DEFAULT_DATA_API_FORMS, keyedWrite: 'body', writeBody: 'bare' };
    expect(writeBodyOf({ name: 'Ada' }, bare, 'k-1')).toEqual({ name: 'Ada', serviceKey: 'k-1' });
    expect(writeBodyOf({ name: 'Ada' }, DEFAULT_DATA_API_FORMS, 'k-1')).toEqual({ data: { name: 'Ada' } });
    // DATA-7: malformed in the declared form.
    expect(readWriteBody({ name: 'Ada' }, DEFAULT_DATA_API_FORMS)).toBeUndefined();
    expect(readWriteBody([1], bare)).toBeUndefined();
    expect(readWriteBody({ serviceKey: 7, name: 'Ada' }, bare)).toBeUndefined();
  });
});

test.describe('the target fields', () => {
  test('each bad data API field is named in the message', () => {
    const base = { service: { baseUrl: 'http://x' } };
    const cases: Array<[unknown, string]> = [
      [
        { ...base, dataApi: { configEnd: 'slashed' } },
        't.yaml: dataApi.configEnd: must be one of ["without-slash","with-slash","encoded"]',
      ],
      [{ ...base, dataApi: { keyedWrite: 'query' } }, 't.yaml: dataApi.keyedWrite: must be one of ["path","body"]'],
      [{ ...base, dataApi: { writeBody: 'envelope' } }, 't.yaml: dataApi.writeBody: must be one of ["data","bare"]'],
      [{ ...base, dataApi: { keyField: '' } }, 't.yaml: dataApi.keyField: must NOT have fewer than 1 characters'],
      [
        { ...base, dataApi: { keyedWrite: 'body', keyField: 'data' } },
        't.yaml: dataApi.keyField: must not be "data" when dataApi.writeBody is data (the key member would replace the fields)',
      ],
      [{ ...base, dataApi: { keyForm: 'path' } }, 't.yaml: dataApi.keyForm: unknown field (not in the target schema)'],
    ];
    for (const [doc, message] of cases) {
      const e = errorOf(() => validateTargetDocument(doc, 't.yaml'));
      expect(e.code).toBe('TARGET_FIELD_INVALID' satisfies CcsErrorCode);
      expect(e.message).toBe(message);
    }
  });

  test('an absent dataApi is the default forms; a declared one keeps its values', () => {
    expect(resolveDataApiForms(undefined)).toEqual({
      configEnd: 'without-slash',
      keyedWrite: 'path',
      keyField: 'serviceKey',
      writeBody: 'data',
    });
    expect(
      resolveDataApiForms({ configEnd: 'encoded', keyedWrite: 'body', keyField: 'id', writeBody: 'bare' }),
    ).toEqual({ configEnd: 'encoded', keyedWrite: 'body', keyField: 'id', writeBody: 'bare' });
    expect(resolveDataApiForms({ keyedWrite: 'body', keyField: 'data', writeBody: 'bare' }).keyField).toBe('data');
  });
});

test('a service that chose other forms answers 405, 404 or 400, and the answer names the target field to check', async () => {
  const s = await startReferenceService({
    port: 0,
    timeScale: 0.1,
    dataApi: { configEnd: 'with-slash', keyedWrite: 'body', writeBody: 'bare' },
  });
  try {
    const created = (await (
      await fetch(`${s.driverUrl}/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          classes: [{ configEnd: '/contacts', kind: 'LIST', fields: [{ name: 'email', type: 'string' }] }],
        }),
      })
    ).json()) as { workspaceKey: string; apiKey: string; bearerToken: string };
    const ws = { ...created, embedAuthorization: '' };
    const right = new ServiceClient({
      baseUrl: s.url,
      dataApi: { ...DEFAULT_DATA_API_FORMS, configEnd: 'with-slash', keyedWrite: 'body', writeBody: 'bare' },
    });
    const wrong = new ServiceClient({ baseUrl: s.url });
    const written = await right.writeRecord(ws, '/contacts', 'u-1', { data: { email: 'a@x.io' } });
    expect(written.status, written.text).toBe(201);
    const key = (written.json as { serviceKey: string }).serviceKey;
    expect(
      (await right.writeRecord(ws, '/contacts', 'u-1', { data: { email: 'b@x.io' } }, { serviceKey: key })).status,
    ).toBe(200);
    expect(((await right.getRecord(ws, '/contacts', 'u-1', key)).json as { data: unknown }).data).toEqual(
      expect.objectContaining({ email: 'b@x.io' }),
    );

    const notFound = await wrong.listRecords(ws, '/contacts', 'u-1');
    expect(notFound.status).toBe(404);
    expect(notFound.formHint).toMatch(
      /^the service answered 404 to GET \/api\/\{workspaceKey\}\/endpoints\/contacts\/data\/\{endUserHandle\}: if it has no such route, check `dataApi\.configEnd` \(this run writes \/contacts as \.\.\.\/endpoints\/contacts\/data \(without-slash\); the other forms: \.\.\.\/endpoints\/\/contacts\/data \(with-slash\), \.\.\.\/endpoints\/%2Fcontacts\/data \(encoded\)\) in the target$/,
    );
    const keyedRight = new ServiceClient({
      baseUrl: s.url,
      dataApi: { ...DEFAULT_DATA_API_FORMS, configEnd: 'with-slash', writeBody: 'bare' },
    });
    const notAllowed = await keyedRight.writeRecord(
      ws,
      '/contacts',
      'u-1',
      { data: { email: 'c@x.io' } },
      { serviceKey: key },
    );
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.formHint).toMatch(
      /^the service answered 405 to POST \/api\/\{workspaceKey\}\/endpoints\/\/contacts\/data\/\{endUserHandle\}\/\{serviceKey\}: if it has no such route, check `dataApi\.keyedWrite` \(this run sends a keyed write as POST \.\.\.\/data\/\{endUserHandle\}\/\{serviceKey\}; `body` puts the key in a body member named by `dataApi\.keyField`\) in the target$/,
    );
    const enveloped = new ServiceClient({
      baseUrl: s.url,
      dataApi: { ...DEFAULT_DATA_API_FORMS, configEnd: 'with-slash', keyedWrite: 'body', writeBody: 'data' },
    });
    const stored = await enveloped.writeRecord(ws, '/contacts', 'u-2', { data: { email: 'd@x.io' } });
    // A bare-body service stores the envelope's member as a field named data: a 2xx, and no hint (the read shows it).
    expect(stored.status).toBe(201);
    expect(stored.formHint).toBeUndefined();
    const raw = await right.writeRecord(ws, '/contacts', 'u-3', undefined, { rawBody: '[1]' });
    expect(raw.status).toBe(400);
    expect(raw.formHint, "a raw body is the test's own: no form hint").toBeUndefined();
  } finally {
    await s.close();
  }
});

test('an error body whose path has the repeated slashes of a with-slash configEnd merged is the request path (ERR-1 reading)', () => {
  const res = (path: string, url: string) => ({
    status: 404,
    headers: {},
    text: '',
    curl: '',
    specCheck: { valid: true, errors: [] },
    method: 'GET',
    url,
    elapsedMs: 1,
    json: { timestamp: 't', status: 404, error: 'Not Found', path },
  });
  expect(
    errorBodyProblems(res('/api/w/endpoints/profile/data/u-1', 'http://h/api/w/endpoints//profile/data/u-1')),
  ).toEqual([]);
  expect(
    errorBodyProblems(res('/api/w/endpoints//profile/data/u-1', 'http://h/api/w/endpoints/%2Fprofile/data/u-1')),
  ).toEqual([]);
  expect(
    errorBodyProblems(res('/api/w/endpoints/profile/data/u-2', 'http://h/api/w/endpoints//profile/data/u-1')),
  ).toEqual(['path is "/api/w/endpoints/profile/data/u-2", the request path was "/api/w/endpoints//profile/data/u-1"']);
});
