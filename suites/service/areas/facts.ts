/**
 * What the user-facts tests (2.4, 4.1) share: scripting the host's facts answers, waiting for a fetch or for the
 * facts in effect, and watching that they do not change.
 */
import type { DriverClient, TestWorkspace, Timing } from '../fixtures.ts';
import { CONTRACT } from '../../../protocol/index.ts';
import { waitForEntries } from '../../../mock-host/index.ts';
import { uniqueId } from './scenario.ts';
import { holdsFor } from './wait.ts';
import { precondition, show } from '../../shared/index.ts';

export type Step = { action: 'facts'; body: unknown } | { action: 'never' } | { action: 'respond'; status: number };

/** Scripts the mock host's answers to the facts GETs of one end user. */
export function scriptFacts(
  host: { script(s: object): void },
  ws: TestWorkspace,
  endUserHandle: string,
  steps: Step[],
): void {
  host.script({ id: uniqueId('facts'), match: { path: ws.factsPath!, endUserHandle }, steps });
}

/** Opens a conversation and waits until the facts GET it fires has been answered (entry finished): a precondition. */
export async function openAndFetch(
  ws: TestWorkspace,
  driver: DriverClient,
  host: { journal: Parameters<typeof waitForEntries>[0] },
  timing: Timing,
  endUserHandle: string,
  nth: number,
) {
  const opened = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const v = await waitForEntries(
    host.journal,
    { path: ws.factsPath!, endUserHandle, completed: true },
    { count: nth, deadlineMs: timing.scaled(CONTRACT.factsTimeoutMs) + timing.deliveryDeadlineMs() },
  );
  precondition(v.ok, `the facts GET of open #${nth} is sent and answered`, {
    expected: `${nth} answered facts GET(s)`,
    seen: v.sentence,
  });
  return opened;
}

/**
 * Waits (with a deadline) until the facts in effect satisfy `taken`: the service has taken in a
 * good answer. A precondition: the rules these tests judge come after it.
 */
export async function factsInEffect(
  driver: DriverClient,
  ws: TestWorkspace,
  endUserHandle: string,
  timing: Timing,
  taken: (f: Record<string, unknown> | null) => boolean,
  what: string,
): Promise<void> {
  const until = performance.now() + timing.deliveryDeadlineMs();
  let last: unknown;
  for (let i = 0; ; i++) {
    last = (await driver.facts(ws, endUserHandle)).facts;
    if (taken(last as Record<string, unknown> | null)) return;
    if (performance.now() >= until) break;
    await new Promise((r) => setTimeout(r, [50, 100, 200][Math.min(i, 2)]));
  }
  precondition(false, what, {
    expected: 'the answer in effect within the delivery deadline',
    seen: `facts in effect ${show(last)}`,
  });
}

/**
 * Watches rules over a window (the facts in effect must NOT change): each rule gives what it saw
 * when it breaks, or undefined when it holds; its first breach is kept, and the test ends each
 * rule in one check (a breach is the rule's failure, whatever came after it).
 */
export async function breachesOver<T>(
  windowMs: number,
  read: () => Promise<T>,
  rules: Record<string, (v: T) => string | undefined>,
): Promise<Map<string, string>> {
  const breaches = new Map<string, string>();
  await holdsFor(windowMs, async () => {
    const v = await read();
    for (const [name, rule] of Object.entries(rules)) {
      if (breaches.has(name)) continue;
      const seen = rule(v);
      if (seen !== undefined) breaches.set(name, seen);
    }
  });
  return breaches;
}

/** JSON with object keys sorted: equal for deep-equal values whatever their key order. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
}

/** A good facts answer: an object that fits the FACTS class, with a language. */
export const GOOD = { preferredLanguages: ['German'], company: 'Acme' };
