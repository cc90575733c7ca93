/** One sentence per step saying what it does, shown in every journal entry it answers. */
import type { ResponseScript, ScriptMatch, Step } from './definitions.ts';

function after(delayMs: number | undefined): string {
  return delayMs ? ` after ${delayMs} ms` : '';
}

function preview(body: unknown): string {
  const text =
    typeof body === 'string'
      ? `the raw text ${JSON.stringify(body.length > 40 ? body.slice(0, 37) + '...' : body)}`
      : `the JSON ${truncate(JSON.stringify(body))}`;
  return text;
}

function truncate(s: string | undefined): string {
  if (s === undefined) return 'undefined';
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

export function explainStep(step: Step): string {
  switch (step.action) {
    case 'respond':
      return `Answers ${step.status}${step.body !== undefined ? ` with ${preview(step.body)}` : ''}${after(step.delayMs)}.`;
    case 'hold':
      return `Holds the response for ${step.ms} ms, then answers ${step.thenStatus ?? 200} if the caller is still connected.`;
    case 'never':
      return 'Never answers: the request stays open until the caller gives up.';
    case 'reset':
      return 'Resets the TCP connection (RST) without answering.';
    case 'close':
      return 'Closes the connection (FIN) without answering.';
    case 'refuse':
      return `Resets this request and stops listening for ${step.ms} ms so new connections are refused, then listens again on the same port.`;
    case 'facts':
      return `Answers the facts GET with 200 and ${preview(step.body)}${after(step.delayMs)}.`;
    case 'factsNotFitting':
      return `Answers the facts GET with 200 and an object that does not fit the route's FACTS class${after(step.delayMs)}.`;
  }
}

export function explainMatch(m: ScriptMatch): string {
  const parts = Object.entries(m)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : String(v)}`);
  return parts.length ? parts.join(', ') : 'every request';
}

export function explainScript(s: ResponseScript): string {
  return `Script '${s.id}' matches ${explainMatch(s.match)}: ${s.steps.map((st, i) => `(${i + 1}) ${explainStep(st)}`).join(' ')} Then: ${s.then ?? 'default'}.`;
}
