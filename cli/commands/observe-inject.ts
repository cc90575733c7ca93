/**
 * `--inject EVENT=A,B,...`: the observer's answers per event and attempt, as mock-host response
 * scripts (mock-host/scripts/): the k-th item answers attempt k of every delivery of EVENT (the
 * attempt header on onComplete, else the count of identical sends, HDR-4 reading); later attempts
 * get the default answer. Items: a status (503), reset, close, or hold:MS (the answer 200 held MS ms
 * of contract time, scaled by --time-scale as the suites scale theirs: hold:15000 outlasts the
 * whole-request timeout of 10 s, DELIV-3 and DELIV-6).
 */
import { LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import { validateScripts, type ResponseScript, type Step } from '../../mock-host/index.ts';
import { ccsError } from '../../spec/index.ts';

const EVENTS = new Set<string>(LIFECYCLE_EVENTS);

function step(item: string, where: string, timeScale: number): Step {
  if (/^[1-5][0-9]{2}$/.test(item)) return { action: 'respond', status: Number(item) };
  if (item === 'reset' || item === 'close') return { action: item };
  const hold = /^hold:([0-9]+)$/.exec(item);
  if (hold) return { action: 'hold', ms: Math.round(Number(hold[1]) * timeScale) };
  throw ccsError('CLI_INJECT_ITEM_INVALID', { inject: where, item });
}

export function parseInjections(items: string[], timeScale = 1): ResponseScript[] {
  const scripts: ResponseScript[] = [];
  for (const raw of items) {
    const m = /^([A-Za-z._]+)=(.+)$/.exec(raw);
    if (!m) throw ccsError('CLI_INJECT_SHAPE_INVALID', { got: raw });
    const [, event, list] = m as unknown as [string, string, string];
    if (!EVENTS.has(event)) {
      throw ccsError('CLI_INJECT_EVENT_UNKNOWN', { inject: raw, event, known: [...EVENTS].join(', ') });
    }
    list.split(',').forEach((item, i) => {
      scripts.push({
        id: `inject-${event}-attempt-${i + 1}`,
        match: { kind: 'lifecycle', event, attempt: i + 1 },
        steps: [step(item.trim(), raw, timeScale)],
        then: 'repeat-last',
      });
    });
  }
  validateScripts(scripts);
  return scripts;
}
