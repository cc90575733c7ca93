/** The names a check's words give a journal entry. */
import type { JournalEntry } from '../../../mock-host/index.ts';
import { eventOf } from './scenario.ts';

/** The event an entry is about, for the words of a check ("onStart", "config.saved"). */
export const nameOf = (e: JournalEntry): string => eventOf(e) ?? 'a lifecycle callback without an event';

/** The event a callback is, for the words of a rule ("onStart", else its place in the journal). */
export const callbackName = (e: JournalEntry): string => eventOf(e) ?? `callback #${e.seq}`;
