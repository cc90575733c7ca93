/**
 * After an onComplete the host reads every key of serviceKeys over the data API (section 6 rule 8,
 * HOST-13) and then validates the records itself. Each handle and key is one path segment,
 * percent-encoded (a key may hold "/", "?", "#", "%", a space or non-ASCII). A read answered 409
 * or 503 is retried with an exponential back-off; 400 and 401 are never retried (section 7,
 * HOST-21, HOST-22): the request or the token is wrong, and retrying does not fix it.
 */
const MAX_ATTEMPTS = 5;
const FIRST_BACKOFF_MS = 250;
const READ_TIMEOUT_MS = 10_000;

export function recordUrl(api, configEnd, endUserHandle, serviceKey) {
  // How configEnd sits in the path is not shown by the contract: without its leading slash, each segment encoded.
  const end = String(configEnd).replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  const base = api.baseUrl.replace(/\/+$/, '');
  return `${base}/api/${encodeURIComponent(api.workspaceKey)}/endpoints/${end}/data/${encodeURIComponent(endUserHandle)}/${encodeURIComponent(serviceKey)}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One record; undefined when it could not be read (logged). */
export async function readRecord(api, url) {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let status;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${api.bearerToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(READ_TIMEOUT_MS),
      });
      status = res.status;
      if (status === 200) return await res.json();
      await res.body?.cancel();
    } catch {
      status = 503; // a network error or a timeout is as transient as a 503
    }
    if (status !== 409 && status !== 503) {
      console.error(`data API read answered ${status}: not retried`);
      return undefined;
    }
    // Exponential, with jitter, so many receivers do not retry in step.
    await sleep(FIRST_BACKOFF_MS * 2 ** (attempt - 1) * (0.75 + Math.random() / 2));
  }
  console.error(`data API read still unavailable after ${MAX_ATTEMPTS} attempts: reconcile later`);
  return undefined;
}

/** Reads every key of an onComplete; your validation of each record goes where it is logged. */
export async function readEveryKey(api, payload) {
  const keys = Array.isArray(payload.serviceKeys) ? payload.serviceKeys : [];
  await Promise.all(
    keys.map(async (key) => {
      const record = await readRecord(api, recordUrl(api, payload.configEnd ?? '/', payload.endUserHandle ?? '', key));
      // Validate it here: the envelope of 2.3 (data may be null, problems are in errors and
      // warnings; callbackStatus, not completedAt, tells a draft from a finalized record).
      return record;
    }),
  );
}
