/**
 * Section 3's transition table and section 6's event sequences as data: the rows the model-based
 * test records when a step of a sequence exercised them (coverage.ts), one entry per row of the
 * contract's tables, in its own words. A row whose from-state reads "PENDING or DELIVERED" is two
 * rows here: a delete of a DELIVERED record is a state of its own to reach. The mixed situations
 * are no row of the contract: they are triggers over mixed scopes where two of its rows meet.
 *
 * A trigger the driver lets the harness either scope itself or leave to the service (the keys of a
 * completion, the records of a scope delete: spec/driver.openapi.yaml's defaults) exercises its row only
 * when the service decided: a row names that decision, and a step that named it instead is shown beside
 * the count, never in it (coverage.ts).
 */
import { ccsError } from '../../../spec/index.ts';

export type RowKind = 'record' | 'conversation' | 'mixed';

/**
 * Who decided what a trigger covers: the service, from its own tracking (the driver's default: the
 * instances a conversation touched, the user's records at a configEnd), or the harness, naming it.
 */
export type DecidedBy = 'service' | 'harness';

export interface TransitionRow {
  id: string;
  kind: RowKind;
  /** The contract's words (section 3); a mixed situation says what it combines. */
  from: string;
  trigger: string;
  condition: string;
  to: string;
  also: string;
  /** Driver capabilities the trigger needs (a target lacking one leaves the row out, with that reason). */
  capabilities: readonly string[];
  /** What the trigger leaves the service to decide: the row counts only the steps where the service did. */
  decision?: string;
}

const CHAT = ['conversations', 'turns'];
/** The decisions a completion and a scope delete leave to the service (the driver's defaults). */
const KEYS = 'the keys of the completion';
const SCOPE = 'the records of the scope';

/** A row of section 3's tables: the state moves it makes, and what the service decides in it, if anything. */
const rowOf = (
  kind: 'record' | 'mixed',
  id: string,
  [from, trigger, condition, to, also]: [string, string, string, string, string],
  capabilities: readonly string[],
  decision?: string,
): TransitionRow => ({
  id,
  kind,
  from,
  trigger,
  condition,
  to,
  also,
  capabilities,
  ...(decision !== undefined ? { decision } : {}),
});

const record = (
  n: number,
  from: string,
  trigger: string,
  to: string,
  condition: string,
  also: string,
  capabilities: readonly string[],
  short: string,
  decision?: string,
): TransitionRow =>
  rowOf('record', `T${n} ${from} --${short}--> ${to}`, [from, trigger, condition, to, also], capabilities, decision);

const move = (id: string, trigger: string, event: string, capabilities: readonly string[]): TransitionRow => ({
  id,
  kind: 'conversation',
  from: '',
  trigger,
  condition: '',
  to: '',
  also: event,
  capabilities,
});

const mixed = (
  id: string,
  from: string,
  trigger: string,
  condition: string,
  to: string,
  also: string,
  capabilities: readonly string[],
  decision?: string,
): TransitionRow => rowOf('mixed', id, [from, trigger, condition, to, also], capabilities, decision);

const SAVE_ALSO = 'config.saved fires once per touched instance per turn.';
const DONE =
  "User confirms done (confirmation or done-control click), or the origin task's session closes with " +
  'the work finalized';
const EDIT_ALSO =
  'config.saved fires with callbackStatus DELIVERED; a later completion through the chat fires ' +
  'another onComplete with a new delivery id for the same key.';
const DELETE_ALSO = 'The record is gone (GET by key returns 404); config.deleted fires.';
const SCOPE_ALSO =
  'config.bulk_deleted fires, in pages of 500 keys; for a small scope config.deleted also fires ' + 'per key.';

/** Section 3, "Transitions" (record rows) and "Conversation-level moves". */
export const TRANSITIONS: readonly TransitionRow[] = [
  record(1, '(none)', 'Chat save', 'PENDING', 'Fields saved to an instance in a turn', SAVE_ALSO, CHAT, 'chat save'),
  record(
    2,
    '(none)',
    'Host REST write (POST data route)',
    'PENDING',
    'Always',
    'No event fires (neither onComplete nor config.saved).',
    [],
    'host REST write',
  ),
  record(
    3,
    'PENDING',
    DONE,
    'DELIVERED',
    'Always',
    'onComplete fires with the key(s).',
    [...CHAT, 'complete'],
    'complete',
    KEYS,
  ),
  record(
    4,
    'DELIVERED',
    'Chat save (an edit after completion)',
    'DELIVERED',
    'Fields saved',
    EDIT_ALSO,
    [...CHAT, 'complete'],
    'chat save',
  ),
  record(
    5,
    'PENDING',
    'User deletes the instance through the chat',
    'removed',
    'Single instance',
    DELETE_ALSO,
    [...CHAT, 'delete'],
    'chat delete',
  ),
  record(
    6,
    'DELIVERED',
    'User deletes the instance through the chat',
    'removed',
    'Single instance',
    DELETE_ALSO,
    [...CHAT, 'complete', 'delete'],
    'chat delete',
  ),
  record(
    7,
    'PENDING',
    'User deletes a whole scope in one confirmed action',
    'removed',
    'Always',
    SCOPE_ALSO,
    [...CHAT, 'bulk-delete'],
    'scope delete',
    SCOPE,
  ),
  record(
    8,
    'DELIVERED',
    'User deletes a whole scope in one confirmed action',
    'removed',
    'Always',
    SCOPE_ALSO,
    [...CHAT, 'complete', 'bulk-delete'],
    'scope delete',
    SCOPE,
  ),
  move('C1 --fresh conversation--> onStart', 'A fresh conversation opens for an end user', 'onStart', [
    'conversations',
  ]),
  move(
    'C2 --closes without completing--> onSessionInterrupted',
    'A conversation closes without completing (abandoned on reopen, terminal error, tool timeout)',
    'onSessionInterrupted',
    ['conversations', 'interrupt'],
  ),
  move(
    'C3 --idle TTL sweep--> onSessionTimeout',
    'A conversation is swept after exceeding the idle TTL',
    'onSessionTimeout',
    ['conversations', 'idle-sweep'],
  ),
];

/** Triggers over mixed scopes: states the table's rows meet together. */
export const MIXED: readonly TransitionRow[] = [
  mixed(
    'M1 scope delete over PENDING and DELIVERED records',
    'PENDING and DELIVERED',
    'User deletes a whole scope in one confirmed action',
    'the scope holds records in both states',
    'removed',
    SCOPE_ALSO,
    [...CHAT, 'complete', 'bulk-delete'],
    SCOPE,
  ),
  mixed(
    'M2 completion after a chat delete of one of several touched instances',
    'PENDING',
    DONE,
    'the conversation touched several instances and deleted one through the chat',
    'DELIVERED',
    'onComplete names the live instances only.',
    [...CHAT, 'complete', 'delete'],
    KEYS,
  ),
  mixed(
    'M3 interrupt or idle sweep after a turn that saved',
    'PENDING',
    'The conversation closes without completing, or is swept',
    'a turn of it saved fields',
    'PENDING',
    'onSessionInterrupted or onSessionTimeout; no onComplete.',
    CHAT,
  ),
  mixed(
    'M4 DELIVERED record edited, then completed again',
    'DELIVERED',
    DONE,
    'a chat save edited the record after its completion',
    'DELIVERED',
    'another onComplete with a new delivery id for the same key.',
    [...CHAT, 'complete'],
    KEYS,
  ),
];

export interface EventSequence {
  id: string;
  /**
   * Matched against a conversation's events in order, repeats of one event collapsed, space-separated; an
   * event of a trigger the harness scoped itself reads `named:<event>` (coverage.ts).
   */
  pattern: RegExp;
  capabilities: readonly string[];
  /** What its last trigger leaves the service to decide: counted only where the service did. */
  decision?: string;
}

const seq = (id: string, pattern: RegExp, capabilities: readonly string[], decision?: string): EventSequence => ({
  id,
  pattern,
  capabilities,
  ...(decision !== undefined ? { decision } : {}),
});

/** Section 6's events as the sequences one conversation sends (its "fires when" column, in order). */
export const EVENT_SEQUENCES: readonly EventSequence[] = [
  seq('E1 onStart, config.saved, onComplete', /^onStart config\.saved onComplete$/, [...CHAT, 'complete'], KEYS),
  seq('E2 onStart, config.saved, onSessionInterrupted', /^onStart config\.saved onSessionInterrupted$/, [
    ...CHAT,
    'interrupt',
  ]),
  seq('E3 onStart, config.saved, onSessionTimeout', /^onStart config\.saved onSessionTimeout$/, [
    ...CHAT,
    'idle-sweep',
  ]),
  seq('E4 onStart, onSessionInterrupted (nothing saved)', /^onStart onSessionInterrupted$/, [
    'conversations',
    'interrupt',
  ]),
  seq('E5 onStart, onSessionTimeout (nothing saved)', /^onStart onSessionTimeout$/, ['conversations', 'idle-sweep']),
  seq('E6 config.deleted, then onComplete', /config\.deleted.* onComplete$/, [...CHAT, 'delete', 'complete'], KEYS),
  seq(
    'E7 config.bulk_deleted in a conversation',
    /(^| )config\.bulk_deleted( |$)/,
    ['conversations', 'bulk-delete'],
    SCOPE,
  ),
];

/** The row of the table by its number (T3, C2, M1): the commands name rows by it. */
export function rowByShort(short: string): TransitionRow {
  const row = [...TRANSITIONS, ...MIXED].find((r) => r.id.startsWith(`${short} `));
  if (row === undefined) throw ccsError('MODEL_ROW_UNKNOWN', { row: short });
  return row;
}

/** Every entry coverage counts: the table's rows, the mixed situations and the event sequences. */
export function coverageRows(): ReadonlyArray<{ id: string; capabilities: readonly string[] }> {
  return [...TRANSITIONS, ...MIXED, ...EVENT_SEQUENCES];
}
