/**
 * The model of what a service may do to a host's receiver (sections 4.1, 5.2, 6 and 7), and of what the host
 * must answer: a sequence of one signing mode works on a few conversations of a few users, each conversation's
 * events being deliveries (X-Service-Delivery-Id lc-<conversationId>-<event>, HDR-3; a bulk manifest's pages
 * share it). The model remembers which deliveries were acknowledged, which were only ever sent as bad copies,
 * which keys are held by the data API, which keys a rotation published and which users had a record deleted:
 * what the next step's answer must be follows from it (expect.ts), and what must follow over the data API is
 * the judge's (judge/host/duties.ts), given the exchanges.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../../protocol/index.ts';

/** Users and conversations of a sequence: conversation c belongs to user c % USERS. */
export const USERS = 2;
export const CONVERSATIONS = 3;

/** How the data API answers the reads of one key of an onComplete (section 7 statuses, 2.3 edge values). */
export const READ_SCRIPTS = ['plain', '409', '503', '404', '401', '400', 'data-null', 'held'] as const;
export type ReadScript = (typeof READ_SCRIPTS)[number];

/** The statuses a script answers before the record (held: the record, late until released). */
export const SCRIPT_STATUSES: Record<ReadScript, readonly number[]> = {
  plain: [],
  '409': [409],
  '503': [503],
  '404': [404],
  '401': [401],
  '400': [400],
  'data-null': [200],
  held: [],
};

/** A script after which the key is read 200 (the reads of the onComplete end handled, HOST-11's given). */
export const ENDS_READ: ReadonlySet<ReadScript> = new Set(['plain', '409', '503', 'data-null']);

/**
 * Who signs a genuine request (5.2): the current key or secret; the previous HMAC secret during its overlap
 * (HOST-9); in JWKS mode another kid the document publishes (an environment's own key), the key the last
 * rotation published (the current key in a sequence without one), or the key the first of two rotations
 * published, which the document still publishes (HOST-8: a rotation adds a key, every kid listed verifies).
 */
export type Signer = 'current' | 'previous' | 'other-kid' | 'rotated' | 'earlier-rotated';

/** A copy a correct verifier refuses (5.2): another key signed it, a body byte changed, t outside the window. */
export type BadKind = 'forged' | 'tampered' | 'replayed';

/** The events, from the contract's list (protocol/constants.ts LIFECYCLE_EVENTS, typed from spec/). */
export const EVENTS: readonly LifecycleEvent[] = LIFECYCLE_EVENTS;

/** One delivery: an event of a conversation (a page of a bulk manifest). */
export interface DeliveryRef {
  conv: number;
  event: LifecycleEvent;
  /** The bulk manifest's page (1 for every other event). */
  page: number;
}

export const deliveryName = (d: DeliveryRef): string =>
  `${d.event} of conversation#${d.conv}${d.event === 'config.bulk_deleted' ? ` page ${d.page}` : ''}`;

export const userOf = (conv: number): number => conv % USERS;

/**
 * With a sandbox workspace declared (2.1 "sb-"), the last conversation is the sandbox's: its deliveries carry the
 * sandbox's workspaceKey, reach the same hook (4.1 hookPath "identical across environments") and are signed with
 * the sandbox's own secret or kid (5.2), and the model expects the same answers as for production's.
 */
export const SANDBOX_CONV = CONVERSATIONS - 1;

/** What the host target offers the model: its signing mode and what that mode can sign with. */
export interface Offers {
  mode: 'hmac' | 'jwks' | 'none';
  /** HMAC: the host target declares a previous secret (an overlap, HOST-9). */
  previousSecret: boolean;
  /** The target serves user facts (a factsPath). */
  facts: boolean;
  /** The host target declares a sandbox workspace (its deliveries are SANDBOX_CONV's). */
  sandbox: boolean;
}

export class Model {
  /** Deliveries acknowledged, genuine (by deliveryName). */
  readonly acked = new Set<string>();
  /** Deliveries sent in any form, genuine or a bad copy. */
  readonly sent = new Set<string>();
  /** Deliveries with a bad copy sent. */
  readonly badSent = new Set<string>();
  /** The last delivery acknowledged, and the one before it (a redelivery after another). */
  last?: string;
  /** onComplete deliveries whose reads the data API holds, until released. */
  readonly held: string[] = [];
  /** Users a config.deleted of was acknowledged; users asked for facts. */
  readonly deleted = new Set<number>();
  readonly factsAsked = new Set<number>();
  /** A genuine callback signed with the current key or secret was acknowledged: the verifier works. */
  verifierSeen = false;
  /** JWKS keys published by rotations in this sequence. */
  rotations = 0;

  constructor(readonly offers: Offers) {}

  /** Whether a conversation is the sandbox workspace's. */
  inSandbox(conv: number): boolean {
    return this.offers.sandbox && conv === SANDBOX_CONV;
  }

  get signed(): boolean {
    return this.offers.mode !== 'none';
  }

  /** Whether a signer can sign in this sequence's mode now. */
  canSign(s: Signer): boolean {
    if (s === 'current') return true;
    if (s === 'previous') return this.offers.mode === 'hmac' && this.offers.previousSecret;
    if (s === 'other-kid') return this.offers.mode === 'jwks';
    if (s === 'earlier-rotated') return this.offers.mode === 'jwks' && this.rotations > 1;
    // 'rotated' signs with the newest key of the mode: the current key until a rotation published another.
    return true;
  }
}
