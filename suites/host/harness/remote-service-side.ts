/**
 * A worker's view of the service side shared by every worker of a run (service-control.ts): the
 * same ServiceSide, over loopback HTTP. The journal is mirrored locally: every wait polls it, and
 * every change (announce, script, JWKS) brings it up to date, so `reads` and `jwksFetches` hold at
 * least what the server had journalled when the last call returned. Tests tell their reads apart
 * by their own endUserHandle and keys (freshHandle, freshKey); closing leaves the server running.
 */
import { ccsError } from '../../../spec/index.ts';
import { MAX_POLL_MS, type Journal } from './service-control.ts';
import { runKeysFromJson, type RunKeysJson } from './run-keys.ts';
import { JWKS_PATH, type DataRead, type JwksFetch, type ServiceSide } from '../../../judge/host/index.ts';

/**
 * A control call that takes longer than a long poll plus this is a broken service side. The server is the
 * run's own, on loopback, but it shares the machine: with a CI run, recipe runs and a Go build beside a host
 * run (a load of 28 on two cores) a call took more than 5 s, and every clause of that test was blocked.
 */
const SLACK_MS = 20_000;

export async function connectServiceSide(controlUrl: string): Promise<ServiceSide> {
  const url = new URL(controlUrl).origin;
  const reads: DataRead[] = [];
  const jwksFetches: JwksFetch[] = [];
  let after = 0;

  const call = async (path: string, body?: unknown, waitMs = 0): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(controlUrl + path, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        signal: AbortSignal.timeout(waitMs + SLACK_MS),
      });
    } catch (error) {
      throw ccsError('HOST_SERVICE_SIDE_UNREACHABLE', { url, problem: `did not answer: ${(error as Error).message}` });
    }
    if (!res.ok)
      throw ccsError('HOST_SERVICE_SIDE_UNREACHABLE', { url, problem: `answered ${res.status} to a control call` });
    return res.json();
  };

  // Merged synchronously, so concurrent polls never add an entry twice.
  const merge = (j: Journal): void => {
    for (const r of j.reads) if (r.seq > after && !reads.some((x) => x.seq === r.seq)) reads.push(r);
    for (const f of j.jwksFetches) if (f.seq > after && !jwksFetches.some((x) => x.seq === f.seq)) jwksFetches.push(f);
    after = Math.max(after, ...j.reads.map((r) => r.seq), ...j.jwksFetches.map((f) => f.seq));
  };
  const pull = async (waitMs: number): Promise<void> => {
    const wait = Math.max(0, Math.min(Math.round(waitMs), MAX_POLL_MS));
    merge((await call(`/journal?after=${after}&waitMs=${wait}`, undefined, wait)) as Journal);
  };
  const change = async (path: string, body: unknown): Promise<void> => {
    await call(path, body);
    await pull(0);
  };

  const waitFor = async <T>(
    list: readonly T[],
    pred: (e: T) => boolean,
    deadlineMs: number,
  ): Promise<T | undefined> => {
    const until = performance.now() + Math.max(0, deadlineMs);
    await pull(0);
    for (;;) {
      const found = list.find(pred);
      if (found !== undefined) return found;
      const left = until - performance.now();
      if (left <= 0) return undefined;
      await pull(left);
    }
  };

  await pull(0); // fails fast when the shared service side is not there
  return {
    url,
    jwksUrl: url + JWKS_PATH,
    controlUrl,
    reads,
    jwksFetches,
    // The server's position at the announcement, not the worker's: the observer orders reads by it.
    announce: async (endUserHandle, serviceKeys, workspaceKey) => {
      const { at } = (await call('/announce', { endUserHandle, serviceKeys, workspaceKey })) as { at?: unknown };
      await pull(0);
      return typeof at === 'number' ? at : after;
    },
    script: (endUserHandle, serviceKey, statuses, hold) => {
      return change('/script', { endUserHandle, serviceKey, statuses, hold });
    },
    release: (endUserHandle, serviceKey) => change('/release', { endUserHandle, serviceKey }),
    setJwks: (keys) => change('/jwks', { keys, replace: true }),
    // The position the server journalled at publication, not the worker's: fetches in between count (HOST-8).
    addJwk: async (key) => {
      const { published } = (await call('/jwks', { keys: [key] })) as { published?: unknown };
      await pull(0);
      if (typeof published !== 'number') {
        throw ccsError('HOST_SERVICE_SIDE_UNREACHABLE', { url, problem: 'did not say when it published the key' });
      }
      return published;
    },
    runKeys: async () => runKeysFromJson((await call('/keys')) as RunKeysJson),
    waitForRead: (pred, deadlineMs) => waitFor(reads, pred, deadlineMs),
    waitForJwksFetch: (afterSeq, deadlineMs) => waitFor(jwksFetches, (f) => f.served && f.seq > afterSeq, deadlineMs),
    sync: () => pull(0),
    close: async () => undefined,
  };
}
