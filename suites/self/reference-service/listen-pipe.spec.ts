/** The driver's local listen pipe (capability listen-pipe): what the HOOK-5 and SIGN-15 checks rely on. */
import { test, expect } from '@playwright/test';
import { verifyCallback } from '../../../protocol/index.ts';
import { stage } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

const SECRET = 'test-only-hmac-secret-pipe';

test(
  'while a listen pipe runs, events go to it instead of the hook, same bytes and signed; stopped, they go to the hook again (HOOK-5 SIGN-15)',
  { tag: clauseTags('HOOK-5', 'SIGN-15') },
  async () => {
    const s = await stage({ workspace: { signing: { mode: 'hmac', secret: SECRET } } });
    try {
      expect(
        (await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/listen`, { forwardTo: `${s.host.url}/pipe/p-1` }))
          .status,
      ).toBe(200);
      await s.open('u-1');
      await s.host.waitFor((r) => r.some((x) => x.url === '/pipe/p-1'), 5000, 'the onStart at the pipe');
      const piped = s.host.received.find((x) => x.url === '/pipe/p-1')!;
      expect(piped.headers['x-service-event']).toBe('onStart');
      expect(
        (
          await verifyCallback({
            headers: piped.headers,
            rawBody: piped.raw,
            config: { mode: 'hmac', secrets: [SECRET] },
          })
        ).verdict,
      ).toBe('valid');
      expect(s.host.received.filter((x) => x.url === '/hooks/t-1')).toEqual([]);
      expect((await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/listen`, { forwardTo: null })).json).toEqual({
        forwardTo: null,
      });
      await s.open('u-2');
      await s.host.waitFor((r) => r.some((x) => x.url === '/hooks/t-1'), 5000, 'the onStart at the hook');
    } finally {
      await s.close();
    }
  },
);

test('the listen pipe takes an absolute http(s) URL or null', async () => {
  const s = await stage();
  try {
    for (const forwardTo of ['not a url', 'ftp://x/y', 42, undefined]) {
      const r = await s.driver(
        'POST',
        `/workspaces/${s.ws.workspaceKey}/listen`,
        forwardTo === undefined ? {} : { forwardTo },
      );
      expect(r.status, String(forwardTo)).toBe(400);
      expect(r.json).toMatchObject({ error: 'bad-request', field: 'forwardTo' });
    }
  } finally {
    await s.close();
  }
});
