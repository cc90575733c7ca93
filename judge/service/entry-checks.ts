/**
 * The mock host's own checks of each entry (mock-host/checks.ts: method, headers, signature presence)
 * as the judge records them: each with the rule in words and the fault model's check id of the same rule.
 */
import type { EntryCheck } from '../../mock-host/index.ts';
import type { ServiceCheckId } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { at } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

/**
 * The header checks of the mock host (mock-host/checks.ts), by name and the clause it names: the fault
 * model's check id of the same rule. One name serves two clauses where the rule depends on the event (the
 * attempt header: counted on onComplete, HDR-4; absent on the others, HDR-5).
 */
const ENTRY_CHECK_IDS: Record<string, ServiceCheckId> = {
  'method HOOK-1': 'hook.post-to-hook-path',
  'content-type HDR-1': 'header.content-type',
  'event-header HDR-2': 'header.event-equals-body',
  'delivery-id HDR-3': 'header.delivery-id-form',
  'attempt-header HDR-4': 'delivery.attempt-numbering',
  'attempt-header HDR-5': 'header.attempt-only-oncomplete',
  'signature-present HDR-6': 'header.signature-exactly-when-on',
  'signature-absent SIGN-1': 'sign.absent-when-off',
};

/**
 * The words of each check (its id), made once, by name then clause: the judge of 100,000 callbacks builds
 * neither an object nor a key text per check, and a failure's words only for a check that failed.
 */
const ENTRY_CHECK_WORDS = new Map<string, Map<string, CheckWords>>();
for (const [key, id] of Object.entries(ENTRY_CHECK_IDS)) {
  const [name, clause] = key.split(' ') as [string, string];
  let byClause = ENTRY_CHECK_WORDS.get(name);
  if (!byClause) ENTRY_CHECK_WORDS.set(name, (byClause = new Map()));
  byClause.set(clause, { id });
}
const NO_ID: CheckWords = {};

/** The words (the check id) of one of the mock host's checks. */
export function entryCheckWords(c: EntryCheck): CheckWords {
  return ENTRY_CHECK_WORDS.get(c.name)?.get(c.clause) ?? NO_ID;
}

/** The rule of one of the mock host's checks, in words. */
export function ruleOf(name: string): string {
  switch (name) {
    case 'method':
      return 'a lifecycle callback is an HTTP POST';
    case 'content-type':
      return 'a lifecycle callback is sent with Content-Type application/json';
    case 'event-header':
      return 'X-Service-Event is present and equals body.event';
    case 'delivery-id':
      return 'X-Service-Delivery-Id is lc-<conversationId>-<event>';
    case 'attempt-header':
      return 'X-Service-Delivery-Attempt is 1, 2 or 3 on onComplete and absent on other events';
    case 'signature-present':
      return 'X-Service-Signature is present exactly when signing is enabled';
    case 'signature-absent':
      return 'with no signing mode, X-Service-Signature is absent';
    default:
      return name;
  }
}

const SIGNATURE_HDR_6: CheckWords = { id: 'header.signature-exactly-when-on' };

/** With signing off a header sent anyway also breaks HDR-6: the header is present exactly when signing is on. */
export function judgeAbsentAlsoHdr6(e: JournalEntry, ok: boolean, detail: string, v: Verdicts): void {
  v.that(
    'HDR-6',
    ruleOf('signature-present'),
    ok,
    SIGNATURE_HDR_6,
    ok ? undefined : () => ({ expected: 'no X-Service-Signature with signing off', seen: `${detail} (${at(e)})` }),
  );
}
