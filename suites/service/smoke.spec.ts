/**
 * Proof that the service-suite fixtures stand: a fresh workspace per test, the service client
 * with its spec check, the driver, and the mock host journal scoped to the workspace's hookPath.
 */
import { test } from './fixtures.ts';
import { expectError } from './areas/errors.ts';
import { check } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

test(
  'a fresh workspace answers PUT on its data route with 405 (DATA-5)',
  { tag: clauseTags('DATA-5') },
  async ({ ws, svc, evidence }) => {
    const r = await svc.putRecord(ws, '/profile', 'smoke-user', { name: 'Ada' });
    evidence.add({
      sentence: `PUT on the data route answered ${r.status}; the contract says 405 (DATA-5).`,
      requests: [r],
    });
    expectError('DATA-5', r, 405, 'PUT on a data route');
  },
);

test(
  'onStart arrives at the hook path after an open (EVT-16)',
  { tag: clauseTags('EVT-16') },
  async ({ ws, driver }) => {
    driver.requireCapability('conversations');
    const { conversationId } = await driver.open(ws, { endUserHandle: 'smoke-user', configEnd: '/profile' });
    const [entry] = await ws.waitForCallbacks({ event: 'onStart' }, { clause: 'EVT-16' });
    check('EVT-16', 'onStart is POSTed to the hook path').equals(entry!.method, 'POST');
    check('EVT-16', 'onStart names the conversation that opened').equals(
      (entry!.json as { conversationId?: unknown }).conversationId,
      conversationId,
    );
  },
);
