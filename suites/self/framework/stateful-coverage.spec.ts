/**
 * The model-based test measures its own reach: the table of section 3's rows it records
 * (suites/service/stateful/transitions.ts) has one entry per row of the contract's tables, in the
 * contract's words; a default run against the reference service (its full capabilities, 48
 * sequences at time scale 0.1) exercises every row, every mixed-scope trigger and every event
 * sequence of section 6, and says so row by row; rows a target's driver cannot reach are left out
 * with the reason.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { Coverage, TRANSITIONS, runStateful, sequences, summarize } from '../../service/stateful/index.ts';
import { withStatefulEnv } from './stateful-env.ts';

/**
 * Section 3's tables as the contract prints them (copied: the contract is not shipped). A from-state
 * "PENDING or DELIVERED" is one entry per state in the data.
 */
const CONTRACT_ROWS = [
  '| (none) | Chat save | Fields saved to an instance in a turn | PENDING | config.saved fires once per' +
    ' touched instance per turn. |',
  '| (none) | Host REST write (POST data route) | Always | PENDING | No event fires (neither onComplete' +
    ' nor config.saved). |',
  "| PENDING | User confirms done (confirmation or done-control click), or the origin task's session " +
    'closes with the work finalized | Always | DELIVERED | onComplete fires with the key(s). |',
  '| DELIVERED | Chat save (an edit after completion) | Fields saved | DELIVERED | config.saved fires ' +
    'with callbackStatus DELIVERED; a later completion through the chat fires another onComplete with a ' +
    'new delivery id for the same key. |',
  '| PENDING or DELIVERED | User deletes the instance through the chat | Single instance | removed | ' +
    'The record is gone (GET by key returns 404); config.deleted fires. |',
  '| PENDING or DELIVERED | User deletes a whole scope in one confirmed action | Always | removed | ' +
    'config.bulk_deleted fires, in pages of 500 keys; for a small scope config.deleted also fires per ' +
    'key. |',
].join('\n');
const CONTRACT_MOVES = [
  '| A fresh conversation opens for an end user | onStart |',
  '| A conversation closes without completing (abandoned on reopen, terminal error, tool timeout) | ' +
    'onSessionInterrupted |',
  '| A conversation is swept after exceeding the idle TTL | onSessionTimeout |',
].join('\n');

const cells = (table: string) =>
  table
    .trim()
    .split('\n')
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );

test("the transition data holds one entry per row of section 3's tables, in the contract's words", () => {
  const want = cells(CONTRACT_ROWS).flatMap(([from, trigger, condition, to, also]) =>
    from!.split(' or ').map((f) => ({ from: f, trigger, condition, to, also })),
  );
  const rows = TRANSITIONS.filter((r) => r.kind === 'record').map(({ from, trigger, condition, to, also }) => ({
    from,
    trigger,
    condition,
    to,
    also,
  }));
  expect(rows).toEqual(want);
  const moves = TRANSITIONS.filter((r) => r.kind === 'conversation').map((r) => ({
    trigger: r.trigger,
    event: r.also,
  }));
  expect(moves).toEqual(cells(CONTRACT_MOVES).map(([trigger, event]) => ({ trigger, event })));
  // Ids are unique and name their from-state, trigger and to-state: T4 DELIVERED --chat save--> DELIVERED.
  expect(new Set(TRANSITIONS.map((r) => r.id)).size).toBe(TRANSITIONS.length);
  const records = TRANSITIONS.filter((x) => x.kind === 'record');
  for (const r of records) expect(r.id).toMatch(/^T\d+ \S+ --[a-zA-Z ]+--> \S+$/);
});

test("rows a target's driver cannot reach are left out with the capability, never counted as missed", () => {
  const caps = ['conversations', 'turns', 'complete', 'delete', 'interrupt', 'idle-sweep', 'workspaces'];
  const c = summarize(new Coverage(), caps);
  expect(c.excluded.map((x) => x.split(' ')[0])).toEqual(['T7', 'T8', 'M1', 'E7']);
  expect(c.excluded[0]).toContain('capability bulk-delete not offered by the target');
  expect(c.missed).not.toContain(expect.stringMatching(/^T7 /));
  expect(c.lines[0]).toMatch(/^section 3 transitions: 0\/9 exercised; not reached: T1 .*; left out: T7 /);
  // Below 100% the headline names the rows not reached, and each row says why it was left out.
  expect(c.headline).toMatch(/^transition coverage: 0\/18 reachable rows exercised \(0%\); not reached: T1 /);
  expect(c.rows.find((r) => r.startsWith('M1 '))).toMatch(/: left out \(capability bulk-delete not offered/);
  expect(c.rows.find((r) => r.startsWith('T1 '))).toMatch(/: 0 \(NOT REACHED\)$/);
  // No sequence of such a target holds a scope delete.
  const { commands, leftOut } = sequences(caps, 40);
  expect(leftOut).toEqual([
    'bulk-delete (capability bulk-delete)',
    'migration-hold (capability migration-hold)',
    'seed (capability seed-records)',
  ]);
  for (const s of fc.sample(commands, { numRuns: 60, seed: 3 })) {
    expect([...s].map((x) => String(x)).filter((x) => x.includes('whole') || x.includes('toward M1'))).toEqual([]);
  }
});

test('a row whose trigger leaves a decision to the service counts only the steps where the service decided', () => {
  const caps = ['conversations', 'turns', 'complete', 'delete', 'bulk-delete', 'interrupt', 'idle-sweep'];
  const c = new Coverage();
  c.row('T3', 'harness');
  c.row('T3', 'harness');
  c.row('T7', 'service');
  c.row('T7', 'harness');
  c.row('T1');
  expect(() => c.row('M2'), 'a row with a decision says who decided').toThrow(/say who did/);
  for (const [conversation, by] of [
    [1, 'harness'],
    [2, 'service'],
  ] as const) {
    c.event('s', conversation, 'onStart');
    c.event('s', conversation, 'config.saved');
    c.event('s', conversation, 'onComplete', by);
  }
  const sum = summarize(c, caps);
  const row = (short: string) => sum.rows.find((r) => r.startsWith(`${short} `));
  expect(row('T3')).toBe(
    'T3 PENDING --complete--> DELIVERED: 0 (NOT REACHED) where the service decided the keys of the completion; ' +
      '2 more with the keys of the completion named by the harness, not counted',
  );
  expect(sum.missed).toContain('T3 PENDING --complete--> DELIVERED');
  expect(row('T7')).toMatch(/: 1 where the service decided the records of the scope; 1 more with the records/);
  expect(row('T1')).toMatch(/: 1$/);
  expect(row('E1')).toMatch(/: 1 where the service decided the keys of the completion; 1 more with the keys/);
  expect(sum.lines[0]).toContain('T7 1 (+1 named)');
});

test(
  'a default model-based run against the reference service exercises every row of section 3, every mixed-scope ' +
    'trigger and every event sequence of section 6',
  async () => {
    test.setTimeout(240_000);
    await withStatefulEnv({}, async (env, capabilities) => {
      expect(env.target.timeScale).toBe(0.1);
      // The defaults of suites/service/combinations.spec.ts (48 sequences of at most 160 commands). The steered
      // steps (commands-steer.ts) make the rarest rows common, and leave what a row decides to the service: over
      // 9 default runs each row was exercised at least 16 times a run where the service decided (M2, M4), so a
      // miss is not a matter of luck.
      const outcome = await runStateful(env, { runs: 48, maxCommands: 160, budgetMs: 12_000 });
      expect(outcome.failure?.violation.message, outcome.failure?.script).toBeUndefined();
      const c = summarize(outcome.coverage, capabilities);
      expect(c.excluded, 'the reference service offers every capability a row needs').toEqual([]);
      expect(c.missed, c.lines.join('\n')).toEqual([]);
      expect(c.headline).toBe('transition coverage: 22/22 reachable rows exercised (100%)');
      expect(c.lines[0]).toMatch(/^section 3 transitions: 11\/11 exercised/);
      expect(c.lines[1]).toMatch(/^mixed-scope triggers: 4\/4 exercised/);
      expect(c.lines[2]).toMatch(/^section 6 event sequences: 7\/7 exercised/);
      // Every row is named whole with its count; a row whose trigger leaves a decision to the service counts the
      // steps where the service decided, those where the harness named it beside the count, not in it.
      expect(c.rows).toHaveLength(22);
      for (const r of c.rows)
        expect(r).toMatch(/^(T|C|M|E)\d+ .+: [1-9]\d*( where the service decided [^;]+(; \d+ more .+)?)?$/);
      for (const short of ['T3', 'T7', 'T8', 'M1', 'M2', 'M4', 'E1', 'E6', 'E7'])
        expect(c.rows.find((r) => r.startsWith(`${short} `))).toMatch(/ where the service decided the (keys|records) /);
    });
  },
);
