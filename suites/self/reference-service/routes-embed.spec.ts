/** The reference service's embed-tokens route (4.2): its 400 rules and limits, its authorization. */
import { test, expect } from '@playwright/test';
import { clauseTags } from '../../../spec/index.ts';
import { expectDefaultError, s, stagePerTest } from './routes-stage.ts';

stagePerTest();

test(
  'embed-tokens enforces its 400 rules and accepts the limits exactly (EMBED-1 EMBED-2 EMBED-3 EMBED-4 EMBED-6 EMBED-7 EMBED-8 EMBED-9 EMBED-11)',
  {
    tag: clauseTags('EMBED-1', 'EMBED-2', 'EMBED-3', 'EMBED-4', 'EMBED-6', 'EMBED-7', 'EMBED-8', 'EMBED-9', 'EMBED-11'),
  },
  async () => {
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    const auth = { authorization: s.ws.embedAuthorization };
    const post = (body: unknown) => s.api('POST', path, body, auth);
    const pad = (n: number) => ({ data: { note: 'x'.repeat(n - JSON.stringify({ data: { note: '' } }).length) } });
    expect(JSON.stringify(pad(16384)).length).toBe(16384);
    expect((await post({ endUserHandle: 'u-1' })).status).toBe(200);
    expect((await post({ endUserHandle: 'a'.repeat(255) })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', openingContext: pad(16384) })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', openingContext: { toolClass: 'no-such-tool' } })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', organizationId: 'org_42' })).status).toBe(200);
    for (const bad of [
      {},
      { endUserHandle: 'a'.repeat(256) },
      { endUserHandle: 'org-acme' },
      { endUserHandle: 'u-1', organizationId: 42 },
      { endUserHandle: 'u-1', openingContext: pad(16385) },
      { endUserHandle: 'u-1', openingContext: { data: { nested: { a: 1 } } } },
      { endUserHandle: 'u-1', openingContext: { referentKeys: ['sk-unknown'] } },
      { endUserHandle: 'u-1', configEnd: '/profile' },
    ]) {
      expectDefaultError(await post(bad), 400, path);
    }
  },
);

test(
  'embed-tokens answers 401 without a valid Authorization and 403 for another workspace (EMBED-10 AUTH-2)',
  { tag: clauseTags('EMBED-10', 'AUTH-2') },
  async () => {
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    expectDefaultError(await s.api('POST', path, { endUserHandle: 'u-1' }), 401, path);
    expectDefaultError(
      await s.api('POST', path, { endUserHandle: 'u-1' }, { authorization: 'Bearer nope' }),
      401,
      path,
    );
    const other = await s.driver('POST', '/workspaces', {});
    expectDefaultError(
      await s.api('POST', path, { endUserHandle: 'u-1' }, { authorization: other.json.embedAuthorization }),
      403,
      path,
    );
  },
);

test(
  'embed-tokens accepts referentKeys owned by the caller only (EMBED-5)',
  { tag: clauseTags('EMBED-5') },
  async () => {
    const seeded = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
      configEnd: '/contacts',
      endUserHandle: 'u-1',
      count: 1,
    });
    const key = seeded.json.serviceKeys[0];
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    const auth = { authorization: s.ws.embedAuthorization };
    expect(
      (await s.api('POST', path, { endUserHandle: 'u-1', openingContext: { referentKeys: [key] } }, auth)).status,
    ).toBe(200);
    expect(
      (await s.api('POST', path, { endUserHandle: 'u-2', openingContext: { referentKeys: [key] } }, auth)).status,
    ).toBe(400);
  },
);
