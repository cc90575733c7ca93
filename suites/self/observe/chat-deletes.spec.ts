/**
 * STATE-7 from the reads made as each config.deleted arrived (judge/service/chat-deletes.ts), on journal
 * entries written by hand: a 200 at arrival fails it, a 404 holds it, a 404 for a key a scope delete named
 * too decides nothing, a lone config.deleted of a scope delete's key is the scope's, and a saved journal
 * (no read at arrival) leaves it not exercised with the reason.
 */
import { test, expect } from '@playwright/test';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { Verdicts } from '../../../judge/service/index.ts';
import { judgeChatDeletes, NOT_AT_ARRIVAL } from '../../../judge/service/chat-deletes.ts';
import type { ArrivalReads } from '../../../judge/service/read-at-arrival.ts';
import type { ConfigEndForm } from '../../../spec/index.ts';

const WHERE = { workspaceKey: 'demo', configEnd: '/contacts', endUserHandle: 'u-1' };

function entry(seq: number, payload: Record<string, unknown>): JournalEntry {
  const json = { ...WHERE, conversationId: 1, timestamp: '2026-01-01T00:00:00.000', ...payload };
  const e = { seq, kind: 'lifecycle', deliveryId: `d-${seq}`, bodySha256: `h-${seq}`, json, headers: {} };
  return { ...e, event: payload.event } as unknown as JournalEntry;
}
const deleted = (seq: number, serviceKey: string) => entry(seq, { event: 'config.deleted', serviceKey });
const scope = (seq: number, keys: string[]) =>
  entry(seq, { event: 'config.bulk_deleted', count: keys.length, page: 1, totalPages: 1, keys });
const reads = (list: Array<[number, string, number]>): ArrivalReads =>
  new Map(list.map(([seq, serviceKey, status]) => [seq, { ...WHERE, serviceKey, byForm: { 'with-slash': status } }]));

/** STATE-7's outcomes; `proven` is the path form a completed record proved by reading back 200 (read-back.ts). */
function judged(
  callbacks: JournalEntry[],
  arrival: ArrivalReads | undefined,
  proven = new Map<string, ConfigEndForm>([['demo', 'with-slash']]),
): Array<{ outcome: string; reason?: string }> {
  const v = new Verdicts();
  judgeChatDeletes(callbacks, arrival, proven, v);
  return v.clauses().get('STATE-7') ?? [];
}

function outcomes(callbacks: JournalEntry[], arrival: ArrivalReads | undefined): string[] {
  return judged(callbacks, arrival).map((c) => `${c.outcome}${c.reason ? `: ${c.reason}` : ''}`);
}

test('a record read 200 as its config.deleted arrives fails, one read 404 holds (STATE-7)', () => {
  expect(outcomes([deleted(1, 'k1')], reads([[1, 'k1', 200]]))).toEqual(['failed']);
  expect(outcomes([deleted(1, 'k1')], reads([[1, 'k1', 404]]))).toEqual(['passed']);
});

test('a 404 for a key a later scope delete named decides nothing; a 200 still fails (STATE-7)', () => {
  const traffic = [deleted(1, 'k1'), scope(2, ['k1']), deleted(3, 'k1')];
  const [only, ...rest] = outcomes(traffic, reads([[1, 'k1', 404]]));
  expect(rest).toEqual([]);
  expect(only).toMatch(/^not-exercised: .*a scope delete named it too/);
  expect(outcomes(traffic, reads([[1, 'k1', 200]]))).toEqual(['failed']);
});

test("a lone config.deleted of a key a scope delete named is the scope's, not a chat delete (STATE-7)", () => {
  expect(outcomes([deleted(1, 'k1'), scope(2, ['k1'])], reads([[1, 'k1', 200]]))).toEqual([]);
  expect(outcomes([scope(1, ['k1']), deleted(2, 'k1'), deleted(3, 'k1')], reads([[2, 'k1', 200]]))).toEqual([]);
});

test('a saved journal, read nothing at arrival, leaves a chat delete not exercised with the reason (STATE-7)', () => {
  expect(outcomes([deleted(1, 'k1')], undefined)).toEqual([`not-exercised: ${NOT_AT_ARRIVAL}`]);
  expect(outcomes([deleted(1, 'k1')], new Map())[0]).toMatch(/^not-exercised: key k1 could not be read/);
});

test('a 404 under no configEnd form a 200 proved decides nothing; a 200 at arrival proves its form (STATE-7)', () => {
  expect(judged([deleted(1, 'k1')], reads([[1, 'k1', 404]]), new Map()).map((c) => c.reason)).toEqual([
    'key k1 read {"with-slash":404} as #1 config.deleted d-1 arrived, under no configEnd form proven by a 200',
  ]);
  expect(judged([deleted(1, 'k1')], reads([[1, 'k1', 200]]), new Map()).map((c) => c.outcome)).toEqual(['failed']);
});
