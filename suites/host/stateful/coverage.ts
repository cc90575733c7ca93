/**
 * Which transitions of the host model (model.ts) the sequences exercised: each event's first delivery, its
 * redelivery and retries, each bad copy before and after the genuine one, each scripted data API answer, each
 * signer, the facts GET in its situations. A step marks its row only once the receiver's answer was the one
 * the model expects, so a row counts on what the run saw. A row the host target cannot reach (a signing mode
 * it lacks, no previous secret, no sandbox workspace declared) is left out, with the reason.
 */
import { EVENTS, READ_SCRIPTS, type Offers } from './model.ts';

export interface HostRow {
  id: string;
  /** Why the target cannot reach it, or undefined. */
  leftOut?: (o: Offers) => string | undefined;
}

const signedOnly = (o: Offers) => (o.mode === 'none' ? 'signing is off in the host target' : undefined);
const jwksOnly = (o: Offers) => (o.mode === 'jwks' ? undefined : 'the host target does not sign in JWKS mode');

export const HOST_ROWS: readonly HostRow[] = [
  ...EVENTS.map((e) => ({ id: `first ${e} acknowledged` })),
  { id: 'later page of a bulk manifest acknowledged' },
  { id: 'redelivery (same delivery id, same body) acknowledged' },
  { id: 'redelivery after another delivery acknowledged' },
  { id: 'onComplete first seen at attempt 2 or 3 acknowledged' },
  { id: 'onComplete retried after its acknowledged attempt' },
  { id: 'forged copy refused 401', leftOut: signedOnly },
  { id: 'tampered copy refused 401', leftOut: signedOnly },
  { id: 'replayed copy (t outside the window) refused 401', leftOut: signedOnly },
  { id: 'bad copy before the genuine delivery', leftOut: signedOnly },
  { id: 'bad copy after the genuine delivery', leftOut: signedOnly },
  { id: 'genuine delivery after its bad copy acknowledged', leftOut: signedOnly },
  ...READ_SCRIPTS.filter((s) => s !== 'plain').map((s) => ({
    id: `onComplete with a read answered ${s === 'held' ? 'late (held, then released)' : s}`,
  })),
  { id: 'facts GET answered', leftOut: (o: Offers) => (o.facts ? undefined : 'the host target has no factsPath') },
  {
    id: 'facts GET repeated for a user',
    leftOut: (o: Offers) => (o.facts ? undefined : 'the host target has no factsPath'),
  },
  {
    id: 'facts GET after a config.deleted of the user',
    leftOut: (o: Offers) => (o.facts ? undefined : 'the host target has no factsPath'),
  },
  { id: 'JWKS key published by a rotation', leftOut: jwksOnly },
  { id: 'callback signed by a rotated key', leftOut: jwksOnly },
  { id: "callback signed by an earlier rotation's key after a later one's", leftOut: jwksOnly },
  { id: 'callback signed by another published kid', leftOut: jwksOnly },
  {
    id: 'callback signed with the previous HMAC secret',
    leftOut: (o: Offers) =>
      o.mode === 'hmac' && o.previousSecret ? undefined : 'the host target declares no previous HMAC secret',
  },
  {
    id: 'deliveries of a sandbox workspace',
    leftOut: (o: Offers) =>
      o.sandbox ? undefined : 'the host target declares no sandbox workspace (one workspaceKey)',
  },
];

const known = new Set(HOST_ROWS.map((r) => r.id));

export class HostCoverage {
  readonly hits = new Map<string, number>();

  /** A step exercised the row (a name no row has is listed apart by summarizeHost, never counted). */
  row(id: string): void {
    this.hits.set(id, (this.hits.get(id) ?? 0) + 1);
  }
}

export interface HostCoverageSummary {
  headline: string;
  rows: string[];
  missed: string[];
}

/** The coverage in words: exercised of reachable, the rows missed named, the left out with why. */
export function summarizeHost(c: HostCoverage, offered: readonly Offers[]): HostCoverageSummary {
  const rows: string[] = [];
  const missed: string[] = [];
  let reachable = 0;
  let reached = 0;
  for (const r of HOST_ROWS) {
    const why = offered.map((o) => r.leftOut?.(o));
    if (why.every((w) => w !== undefined)) {
      rows.push(`${r.id}: left out (${why[0] ?? 'no signing mode under test'})`);
      continue;
    }
    reachable += 1;
    const n = c.hits.get(r.id) ?? 0;
    if (n > 0) reached += 1;
    else missed.push(r.id);
    rows.push(`${r.id}: ${n}${n === 0 ? ' (NOT REACHED)' : ''}`);
  }
  for (const [id, n] of c.hits) if (!known.has(id)) rows.push(`${id}: ${n} (NOT A ROW of the model: a misnamed step)`);
  const percent = reachable === 0 ? 100 : Math.floor((100 * reached) / reachable);
  let headline = `host model transition coverage: ${reached}/${reachable} reachable rows exercised (${percent}%)`;
  if (missed.length > 0) headline += `; not reached: ${missed.join('; ')}`;
  return { headline, rows, missed };
}
