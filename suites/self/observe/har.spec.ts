/**
 * `observe --from FILE.har`: the callbacks of a live run, exported as its journal and converted to a
 * HAR 1.2 file (to-har.ts), give the verdicts of the live run; a HAR without a raw body or without
 * arrival times leaves the clauses those decide not exercised with the reason, never failed.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clauseTags } from '../../../spec/index.ts';
import { runObserve } from './children.ts';
import { journalToHar } from './to-har.ts';
import { RUN_DEADLINE_MS, failedOf, observeTeamRun, signingFlags, statusOf, type Report } from './team-run.ts';

const TIME_SCALE = 0.1;

interface FullReport extends Report {
  clauses: Array<{ id: string; status: string; notExercisedReasons?: string[] }>;
}

const words = (r: Report) => r.clauses.map((c) => `${c.id} ${c.status}`);

test(
  'observe --from a HAR of a live run gives its verdicts; a HAR without bodies or times leaves their clauses ' +
    'not exercised with the reason, never failed (DELIV-8 DELIV-11 SIGN-4 SIGN-5)',
  { tag: clauseTags('DELIV-8', 'DELIV-11', 'SIGN-4', 'SIGN-5') },
  async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-har-'));
    try {
      const live = await observeTeamRun(dir, { timeScale: TIME_SCALE, injects: ['onComplete=503,503'] });
      expect(live.code, live.out).toBe(0);
      const journal = join(dir, 'live', 'journal.jsonl');
      const judge = async (name: string, har: Parameters<typeof journalToHar>[2]) => {
        const file = join(dir, `${name}.har`);
        journalToHar(journal, file, har);
        const r = await runObserve([
          '--from',
          file,
          '--hook-path',
          '/hooks/service',
          '--facts-path',
          '/user-facts',
          ...signingFlags(dir, 'hmac'),
          '--time-scale',
          String(TIME_SCALE),
          '--report-dir',
          join(dir, name),
        ]);
        const report = JSON.parse(readFileSync(join(dir, name, 'conformance.json'), 'utf8')) as FullReport;
        return { ...r, report };
      };
      const same = await judge('same', {});
      expect(same.code, same.out).toBe(0);
      expect(words(same.report)).toEqual(words(live.report));

      // the first onComplete attempt without its body: no series of callbacks is complete
      const first = readFileSync(journal, 'utf8')
        .split('\n')
        .filter((l) => l.trim() && !l.includes('observeEnd'))
        .findIndex((l) => (JSON.parse(l) as { event?: string }).event === 'onComplete');
      const bodiless = await judge('bodiless', { noBody: (i) => i === first });
      expect(failedOf(bodiless.report), bodiless.out).toEqual([]);
      for (const id of ['DELIV-8', 'DELIV-11', 'SIGN-5']) {
        const c = bodiless.report.clauses.find((x) => x.id === id)!;
        expect(c.status, id).toBe('not-exercised');
        expect(c.notExercisedReasons?.join(' '), id).toContain('carry no raw body (postData.text)');
      }
      expect(statusOf(bodiless.report, 'SIGN-12')).toBe('passed');

      const untimed = await judge('untimed', { noTimes: true });
      expect(failedOf(untimed.report), untimed.out).toEqual([]);
      for (const id of ['SIGN-4', 'DELIV-8']) {
        const c = untimed.report.clauses.find((x) => x.id === id)!;
        expect(c.status, id).toBe('not-exercised');
        expect(c.notExercisedReasons?.join(' '), id).toContain('no arrival time (startedDateTime)');
      }
      expect(statusOf(untimed.report, 'HDR-3')).toBe('passed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
