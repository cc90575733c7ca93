/**
 * The printed curl lines replay: run through `sh -c` exactly as printed against the reference
 * receiver, they reproduce the verdict of the request the harness sent (a 2xx for a correctly
 * signed full bulk page in JWKS mode, whose signature header is about 30 KB; a 401 for the same
 * page with one byte changed after signing). No shell is involved in sending, so a curl line
 * that quotes, cuts or loses anything fails here.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { test, expect } from '@playwright/test';
import { curlOf, startHostHarness, type HostHarness } from '../../host/index.ts';
import { curlLine } from '../../shared/index.ts';
import { deliver, fetchFacts } from '../../host/harness/deliver.ts';
import { oneByteChanged } from '../../host/harness/bad-signatures.ts';
import { nonAsciiHandle } from '../../host/harness/edges.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from '../../host/harness/payloads.ts';

const run = promisify(execFile);

let h: HostHarness;
test.beforeAll(async () => {
  h = await startHostHarness({ ...process.env, CCS_HOST_TARGET: '', CCS_HOST_FAULT: '' });
});
test.afterAll(async () => {
  await h?.close();
});

/** The status of the last response head curl -i printed. */
async function replay(line: string): Promise<number | undefined> {
  const { stdout } = await run('sh', ['-c', line], { maxBuffer: 4 * 1024 * 1024, timeout: 20_000 });
  const heads = [...stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
  return heads.at(-1);
}

function fullPage() {
  const ep = h.endpoints.jwks!;
  const keys = Array.from({ length: 500 }, () => `key-${randomUUID()}`);
  // A non-ASCII handle and a quote in a key: both must survive the shell.
  keys[0] = "it's-a-key";
  return {
    ep,
    payload: lifecyclePayload(
      'config.bulk_deleted',
      {
        workspaceKey: h.target.workspaceKey,
        configEnd: h.target.configEnd,
        endUserHandle: nonAsciiHandle(),
        conversationId: freshConversationId(),
        hookPath: ep.hookPath,
      },
      { count: 500, page: 1, totalPages: 1, keys },
    ),
  };
}

test('a printed curl line of a signed JWKS-mode full bulk page replays to the same 2xx', async () => {
  const { ep, payload } = fullPage();
  const sent = await deliver(h, ep, payload);
  expect(sent.status).toBe(200);
  const line = curlOf(sent);
  expect(line).not.toContain('...');
  expect(line.length).toBeGreaterThan(30_000);
  expect(await replay(line)).toBe(200);
});

test('a printed curl line of a tampered request replays to the same 401', async () => {
  const { ep, payload } = fullPage();
  const signed = JSON.stringify(payload);
  const sent = await deliver(h, ep, payload, { signedBody: signed, body: oneByteChanged(signed) });
  expect(sent.status).toBe(401);
  expect(await replay(curlOf(sent))).toBe(401);
});

test('a printed curl line of a signed facts GET replays to the same 200', async () => {
  const ep = h.endpoints.hmac!;
  // ASCII: the handle also travels in the X-Service-End-User header.
  const sent = await fetchFacts(h, ep, { endUserHandle: freshHandle() });
  expect(sent.status).toBe(200);
  expect(await replay(curlOf(sent))).toBe(200);
});

test('the shared curl builder quotes every argument and prints credentials as variables', () => {
  const line = curlLine({
    method: 'POST',
    url: 'http://127.0.0.1:1/a?b=c d',
    headers: { 'x-a': "it's", authorization: 'Bearer s3cret-value' },
    body: '{"k":"it\'s"}',
    isSecretHeader: (n) => n === 'authorization',
  });
  expect(line).toBe(
    `curl -sS -i -X POST 'http://127.0.0.1:1/a?b=c d' -H 'x-a: it'\\''s' -H "authorization: Bearer $CCS_AUTHORIZATION" --data-binary '{"k":"it'\\''s"}'`,
  );
  expect(line).not.toContain('s3cret');
});
