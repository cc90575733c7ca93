/**
 * The shapes of a test workspace (workspace.ts): what a test asks for, what it gets, how its waits judge a
 * deadline, and the default classes.
 */
import type { EntryFilter, JournalEntry, MockHost } from '../../../mock-host/index.ts';
import type { ClassDef, DriverClient, FieldDef } from '../../../target/clients/driver-client.ts';
import type { EvidenceLog } from './evidence.ts';
import type { Timing } from '../../../target/service/timing.ts';
import type { ResolvedTarget } from '../../../target/service/resolve.ts';
import type { ClauseRef } from '../../shared/index.ts';
import type { ServiceCheckId } from '../../../spec/index.ts';

/** The default classes (suites-api): a SETTING, a LIST with an identity field, and FACTS via WorkspaceOptions.facts. */
export const DEFAULT_CLASSES: ClassDef[] = [
  {
    configEnd: '/profile',
    kind: 'SETTING',
    fields: [
      { name: 'name', type: 'string', comment: 'Full name' },
      { name: 'email', type: 'string', comment: 'Contact email' },
      { name: 'age', type: 'integer', comment: 'Age in years' },
      { name: 'newsletter', type: 'boolean', comment: 'Wants the newsletter' },
    ],
  },
  {
    configEnd: '/addresses',
    kind: 'LIST',
    identityField: 'label',
    fields: [
      { name: 'label', type: 'string', required: true, comment: 'Unique label of the address' },
      { name: 'street', type: 'string', comment: 'Street and number' },
      { name: 'city', type: 'string', comment: 'City' },
    ],
  },
];
export const DEFAULT_FACTS_FIELDS: FieldDef[] = [
  { name: 'preferredLanguages', type: 'array', comment: 'Language names in English, most preferred first' },
  { name: 'company', type: 'string', comment: 'Employer of the user' },
];

export type SigningOption = { mode: 'none' } | { mode: 'hmac'; secret?: string } | { mode: 'jwks' };
export interface WorkspaceOptions {
  signing?: SigningOption;
  /** Default: the mock host's url (a sandbox: inherited from its parent, HOOK-3); null: none. */
  hostBaseUrl?: string | null;
  /**
   * Default: a unique '/hooks/<random>' registered on the mock host; null: none. A sandbox inherits its parent's
   * (HOOK-2).
   */
  hookPath?: string | null;
  classes?: ClassDef[];
  parent?: TestWorkspace;
  facts?: { callback?: string; schemaFields?: FieldDef[] } | false;
  tools?: Array<{ toolClass: string; path: string }>;
}

/**
 * How a wait judges its deadline: with `clause`, the arrival is a check of that clause (a missing
 * callback fails it); with `lenient`, whatever arrived is returned for the test's own checks;
 * otherwise the arrival is a precondition of the test (a miss leaves its clauses blocked).
 */
export interface WaitOptions {
  count?: number;
  deadlineMs?: number;
  clause?: ClauseRef;
  lenient?: boolean;
  /** With `clause`: the check's id in the fault model (spec/faults/service.yaml). */
  id?: ServiceCheckId;
  /** The rule the arrival is, in the contract's words (default: "N callback(s) matching ... arrive within ... ms"). */
  rule?: string;
}

export interface TestWorkspace {
  workspaceKey: string;
  workspaceId: string;
  apiKey: string;
  bearerToken: string;
  embedAuthorization: string;
  hookPath: string | null;
  hostBaseUrl: string | null;
  factsPath: string | null;
  signing: { mode: 'none' | 'hmac' | 'jwks'; secret?: string; kid?: string };
  classes: ClassDef[];
  tools: Array<{ toolClass: string; path: string }>;
  parent?: TestWorkspace;
  /** Lifecycle entries of this workspace's hookPath (a sandbox: those naming its workspaceKey). */
  callbacks(filter?: EntryFilter): JournalEntry[];
  waitForCallbacks(filter: EntryFilter, o?: WaitOptions): Promise<JournalEntry[]>;
  /** A check of `clause`: nothing matching arrives within the window (default: the quiet window). */
  expectNoCallbacks(
    filter: EntryFilter,
    o: { clause: ClauseRef; windowMs?: number; rule?: string; id?: ServiceCheckId },
  ): Promise<boolean>;
  factsRequests(): JournalEntry[];
  waitForFactsRequests(o?: WaitOptions): Promise<JournalEntry[]>;
  /** Entries of one of this workspace's tool routes. */
  toolRequests(toolClass?: string): JournalEntry[];
}

export interface WorkspaceContext {
  target: ResolvedTarget;
  host: MockHost;
  driver: DriverClient;
  timing: Timing;
  evidence: EvidenceLog;
}
