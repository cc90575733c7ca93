/**
 * Shared driver scenarios of the area specs: unique handles, and one run that makes the service
 * fire every lifecycle event of section 6 for one workspace (so each payload/header clause gets
 * its own small test over real deliveries).
 */
import { randomBytes } from 'node:crypto';
import type { DriverClient, TestWorkspace } from '../fixtures.ts';
import type { WaitOptions } from '../clients/workspace.ts';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { header, payload } from '../../../judge/service/journal.ts';

export function uniqueHandle(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/**
 * One address of `endUserHandle` created through the driver's seed (a REST write's answer body is not shown, so a
 * record whose serviceKey a test needs is seeded); resolves with its serviceKey.
 */
export async function seedAddress(
  driver: DriverClient,
  ws: TestWorkspace,
  endUserHandle: string,
  fields?: Record<string, unknown>,
): Promise<string> {
  const { serviceKeys } = await driver.seed(ws, {
    configEnd: '/addresses',
    endUserHandle,
    count: 1,
    ...(fields ? { fields } : {}),
  });
  return serviceKeys[0]!;
}

/**
 * The event an entry is about, read leniently (body event, header, or a misnamed eventType) so a
 * fault in one of them fails only the test of that clause, not every wait (EVT-3, HDR-2).
 */
export function eventOf(e: JournalEntry): string | undefined {
  const p = payload(e);
  if (typeof p.event === 'string') return p.event;
  if (typeof p.eventType === 'string') return p.eventType;
  return header(e, 'x-service-event') ?? e.event;
}

export function isEvent(event: string, endUserHandle?: string): (e: JournalEntry) => boolean {
  return (e) => eventOf(e) === event && (endUserHandle === undefined || payload(e).endUserHandle === endUserHandle);
}

/**
 * Waits for `count` callbacks of an event for a user. The arrival is a precondition of the test
 * unless `judge` says whose check it is ({ clause }) or that the caller judges it ({ lenient }).
 */
export async function waitEvent(
  ws: TestWorkspace,
  event: string,
  endUserHandle: string,
  count = 1,
  deadlineMs?: number,
  judge: Pick<WaitOptions, 'clause' | 'lenient' | 'rule' | 'id'> = {},
): Promise<JournalEntry[]> {
  const o: WaitOptions = { count, ...judge };
  if (deadlineMs !== undefined) o.deadlineMs = deadlineMs;
  return ws.waitForCallbacks({ predicate: isEvent(event, endUserHandle) }, o);
}

/**
 * One chat that saves one instance and completes it; resolves once its onComplete has arrived.
 * The arrival is a precondition unless `judge` names the clause whose rule it is.
 */
export async function saveAndComplete(
  ws: TestWorkspace,
  driver: DriverClient,
  o: { endUserHandle: string; configEnd: string; fields: Record<string, unknown> },
  judge: Pick<WaitOptions, 'clause' | 'rule' | 'id'> = {},
): Promise<{ key: string; onComplete: JournalEntry }> {
  const c = await driver.open(ws, { endUserHandle: o.endUserHandle, configEnd: o.configEnd });
  const {
    serviceKeys: [key],
  } = await driver.turn(c.conversationId, [{ fields: o.fields }]);
  await driver.complete(c.conversationId);
  const [onComplete] = await waitEvent(ws, 'onComplete', o.endUserHandle, 1, undefined, judge);
  return { key: key!, onComplete: onComplete! };
}

export interface EveryEventRun {
  endUserHandle: string;
  conversations: { completed: number; edited: number; swept: number };
  keys: { kept: string; deleted: string };
  byEvent: Map<string, JournalEntry[]>;
  all: JournalEntry[];
}

/**
 * conversation 1: open, a turn creating two /addresses instances, complete (onStart, 2 x config.saved,
 * onComplete); conversation 2: open, edit the completed key (config.saved DELIVERED), delete the other
 * (config.deleted), bulk-delete the scope (config.bulk_deleted), interrupt (onSessionInterrupted);
 * conversation 3: open, idle sweep (onSessionTimeout).
 */
export async function runEveryEvent(ws: TestWorkspace, driver: DriverClient): Promise<EveryEventRun> {
  const endUserHandle = uniqueHandle('every');
  const c1 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const saved = await driver.turn(c1.conversationId, [
    { configEnd: '/addresses', fields: { label: 'home', street: '1 Main Street' } },
    { configEnd: '/addresses', fields: { label: 'work', city: 'Lyon' } },
  ]);
  const [kept, deleted] = saved.serviceKeys as [string, string];
  await driver.complete(c1.conversationId);
  await waitEvent(ws, 'onComplete', endUserHandle);
  const c2 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  await driver.turn(c2.conversationId, [{ configEnd: '/addresses', serviceKey: kept, fields: { city: 'Paris' } }]);
  await driver.deleteRecord(c2.conversationId, deleted);
  await driver.bulkDelete(c2.conversationId, { configEnd: '/addresses' });
  await driver.interrupt(c2.conversationId);
  const c3 = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.idleSweep(c3.conversationId);
  const wants: Array<[string, number]> = [
    ['onStart', 3],
    ['config.saved', 3],
    ['onComplete', 1],
    ['config.deleted', 1],
    ['config.bulk_deleted', 1],
    ['onSessionInterrupted', 1],
    ['onSessionTimeout', 1],
  ];
  for (const [event, count] of wants) await waitEvent(ws, event, endUserHandle, count);
  const all = ws.callbacks({ predicate: (e) => payload(e).endUserHandle === endUserHandle });
  const byEvent = new Map<string, JournalEntry[]>();
  for (const e of all) {
    const ev = eventOf(e) ?? '(none)';
    byEvent.set(ev, [...(byEvent.get(ev) ?? []), e]);
  }
  return {
    endUserHandle,
    conversations: { completed: c1.conversationId, edited: c2.conversationId, swept: c3.conversationId },
    keys: { kept, deleted },
    byEvent,
    all,
  };
}

/** onStart, config.saved and onComplete of one fresh user (handles prefixed `prefix`), in that order. */
export async function threeEvents(ws: TestWorkspace, driver: DriverClient, prefix: string): Promise<JournalEntry[]> {
  const h = uniqueHandle(prefix);
  const c = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
  await driver.turn(c.conversationId, [{ fields: { name: 'Ada' } }]);
  await driver.complete(c.conversationId);
  return [
    ...(await waitEvent(ws, 'onStart', h)),
    ...(await waitEvent(ws, 'config.saved', h)),
    ...(await waitEvent(ws, 'onComplete', h)),
  ];
}
