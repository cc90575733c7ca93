/**
 * DELIV-13 from traffic: onCompletes of two conversations naming one key carry two delivery ids; one id
 * shared by both fails the clause, and retries of one conversation's delivery (one id) decide nothing.
 */
import { test, expect } from '@playwright/test';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { Verdicts } from '../../../judge/service/index.ts';
import { judgeRepeatCompletions } from '../../../judge/service/repeat-completions.ts';

let seq = 0;
function onComplete(
  conversationId: unknown,
  deliveryId: string,
  serviceKeys: string[],
  workspaceKey: unknown = 'ws-a',
): JournalEntry {
  const json = { event: 'onComplete', workspaceKey, conversationId, serviceKeys };
  return { seq: ++seq, kind: 'lifecycle', event: 'onComplete', deliveryId, json } as unknown as JournalEntry;
}

function outcomes(entries: JournalEntry[]): string[] {
  const v = new Verdicts();
  judgeRepeatCompletions(entries, v);
  return [...v.clauses()].flatMap(([clause, records]) => records.map((r) => `${clause} ${r.outcome}`));
}

test('a key completed again in a later conversation under a new delivery id holds DELIV-13; under the same id it fails', () => {
  const first = onComplete(1, 'lc-1-onComplete', ['sk-1', 'sk-2']);
  expect(outcomes([first, onComplete(2, 'lc-2-onComplete', ['sk-2'])])).toEqual(['DELIV-13 passed']);
  expect(outcomes([first, onComplete(2, 'lc-1-onComplete', ['sk-2'])])).toEqual(['DELIV-13 failed']);
  // a retry of the first delivery, and another key of another conversation: nothing to decide
  expect(
    outcomes([first, onComplete(1, 'lc-1-onComplete', ['sk-1', 'sk-2']), onComplete(3, 'lc-3-onComplete', ['sk-3'])]),
  ).toEqual([]);
});

test('conversations and workspaces are told apart as JSON values: 7 and "7", equal objects, "\\u0000x" and "x" (DELIV-13)', () => {
  const shared = (a: unknown, b: unknown) =>
    outcomes([onComplete(a, 'lc-x-onComplete', ['sk-1']), onComplete(b, 'lc-x-onComplete', ['sk-1'])]);
  expect(shared(7, '7')).toEqual(['DELIV-13 failed']);
  expect(shared('\u0000x', 'x')).toEqual(['DELIV-13 failed']);
  expect(shared({ a: 1 }, '{"a":1}')).toEqual(['DELIV-13 failed']);
  // one conversation, however its id is written in memory: a retry, nothing to decide
  expect(shared({ a: 1 }, { a: 1 })).toEqual([]);
  expect(shared(null, undefined)).toEqual([]);
  // one key in two workspaces is two keys
  expect(
    outcomes([onComplete(1, 'lc-1-onComplete', ['sk-1'], 'ws-a'), onComplete(2, 'lc-1-onComplete', ['sk-1'], 'ws-b')]),
  ).toEqual([]);
});
