/** Requests at a hook path that are no lifecycle callback, each judged on the one clause it breaks. */
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from './journal.ts';
import { at } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

const TOOL_OWN_ROUTE: CheckWords = { id: 'tool.own-route' };
const ONLY_GET: CheckWords = { id: 'facts.only-get' };

/**
 * What came to the hook but is no lifecycle callback: a tool dispatch (TOOL-1: it goes to the tool's own
 * route) or a GET (FACTS-14: the facts fetch is the only GET, and it has its own path). Judged on that
 * clause alone, never as a callback whose payload and headers are all wrong.
 */
export function notACallback(e: JournalEntry, v: Verdicts): boolean {
  if (header(e, 'x-service-event') === 'tool.dispatch') {
    v.that('TOOL-1', "a tool dispatch goes to the tool's own route, never the callback hook", false, {
      ...TOOL_OWN_ROUTE,
      expected: "the tool's route",
      seen: `${e.method} ${e.path} (${at(e)})`,
    });
    return true;
  }
  if (e.method === 'GET') {
    v.that('FACTS-14', 'the user-facts fetch is the only GET the service sends to the host', false, {
      ...ONLY_GET,
      expected: 'no GET but the facts fetch, at the FACTS class callback path',
      seen: `GET ${e.url} (${at(e)})`,
    });
    return true;
  }
  return false;
}
