/**
 * The control side of a shared service side: one data API + JWKS server per run, on the port the
 * host team configured in its receiver, shared by every Playwright worker. Workers announce the
 * keys of their onComplete callbacks, script answers and add their JWKS keys over loopback HTTP,
 * and read the journal (data reads, JWKS fetches) with a long poll. The routes sit under a path
 * holding a random token, so a receiver that wanders off the data API never reaches them.
 */
import type { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type { DataRead, JwksFetch, ReadHold } from '../../../judge/host/index.ts';
import type { RunKeysJson } from './run-keys.ts';

/** What the control routes drive: the in-process state of the service side. */
export interface ControlledState {
  reads: readonly DataRead[];
  jwksFetches: readonly JwksFetch[];
  events: EventEmitter;
  /** Returns the journal position at the announcement (service-side.ts). */
  announce(endUserHandle: string, serviceKeys: readonly string[], workspaceKey?: string): number;
  script(endUserHandle: string, serviceKey: string, statuses: readonly number[], hold?: ReadHold): void;
  release(endUserHandle: string, serviceKey: string): void;
  setJwks(keys: readonly JWK[]): void;
  /** Returns the journal position at publication (service-side.ts). */
  addJwk(key: JWK): number;
}

export interface Journal {
  reads: DataRead[];
  jwksFetches: JwksFetch[];
}

/** Longest wait of one journal poll: a client polls again for longer waits. */
export const MAX_POLL_MS = 5_000;

export const controlPrefix = (token: string): string => `/__ccs/control/${token}`;

function since(s: ControlledState, after: number): Journal {
  return { reads: s.reads.filter((r) => r.seq > after), jwksFetches: s.jwksFetches.filter((f) => f.seq > after) };
}

export function registerControl(
  app: FastifyInstance,
  token: string,
  state: () => ControlledState,
  runKeys: RunKeysJson,
): void {
  const prefix = controlPrefix(token);
  // The keys every worker signs with, published in the JWKS document before the first callback.
  app.get(`${prefix}/keys`, async () => runKeys);
  app.post(`${prefix}/announce`, async (req) => {
    const b = req.body as { endUserHandle: string; serviceKeys: string[]; workspaceKey?: string };
    return { ok: true, at: state().announce(b.endUserHandle, b.serviceKeys, b.workspaceKey) };
  });
  app.post(`${prefix}/script`, async (req) => {
    const b = req.body as {
      endUserHandle: string;
      serviceKey: string;
      statuses: number[];
      hold?: { ms: number; reads?: number | null };
    };
    // JSON has no Infinity: an absent or null count holds every read.
    const reads = typeof b.hold?.reads === 'number' ? { reads: b.hold.reads } : {};
    const hold = b.hold === undefined ? undefined : { ms: b.hold.ms, ...reads };
    state().script(b.endUserHandle, b.serviceKey, b.statuses, hold);
    return { ok: true };
  });
  app.post(`${prefix}/release`, async (req) => {
    const b = req.body as { endUserHandle: string; serviceKey: string };
    state().release(b.endUserHandle, b.serviceKey);
    return { ok: true };
  });
  app.post(`${prefix}/jwks`, async (req) => {
    const b = req.body as { keys: JWK[]; replace?: boolean };
    if (b.replace) state().setJwks(b.keys);
    let published = 0;
    if (!b.replace) for (const k of b.keys) published = state().addJwk(k);
    return { ok: true, published };
  });
  // Long poll: answers at once when entries newer than `after` exist, else at the first new one or after waitMs.
  app.get(`${prefix}/journal`, async (req) => {
    const q = req.query as { after?: string; waitMs?: string };
    const after = Number(q.after ?? 0) || 0;
    const waitMs = Math.min(Math.max(Number(q.waitMs ?? 0) || 0, 0), MAX_POLL_MS);
    const s = state();
    const now = since(s, after);
    if (now.reads.length > 0 || now.jwksFetches.length > 0 || waitMs === 0) return now;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        s.events.off('read', done);
        s.events.off('jwks', done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      s.events.on('read', done);
      s.events.on('jwks', done);
    });
    return since(s, after);
  });
}
