/**
 * The harness's service side in the host direction, as its users see it (the data API and the JWKS key source
 * every request to which is journalled): the host judge reads the journal, the harness serves it
 * (suites/host/harness/service-side.ts; a view of one shared by workers, remote-service-side.ts there).
 */
import type { JWK } from 'jose';
import type { CryptoKey, KeyObject } from '../../protocol/index.ts';

/** The key source of section 5.2, on the service's base URL. */
export const JWKS_PATH = '/.well-known/service/jwks.json';

/** A JWKS-mode key the harness signs with (suites/host/harness/run-keys.ts makes them). */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey | KeyObject;
  publicJwk: JWK;
}

/** The key the document publishes, a decoy it publishes under another kid, and a stranger it never publishes. */
export interface RunKeys {
  key: SigningKey;
  decoy: SigningKey;
  stranger: SigningKey;
  /** A declared sandbox workspace's own key, published under its own kid in the same document (5.2). */
  sandbox?: SigningKey;
}

export interface DataRead {
  seq: number;
  /** Monotonic arrival time in ms (performance.now() of the process serving the data API). */
  atMs: number;
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey: string | null;
  status: number;
  /**
   * The status was one a test scripted for this key (script()): the read was made and answered as the test
   * wanted, whatever the status (the ledger counts it as a read of the key, HOST-13).
   */
  scripted?: true;
  /** The request path as sent (no query): the observer's evidence (read-rules.ts). */
  path: string;
  /** Whether the path is a data API read path with well-formed percent-encoding (HOST-13). */
  wellFormed: boolean;
  /** The Authorization header: the run's Bearer token, none, or another value (never recorded itself). */
  bearer: 'sent' | 'missing' | 'other';
}

/** A slow data API: the next `reads` reads of a key (all by default) answered `ms` after they arrive. */
export interface ReadHold {
  ms: number;
  reads?: number;
}

export interface JwksFetch {
  seq: number;
  atMs: number;
  /** The request as sent (method and path, no query): the observer judges it (read-rules.ts, HOST-8). */
  method: string;
  path: string;
  /** A GET of the document's own path, answered with the document: the only fetch that can see a new key. */
  served: boolean;
}

export interface ServiceSideOptions {
  port?: number;
  host?: string;
  workspaceKey: string;
  /** A sandbox workspace of it (2.1 "sb-"), whose records the data API serves under its own workspaceKey. */
  sandboxWorkspaceKey?: string;
  bearerToken: string;
  /** Serves the control routes under a path holding this token (a service side shared by workers). */
  controlToken?: string;
}

export interface ServiceSide {
  url: string;
  jwksUrl: string;
  readonly reads: readonly DataRead[];
  readonly jwksFetches: readonly JwksFetch[];
  /** The control address when shared by workers (holds its token: never printed). */
  controlUrl?: string;
  /**
   * Records the receiver may read: the keys announced in an onComplete (or saved by a config.saved) for
   * this user. Resolves once the data API serves them (at once in-process, after a round trip when shared),
   * with the journal position at the announcement: a read journalled later may follow this callback. With
   * no keys it serves nothing and only tells the position. The records are the workspace's (default: the
   * production one): a sandbox's are read under its own workspaceKey (section 7's path).
   */
  announce(endUserHandle: string, serviceKeys: readonly string[], workspaceKey?: string): Promise<number>;
  /**
   * Answers the next reads of one key with these statuses, in order, before the envelope; with a
   * hold, the next `reads` reads of the key (every one by default) are answered only `ms` after they
   * arrived (a slow data API).
   */
  script(endUserHandle: string, serviceKey: string, statuses: readonly number[], hold?: ReadHold): Promise<void>;
  /**
   * Ends the hold of a key: reads held now are answered at once, later reads are not held. A test that
   * needs a read held while something else happens holds it long and releases it when that is over,
   * so the evidence does not depend on how fast the machine is (PITFALLS "Timing").
   */
  release(endUserHandle: string, serviceKey: string): Promise<void>;
  setJwks(keys: readonly JWK[]): Promise<void>;
  /**
   * Publishes a key (a rotation) and resolves with the journal position at publication: every
   * JWKS fetch journalled after it (seq greater) was served a document holding the key (HOST-8).
   */
  addJwk(key: JWK): Promise<number>;
  /**
   * A service side shared by workers: the keys every worker signs with, published from the start
   * (suites/host/harness/run-keys.ts). undefined: a worker's own service side, whose worker makes and
   * publishes its keys.
   */
  runKeys(): Promise<RunKeys | undefined>;
  /** Resolves with the first entry (existing or future) matching, or undefined at the deadline. */
  waitForRead(pred: (r: DataRead) => boolean, deadlineMs: number): Promise<DataRead | undefined>;
  waitForJwksFetch(afterSeq: number, deadlineMs: number): Promise<JwksFetch | undefined>;
  /** Brings `reads` and `jwksFetches` up to what the server journalled so far (a round trip when shared). */
  sync(): Promise<void>;
  close(): Promise<void>;
}
