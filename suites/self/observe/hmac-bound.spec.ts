/**
 * observe's `--hmac-secret-file WS=FILE`: a callback of a workspace with secrets of its own is judged with
 * them. Made with another workspace's secret (a sandbox with its production parent's) it fails SIGN-13 and
 * nothing else; made with either secret of a workspace given two (a rotation) it holds SIGN-14; made with
 * neither it fails SIGN-14, the rule of a rotated workspace.
 */
import { test, expect } from '@playwright/test';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { signHmac } from '../../../protocol/index.ts';
import { Verdicts } from '../../../judge/service/index.ts';
import { judgeSignature } from '../../../judge/service/signature.ts';

const BOUND = {
  'ws-prod': ['test-only-prod-secret'],
  'sb-prod': ['test-only-sandbox-secret'],
  'ws-rotated': ['test-only-new-secret', 'test-only-old-secret'],
};
const T = 1_790_000_000;

/** A callback of `workspaceKey` signed with `secret`, as the mock host recorded it (verified against every secret). */
function signed(workspaceKey: string, secret: string): JournalEntry {
  const body = JSON.stringify({ event: 'onStart', workspaceKey });
  const known = Object.values(BOUND).flat().includes(secret);
  const e = {
    seq: 1,
    kind: 'lifecycle',
    workspaceKey,
    headers: { 'x-service-signature': signHmac({ secret, t: T, payload: body }) },
    bodyBase64: Buffer.from(body).toString('base64'),
    arrival: { monoNs: '0', wallMs: T * 1000, iso: '' },
    signature: { verdict: known ? 'valid' : 'invalid', mode: 'hmac', reason: '', t: T },
    checks: [],
  };
  return e as unknown as JournalEntry;
}

function outcomes(e: JournalEntry): string[] {
  const v = new Verdicts();
  judgeSignature(e, v, 'hmac', Object.values(BOUND).flat(), false, BOUND);
  return [...v.clauses()].flatMap(([clause, records]) => records.map((r) => `${clause} ${r.outcome}`)).sort();
}

test('a sandbox signed with its parent secret fails SIGN-13 alone; with its own it holds (observe --hmac-secret-file WS=FILE)', () => {
  const parent = outcomes(signed('sb-prod', 'test-only-prod-secret'));
  expect(parent.filter((o) => o.endsWith('failed'))).toEqual(['SIGN-13 failed']);
  const own = outcomes(signed('sb-prod', 'test-only-sandbox-secret'));
  expect(own.filter((o) => o.endsWith('failed'))).toEqual([]);
  expect(own).toContain('SIGN-13 passed');
});

test('a rotated workspace may sign with either secret (SIGN-14), and fails SIGN-14 with a third', () => {
  for (const secret of BOUND['ws-rotated']) expect(outcomes(signed('ws-rotated', secret))).toContain('SIGN-14 passed');
  const other = outcomes(signed('ws-rotated', 'test-only-unknown-secret'));
  expect(other).toContain('SIGN-14 failed');
  expect(other).not.toContain('SIGN-3 failed');
});
