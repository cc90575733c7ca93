/**
 * `ccs-conformance observe` against the reference service driven only by a team's own end-to-end
 * script (team-e2e.ts): the clean service passes with every clause its traffic decides, a seeded
 * fault fails its own clause and no other, a saved journal gives the verdicts of the live run, and no
 * traffic at all is no verdict (exit 2 in one line).
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hmacHex, SIGNATURE_HEADER } from '../../../protocol/index.ts';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { header, rawBody } from '../../../judge/service/journal.ts';
import { clauseTags } from '../../../spec/index.ts';
import { runObserve } from './children.ts';
import {
  ROTATED_SECRET,
  RUN_DEADLINE_MS,
  SECRET,
  failedOf,
  observeTeamRun,
  signingFlags,
  statusOf,
  type Report,
} from './team-run.ts';

/** 0.1 keeps the shortest back-off (500 ms) well above a loaded machine's jitter (PITFALLS: Timing). */
const TIME_SCALE = 0.1;
const RETRIES = { timeScale: TIME_SCALE, injects: ['onComplete=503,503'] };

test.describe.configure({ mode: 'serial' });

/** How many of the demo's callbacks in the journal have a v1 made with `secret` over t, a dot and the body. */
function secretsOf(journal: string, secret: string): number {
  const entries = readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalEntry);
  return entries.filter((e) => {
    const m = /^t=([0-9]+),v1=([0-9a-f]+)$/.exec(header(e, SIGNATURE_HEADER) ?? '');
    return e.kind === 'lifecycle' && e.workspaceKey === 'demo' && m && hmacHex(secret, m[1]!, rawBody(e)) === m[2];
  }).length;
}

/** `observe --from` the live run's journal (with the signing flags it needs) gives the live verdicts. */
async function expectSameFromJournal(dir: string, live: Report, flags: string[]): Promise<void> {
  const journal = join(dir, 'live', 'journal.jsonl');
  const again = await runObserve([
    '--from',
    journal,
    ...flags,
    '--time-scale',
    String(TIME_SCALE),
    '--report-dir',
    join(dir, 'from'),
  ]);
  expect(again.code, again.out).toBe(0);
  const replay = JSON.parse(readFileSync(join(dir, 'from', 'conformance.json'), 'utf8')) as Report;
  const words = (r: Report) => r.clauses.map((c) => `${c.id} ${c.status}`);
  expect(words(replay)).toEqual(words(live));
}

const CLEAN_TITLE =
  'observe passes the clean reference service on its own traffic, a mid-day HMAC rotation signed with the ' +
  'current or the previous secret during the overlap (SIGN-14), and --from on the saved journal with the same ' +
  'flags agrees (HDR-3 HDR-4 DELIV-4 DELIV-8 DELIV-11 SIGN-5 SIGN-12 SIGN-14 PAGE-5)';
const DECIDED = [
  'EVT-1',
  'EVT-4',
  'HDR-2',
  'HDR-3',
  'HDR-4',
  'DELIV-4',
  'DELIV-8',
  'DELIV-11',
  'SIGN-5',
  'SIGN-12',
  'PAGE-5',
  'FACTS-3',
  'SIGN-6',
];

test(
  CLEAN_TITLE,
  { tag: clauseTags('HDR-3', 'HDR-4', 'DELIV-4', 'DELIV-8', 'DELIV-11', 'SIGN-5', 'SIGN-12', 'SIGN-14', 'PAGE-5') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-'));
    try {
      const { code, report, out } = await observeTeamRun(dir, RETRIES);
      expect(code, out).toBe(0);
      expect(report.verdict).toBe('pass');
      for (const id of DECIDED) expect(statusOf(report, id), id).toBe('passed');
      // a clause the traffic cannot decide is not exercised, never passed
      expect(statusOf(report, 'DELIV-14')).toBe('not-exercised');
      // the day's sandbox signs with its own secret, bound to it as the demo's is to the demo (SIGN-13)
      expect(failedOf(report), out).toEqual([]);
      expect(statusOf(report, 'SIGN-13'), out).toBe('passed');
      // the demo's secret rotated mid-day, both bound to it: SIGN-14 decided from traffic (5.2 "either is
      // accepted meanwhile"), and the demo's callbacks were made with both
      expect(statusOf(report, 'SIGN-14'), out).toBe('passed');
      const signedWith = (secret: string) => secretsOf(join(dir, 'live', 'journal.jsonl'), secret);
      for (const secret of [SECRET, ROTATED_SECRET]) expect(signedWith(secret), secret).toBeGreaterThan(0);
      await expectSameFromJournal(dir, report, signingFlags(dir, 'hmac'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'observe fails a service whose delivery id has another form on HDR-3 alone, exit 1 (HDR-3)',
  { tag: clauseTags('HDR-3') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-'));
    try {
      const { code, report, out } = await observeTeamRun(dir, { ...RETRIES, faults: ['delivery-id-other-form'] });
      expect(code, out).toBe(1);
      expect(failedOf(report)).toEqual(['HDR-3']);
      expect(out).toContain('FAIL HDR-3');
      // the rerun line judges the saved journal again, never `run --grep` (which needs a driver)
      const summary = readFileSync(join(dir, 'live', 'summary.md'), 'utf8');
      const journal = join(dir, 'live', 'journal.jsonl');
      const rerun = `rerun: \`ccs-conformance observe --from ${journal} --time-scale ${TIME_SCALE} --hmac-secret-file `;
      expect(summary).toContain(rerun);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'observe with no callback at all gives no verdict: exit 2 in one line naming the URL (HOOK-1)',
  { tag: clauseTags('HOOK-1') },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-'));
    try {
      // an earlier run's verdict must not stay for a gate to read
      writeFileSync(join(dir, 'conformance.json'), '{"verdict":"pass"}');
      const r = await runObserve(['--port', '0', '--idle', '1', '--quiet', '--report-dir', dir]);
      expect(existsSync(join(dir, 'conformance.json'))).toBe(false);
      expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('no callback arrived at');
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/no callback arrived at http:\/\/127\.0\.0\.1:\d+\/hooks in 1 s: /);
      expect(r.out).toContain("check the service's hostBaseUrl/hookPath");
      expect(
        r.out
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('ccs-conformance observe:')),
      ).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "observe passes the clean reference service's JWKS day: a sandbox signs with a kid of its own (SIGN-10), every " +
    'kid named, the rotated one too, is in the document fetched again and verifies (SIGN-9, passed partly: the ' +
    "rotation is the driver's), and --from on the saved journal agrees (SIGN-9 SIGN-10)",
  { tag: clauseTags('SIGN-9', 'SIGN-10') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-jwks-'));
    try {
      const { code, report, out, day } = await observeTeamRun(dir, { ...RETRIES, signing: 'jwks' });
      expect(failedOf(report), out).toEqual([]);
      expect(code, out).toBe(0);
      for (const id of ['SIGN-7', 'SIGN-8', 'SIGN-10']) expect(statusOf(report, id), `${id}\n${out}`).toBe('passed');
      const sign9 = report.clauses.find((c) => c.id === 'SIGN-9');
      expect(sign9?.status, out).toBe('passed');
      // partly: that no callback names the old kid after the rotation is decided only by a driven run
      expect(sign9?.exercised?.seen, JSON.stringify(sign9)).toBeLessThan(sign9?.exercised?.of ?? 0);
      // the day did rotate mid-day: callbacks name both kids, and the host fetched the document again when
      // the new kid came (one of before the rotation without it, one after with it; the old kid in both)
      const journal = readFileSync(join(dir, 'live', 'journal.jsonl'), 'utf8');
      const { kid, previousKid } = day.rotation!;
      expect(kid).not.toBe(previousKid);
      for (const k of [kid, previousKid]) expect(journal).toContain(`"kid":"${k}"`);
      const end = journal.trim().split('\n').at(-1)!;
      const docs = (
        JSON.parse(end) as { observeEnd: { jwksDocuments: Array<{ keys: Array<{ kid: string }> }> } }
      ).observeEnd.jwksDocuments.map((d) => d.keys.map((k) => k.kid));
      expect(docs.length, JSON.stringify(docs)).toBeGreaterThanOrEqual(2);
      expect(docs[0]).toContain(previousKid);
      expect(docs[0]).not.toContain(kid);
      expect(docs.at(-1)).toEqual(expect.arrayContaining([previousKid, kid]));
      await expectSameFromJournal(dir, report, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
