/**
 * Picks the step that answers a request: the first script whose match fits wins, in the order
 * added; its n-th match gets step n. When none answers, says why in words for each script.
 */
import type { ResponseScript, ScriptMatch, Step } from './definitions.ts';
import { explainStep } from './explain.ts';

export interface MatchSubject {
  path: string;
  method: string;
  kind: string;
  event?: string;
  deliveryId?: string;
  endUserHandle?: string;
  attempt?: number;
}

export type Pick =
  { kind: 'step'; step: Step; script: string; index: number; explain: string } | { kind: 'none'; unmatched: string };

function wantSentence(id: string, field: string, wanted: string, got: string | number | undefined): string {
  return `script '${id}' wants ${field} ${wanted}, this was ${got === undefined ? `no ${field}` : `${field} ${String(got)}`}`;
}

/** Why `m` does not match `s`, or undefined when it does. */
export function mismatch(id: string, m: ScriptMatch, s: MatchSubject): string | undefined {
  if (m.path !== undefined && m.path !== s.path) return wantSentence(id, 'path', m.path, s.path);
  if (m.method !== undefined && m.method.toUpperCase() !== s.method.toUpperCase())
    return wantSentence(id, 'method', m.method, s.method);
  if (m.kind !== undefined && m.kind !== s.kind) return wantSentence(id, 'kind', m.kind, s.kind);
  if (m.event !== undefined && m.event !== s.event) return wantSentence(id, 'event', m.event, s.event);
  if (m.deliveryId !== undefined && m.deliveryId !== s.deliveryId)
    return wantSentence(id, 'deliveryId', m.deliveryId, s.deliveryId);
  if (m.endUserHandle !== undefined && m.endUserHandle !== s.endUserHandle)
    return wantSentence(id, 'endUserHandle', m.endUserHandle, s.endUserHandle);
  if (m.attempt !== undefined) {
    const list = Array.isArray(m.attempt) ? m.attempt : [m.attempt];
    if (s.attempt === undefined || !list.includes(s.attempt))
      return wantSentence(id, 'attempt', list.join(' or '), s.attempt);
  }
  return undefined;
}

export class ScriptBook {
  private scripts: ResponseScript[] = [];
  private counters = new Map<string, number>();

  add(list: ResponseScript[]): void {
    for (const s of list) {
      // a script re-added under the same id replaces the old one and starts again at step 1
      this.scripts = this.scripts.filter((x) => x.id !== s.id);
      this.counters.delete(s.id);
      this.scripts.push(s);
    }
  }

  clear(): void {
    this.scripts = [];
    this.counters.clear();
  }

  get size(): number {
    return this.scripts.length;
  }

  list(): ResponseScript[] {
    return [...this.scripts];
  }

  pick(subject: MatchSubject): Pick {
    const reasons: string[] = [];
    for (const s of this.scripts) {
      const why = mismatch(s.id, s.match, subject);
      if (why) {
        reasons.push(why);
        continue;
      }
      const n = this.counters.get(s.id) ?? 0;
      this.counters.set(s.id, n + 1);
      let index = n;
      if (index >= s.steps.length) {
        if (s.then === 'repeat-last') index = s.steps.length - 1;
        else {
          reasons.push(
            `script '${s.id}' matched, but its ${s.steps.length} step(s) are used up (this was match ${n + 1}; then: default)`,
          );
          // used up: later scripts may still answer
          continue;
        }
      }
      const step = s.steps[index]!;
      return { kind: 'step', step, script: s.id, index, explain: explainStep(step) };
    }
    return { kind: 'none', unmatched: reasons.length ? reasons.join('; ') : 'no scripts loaded' };
  }
}
