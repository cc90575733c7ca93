/**
 * The outcome of one request the harness sent to the receiver under test (a callback or a facts GET), as the
 * host judge reads it, and what an outcome says in words. The sending itself is the harness's
 * (suites/host/harness/send.ts): the judge only reads what came back.
 */
export interface SendOutcome {
  method: string;
  url: string;
  /** HTTP status, or undefined when no answer came. */
  status?: number;
  body?: string;
  /** Monotonic ms from sending to the response head (or to the failure). */
  elapsedMs: number;
  /** 'timeout' when nothing came within timeoutMs; 'connect' for a refused/reset connection. */
  failure?: 'timeout' | 'connect';
  error?: string;
  headersSent: Record<string, string>;
  /** The exact bytes sent (POST), for the curl line. */
  bodySent?: Buffer;
  /** The wire form in words (HOST-27), and whether the request went on a connection an earlier one used. */
  wire?: string;
  reusedConnection?: boolean;
}

export function isAck(o: SendOutcome): boolean {
  return o.status !== undefined && o.status >= 200 && o.status < 300;
}

/**
 * An HTTP answer came. A refused, reset or timed-out connection is no answer: never a refusal,
 * never "answered in time" (PITFALLS "Evidence").
 */
export function answered(o: SendOutcome): boolean {
  return o.status !== undefined;
}

export function describe(o: SendOutcome): string {
  if (o.failure === 'timeout')
    return `${o.method} ${o.url}: no answer within the deadline (${Math.round(o.elapsedMs)} ms)`;
  if (o.failure === 'connect') return `${o.method} ${o.url}: connection failed (${o.error ?? 'error'})`;
  // A refusal names the wire form it answered (HOST-27): the run's seed sends it again.
  const wire = o.wire !== undefined && !isAck(o) ? ` (sent with ${o.wire})` : '';
  return `${o.method} ${o.url}: ${o.status} after ${Math.round(o.elapsedMs)} ms${wire}`;
}
