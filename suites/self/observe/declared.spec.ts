/**
 * What a team declares to observe decides what it judges: `--signing none` judges the absence of the
 * signature header (SIGN-1) on every callback, and `--idle` waits for every retry an injected answer made
 * due (the moment it is due is worked out from the journal, as the judge holds the back-off).
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clauseTags } from '../../../spec/index.ts';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { retriesDueUntilNs } from '../../../judge/service/index.ts';
import { HARNESS_SLACK_MS, makeTiming } from '../../../target/service/timing.ts';
import { DEFAULT_TOLERANCES } from '../../../target/service/resolve.ts';
import {
  DATA_TOKEN,
  RUN_DEADLINE_MS,
  failedOf,
  observeTeamRun,
  reasonsOf,
  statusOf,
  type Report,
  type TeamRunOptions,
} from './team-run.ts';
import { runObserve } from './children.ts';

async function observed(o: TeamRunOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-declared-'));
  try {
    return await observeTeamRun(dir, o);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.describe.configure({ mode: 'parallel' });

test(
  'observe --signing none passes a service that sends no signature header, and decides SIGN-1 (SIGN-1)',
  { tag: clauseTags('SIGN-1') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const { code, report, out } = await observed({ timeScale: 0.1, injects: ['onComplete=503,503'], signing: 'none' });
    expect(failedOf(report), out).toEqual([]);
    expect(statusOf(report, 'SIGN-1'), `${reasonsOf(report, 'SIGN-1')}\n${out}`).toBe('passed');
    expect(code, out).toBe(0);
  },
);

test(
  'observe --signing none fails a service that sends a signature header with signing off on SIGN-1 (SIGN-1)',
  { tag: clauseTags('SIGN-1') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const { code, report, out } = await observed({
      faults: ['signature-header-when-off'],
      timeScale: 0.1,
      injects: ['onComplete=503,503'],
      signing: 'none',
    });
    expect(failedOf(report), out).toContain('SIGN-1');
    expect(code, out).toBe(1);
  },
);

test(
  'observe --from a saved journal with --data-api reads back what the service still holds (ENV-1, STATE-4, STATE-8)',
  { tag: clauseTags('ENV-1', 'STATE-4', 'STATE-8') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-from-data-'));
    try {
      let again: { code: number | null; out: string } | undefined;
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, DATA_TOKEN.OBSERVE_DATA_TOKEN);
      await observeTeamRun(dir, {
        timeScale: 0.1,
        injects: ['onComplete=503,503'],
        dataApi: true,
        // the journal of the live run, judged again while the service is still there to read
        then: async (serviceUrl) => {
          const journal = join(dir, 'live', 'journal.jsonl');
          const args = ['--from', journal, '--time-scale', '0.1', '--data-api', serviceUrl, '--token-file', tokenFile];
          again = await runObserve([...args, '--report-dir', join(dir, 'from')]);
        },
      });
      const replay = JSON.parse(readFileSync(join(dir, 'from', 'conformance.json'), 'utf8')) as Report;
      for (const c of ['ENV-1', 'STATE-4', 'STATE-8'])
        expect(statusOf(replay, c), `${c}: ${reasonsOf(replay, c)}\n${again?.out}`).toBe('passed');
      expect(again?.code, again?.out).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'observe --data-api reads back the draft a config.saved named: completedAt set (ENV-3), and fails a service leaving it null (ENV-3)',
  { tag: clauseTags('ENV-3') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 3);
    const clean = await observed({ timeScale: 0.1, injects: ['onComplete=503,503'], dataApi: true });
    expect(statusOf(clean.report, 'ENV-3'), `${reasonsOf(clean.report, 'ENV-3')}\n${clean.out}`).toBe('passed');
    const broken = await observed({
      faults: ['draft-completed-at-null'],
      timeScale: 0.1,
      injects: ['onComplete=503,503'],
      dataApi: true,
    });
    expect(failedOf(broken.report), broken.out).toEqual(['ENV-3']);
  },
);

const MS = 1_000_000n;
/** An onComplete attempt on the mock host's clock (ms): its arrival, and its answer and end when it ended. */
function attempt(n: number, arrivedMs: number, end?: { ms: number; status?: number; fault?: string }): JournalEntry {
  const e = {
    seq: n,
    kind: 'lifecycle',
    event: 'onComplete',
    deliveryId: 'lc-7-onComplete',
    attempt: n,
    arrival: { monoNs: String(BigInt(arrivedMs) * MS), wallMs: arrivedMs, iso: '' },
    ...(end
      ? {
          response: { ...(end.status ? { status: end.status } : {}), ...(end.fault ? { fault: end.fault } : {}) },
          finished: { monoNs: String(BigInt(end.ms) * MS), wallMs: end.ms, outcome: 'answered' },
        }
      : {}),
  };
  return e as unknown as JournalEntry;
}

test('observe --idle waits until the retry an injected answer made due may come, then no longer (DELIV-8)', () => {
  const timing = makeTiming(0.1, DEFAULT_TOLERANCES);
  // the back-off before attempt 2 at 0.1: 500 ms, with its 400 ms floor of tolerance and the 2 s slack
  const after1 = BigInt(1_000 + 500 + 400 + HARNESS_SLACK_MS) * MS;
  expect(retriesDueUntilNs([attempt(1, 900, { ms: 1_000, status: 503 })], timing)).toBe(after1);
  // answered 2xx: nothing is due; a later attempt came: the earlier one's retry is no longer awaited
  expect(retriesDueUntilNs([attempt(1, 900, { ms: 1_000, status: 200 })], timing)).toBeUndefined();
  const two = [attempt(1, 900, { ms: 1_000, status: 503 }), attempt(2, 1_600, { ms: 1_700, status: 200 })];
  expect(retriesDueUntilNs(two, timing)).toBeUndefined();
  // the second back-off (2 s at 0.1) after a reset of attempt 2; none after attempt 3
  const reset = [attempt(1, 900, { ms: 1_000, status: 503 }), attempt(2, 1_600, { ms: 1_700, fault: 'reset' })];
  expect(retriesDueUntilNs(reset, timing)).toBe(BigInt(1_700 + 2_000 + 500 + HARNESS_SLACK_MS) * MS);
  expect(retriesDueUntilNs([attempt(3, 900, { ms: 1_000, status: 503 })], timing)).toBeUndefined();
  // still held: it ends by the 10 s timeout (1 s at 0.1, with its tolerance), and its retry is due after that
  const heldUntil = 900 + 1_000 + 400;
  expect(retriesDueUntilNs([attempt(1, 900)], timing)).toBe(BigInt(heldUntil + 500 + 400 + HARNESS_SLACK_MS) * MS);
});
