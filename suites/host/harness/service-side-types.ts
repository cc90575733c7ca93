/** The harness's service side in the host direction, as its users see it (service-side.ts serves it). */
export interface DataRead {
  seq: number;
  /** Monotonic arrival time in ms (performance.now() of the process serving the data API). */
  atMs: number;
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey: string | null;
  status: number;
  /** The request path as sent (no query): the observer's evidence (observer.ts). */
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
}
