/**
 * The harness's "service side" in the host direction: it serves the service's data API
 * (GET /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}], Bearer
 * auth) and /.well-known/service/jwks.json, so a suite can see the receiver read every key
 * (HOST-13), retry a 409 (HOST-21), not retry a 401 (HOST-22) and refetch the JWKS on an
 * unknown kid (HOST-8). Every request is journalled on arrival. A declared sandbox workspace (2.1 "sb-") is
 * served under its own workspaceKey, with its own records: a sandbox key is read over the sandbox's path.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { EventEmitter } from 'node:events';
import {
  JWKS_PATH,
  type DataRead,
  type JwksFetch,
  type ReadHold,
  type RunKeys,
  type ServiceSide,
  type ServiceSideOptions,
} from '../../../judge/host/index.ts';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { JWK } from 'jose';
import { edgeEnvelope, envelope } from './value-classes.ts';
import { controlPrefix, registerControl } from './service-control.ts';
import { newRunKeys, publishedJwks, runKeysToJson } from './run-keys.ts';

const DATA_ROUTE = /^\/api\/([^/]+)\/endpoints\/(.+)\/data\/([^/]+)(?:\/([^/]+))?\/?$/;

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Section 7: error bodies are the framework default (timestamp, status, error, path). */
function errorBody(status: number, error: string, path: string): Record<string, unknown> {
  return { timestamp: new Date().toISOString(), status, error, path };
}

export async function startServiceSide(o: ServiceSideOptions): Promise<ServiceSide> {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const reads: DataRead[] = [];
  const jwksFetches: JwksFetch[] = [];
  // The records of each (workspaceKey, endUserHandle), and the workspace each (user, key) was announced in.
  const records = new Map<string, Set<string>>();
  const homes = new Map<string, string>();
  const served = new Set([o.workspaceKey, ...(o.sandboxWorkspaceKey !== undefined ? [o.sandboxWorkspaceKey] : [])]);
  // A callback of any other workspaceKey (a value test's) is the production workspace's, as before.
  const workspaceOf = (ws: string | undefined) => (ws !== undefined && served.has(ws) ? ws : o.workspaceKey);
  const scripts = new Map<string, number[]>();
  const holds = new Map<string, { ms: number; left: number }>();
  // The reads of a key held now, each ended early by release().
  const releases = new Map<string, AbortController>();
  const closing = new AbortController();
  const releaser = (key: string): AbortController => {
    const r = releases.get(key) ?? new AbortController();
    releases.set(key, r);
    return r;
  };
  let jwks: JWK[] = [];
  let seq = 0;

  // A read path whose percent-encoding is broken fails the router's decoding (FST_ERR_BAD_URL) before any
  // route: it is a data API request all the same, journalled and answered 400 by the data route (HOST-13).
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    frameworkErrors: (error, req, reply) => {
      const r = reply as unknown as FastifyReply;
      if (error.code === 'FST_ERR_BAD_URL' && req.url.startsWith('/api/')) return void dataRead(req, r);
      return void r.code(400).send(errorBody(400, 'Bad Request', req.url.split('?')[0] ?? ''));
    },
  });
  // Every request under /.well-known/ is journalled as a fetch of the key source (HOST-8 names one URL): a
  // fetch of another path or with another method is answered 404 or 405 and judged by the observer.
  const jwksFetch = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = req.url.split('?')[0] ?? '';
    const own = path === JWKS_PATH;
    const served = own && req.method === 'GET';
    const entry: JwksFetch = { seq: ++seq, atMs: performance.now(), method: req.method, path, served };
    jwksFetches.push(entry);
    events.emit('jwks', entry);
    if (served) return reply.send({ keys: jwks });
    const status = own ? 405 : 404;
    return reply.code(status).send(errorBody(status, own ? 'Method Not Allowed' : 'Not Found', path));
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], url: '/.well-known/*', handler: jwksFetch });

  const dataRead = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = req.url.split('?')[0] ?? '';
    const auth = req.headers.authorization;
    const bearer = auth === undefined ? 'missing' : auth === `Bearer ${o.bearerToken}` ? 'sent' : 'other';
    const m = DATA_ROUTE.exec(path);
    // A path that is no read path is journalled too (the observer judges it, HOST-13), then answered 404.
    const parts = m === null ? undefined : m.slice(1, 5);
    const [ws = '', end = '', handle = '', key] = parts ?? [];
    // A segment whose percent-encoding is broken (a '%' sent as is) is journalled as sent, and answered 400.
    const decoded = [ws, end, handle, key ?? ''].map(safeDecode);
    const malformed = decoded.some((d) => d === undefined);
    const raw = [ws, end, handle, key ?? ''];
    const texts = decoded.map((d, i) => d ?? raw[i]!);
    const [wsText, endText, handleText, keyText] = texts as [string, string, string, string];
    const endUserHandle = handleText;
    const serviceKey = key === undefined ? null : keyText;
    const holdKey = `${endUserHandle}\u0000${serviceKey}`;
    const holding = serviceKey === null ? undefined : holds.get(holdKey);
    const hold = holding !== undefined && holding.left-- > 0 ? holding.ms : undefined;
    // Journalled on arrival (PITFALLS), answered after the key's hold, if any.
    const answer = async (status: number, body: unknown, scripted = false) => {
      const entry: DataRead = {
        seq: ++seq,
        atMs: performance.now(),
        workspaceKey: wsText,
        configEnd: '/' + endText.replace(/^\/+/, ''),
        endUserHandle,
        serviceKey,
        status,
        path,
        wellFormed: m !== null && !malformed,
        bearer,
        ...(scripted ? { scripted: true as const } : {}),
      };
      reads.push(entry);
      events.emit('read', entry);
      if (hold !== undefined) await held(hold, AbortSignal.any([closing.signal, releaser(holdKey).signal]));
      return reply.code(status).send(body);
    };
    if (m === null) return answer(404, errorBody(404, 'Not Found', path));
    if (req.method === 'PUT') return answer(405, errorBody(405, 'Method Not Allowed', path));
    if (malformed) return answer(400, errorBody(400, 'Bad Request', path));
    if (bearer !== 'sent') return answer(401, errorBody(401, 'Unauthorized', path));
    // Section 7: the Bearer token of the production workspace covers its sb- sandbox too (AUTH-3).
    if (!served.has(wsText)) return answer(403, errorBody(403, 'Forbidden', path));
    if (req.method !== 'GET') return answer(405, errorBody(405, 'Method Not Allowed', path));
    // A key of the other workspace is not this one's record (read over the path of its own workspace).
    const home = serviceKey === null ? undefined : homes.get(`${endUserHandle}\u0000${serviceKey}`);
    if (home !== undefined && home !== wsText) return answer(404, errorBody(404, 'Not Found', path));
    const queue = serviceKey === null ? undefined : scripts.get(`${endUserHandle}\u0000${serviceKey}`);
    const scripted = queue?.shift();
    if (scripted === 409)
      return answer(409, { status: 'migrating', message: 'record held mid-migration; retry shortly' }, true);
    // A 200 scripted: the record with the values section 2.3 allows at their edges (data null...).
    if (scripted === 200) return answer(200, edgeEnvelope(), true);
    if (scripted !== undefined)
      return answer(scripted, errorBody(scripted, scripted === 401 ? 'Unauthorized' : 'Error', path), true);
    const known = records.get(`${wsText}\u0000${endUserHandle}`);
    if (known === undefined) return answer(404, errorBody(404, 'Not Found', path));
    if (serviceKey === null) return answer(200, [...known].map(envelope));
    if (!known.has(serviceKey)) return answer(404, errorBody(404, 'Not Found', path));
    return answer(200, envelope(serviceKey));
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], url: '/api/*', handler: dataRead });

  const state = {
    reads,
    jwksFetches,
    events,
    announce(endUserHandle: string, serviceKeys: readonly string[], workspaceKey?: string) {
      // No keys: the position only (a user with no record stays one: its list read answers 404).
      if (serviceKeys.length === 0) return seq;
      const ws = workspaceOf(workspaceKey);
      const set = records.get(`${ws}\u0000${endUserHandle}`) ?? new Set<string>();
      for (const k of serviceKeys) {
        set.add(k);
        homes.set(`${endUserHandle}\u0000${k}`, ws);
      }
      records.set(`${ws}\u0000${endUserHandle}`, set);
      return seq;
    },
    script(endUserHandle: string, serviceKey: string, statuses: readonly number[], hold?: ReadHold) {
      scripts.set(`${endUserHandle}\u0000${serviceKey}`, [...statuses]);
      const left = hold?.reads ?? Infinity;
      if (hold !== undefined) holds.set(`${endUserHandle}\u0000${serviceKey}`, { ms: hold.ms, left });
    },
    release(endUserHandle: string, serviceKey: string) {
      const key = `${endUserHandle}\u0000${serviceKey}`;
      holds.delete(key);
      releases.get(key)?.abort();
      releases.delete(key);
    },
    setJwks(keys: readonly JWK[]) {
      jwks = [...keys];
    },
    // Synchronous with the fetch route's answer: a fetch journalled later serves the new document.
    addJwk(key: JWK) {
      jwks = [...jwks, key];
      return seq;
    },
  };
  let runKeys: RunKeys | undefined;
  if (o.controlToken !== undefined) {
    runKeys = await newRunKeys(o.sandboxWorkspaceKey !== undefined);
    jwks = publishedJwks(runKeys);
    registerControl(app, o.controlToken, () => state, await runKeysToJson(runKeys));
  }

  const url = await app.listen({ port: o.port ?? 0, host: o.host ?? '127.0.0.1' });

  const waitFor = <T>(
    name: string,
    list: readonly T[],
    pred: (e: T) => boolean,
    deadlineMs: number,
  ): Promise<T | undefined> => {
    const found = list.find(pred);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const onEntry = (e: T) => {
        if (!pred(e)) return;
        clearTimeout(timer);
        events.off(name, onEntry);
        resolve(e);
      };
      const timer = setTimeout(
        () => {
          events.off(name, onEntry);
          resolve(undefined);
        },
        Math.max(0, deadlineMs),
      );
      events.on(name, onEntry);
    });
  };

  return {
    url,
    jwksUrl: url + JWKS_PATH,
    reads,
    jwksFetches,
    ...(o.controlToken !== undefined ? { controlUrl: url + controlPrefix(o.controlToken) } : {}),
    announce: async (endUserHandle, serviceKeys, workspaceKey) =>
      state.announce(endUserHandle, serviceKeys, workspaceKey),
    script: async (endUserHandle, serviceKey, statuses, hold) => {
      state.script(endUserHandle, serviceKey, statuses, hold);
    },
    release: async (endUserHandle, serviceKey) => state.release(endUserHandle, serviceKey),
    setJwks: async (keys) => state.setJwks(keys),
    addJwk: async (key) => state.addJwk(key),
    runKeys: async () => runKeys,
    waitForRead: (pred, deadlineMs) => waitFor('read', reads, pred, deadlineMs),
    waitForJwksFetch: (afterSeq, deadlineMs) =>
      waitFor('jwks', jwksFetches, (f) => f.served && f.seq > afterSeq, deadlineMs),
    sync: async () => undefined,
    close: () => {
      closing.abort();
      return app.close();
    },
  };
}

/** A slow data API's wait before it answers; cut short when the service side closes or the key is released. */
function held(ms: number, signal: AbortSignal): Promise<void> {
  // Ends early, without an error, when the signal aborts.
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
