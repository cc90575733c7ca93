/**
 * The host side of the contract in plain Node (node:http, no framework), with the signature check
 * left to a verifier of your choice (../node-crypto, ../node-jose, ../node-stripe):
 *   - the callback hook verifies the raw body bytes before any JSON parse (5.2, HOST-4);
 *   - a refused signature is answered 401 (section 7), never 400 or 500 (HOST-3);
 *   - a redelivery is answered 2xx again and handled once: dedupe on the delivery id and the body,
 *     never on the attempt (section 6 rule 4, HOST-11, HOST-12);
 *   - acknowledge first, work afterwards (4.1, HOST-1, HOST-2): the data API reads of onComplete
 *     run after the answer (./data-api.mjs, HOST-13, HOST-21, HOST-22);
 *   - the facts GET is verified over "GET " + the request target as received (5.2 item 6) and
 *     answered with a flat JSON object (4.1, HOST-15), preferredLanguages in English (HOST-17).
 * A verifier is { callback(headers, rawBody), facts(requestTarget, headers) }, each resolving to
 * true (authentic and inside the window) or false.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import { readEveryKey } from './data-api.mjs';

/** Everything the receiver needs, from the environment (the names every recipe shares). */
export function settingsFromEnv(env = process.env) {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    hookPath: env.HOOK_PATH ?? '/hooks/ccs',
    factsPath: env.FACTS_PATH ?? '/facts',
    // HMAC: the current secret, and the previous one during a rotation's overlap (HOST-9).
    secrets: [env.SERVICE_HMAC_SECRET, env.SERVICE_HMAC_PREVIOUS_SECRET].filter(
      (s) => typeof s === 'string' && s !== '',
    ),
    // JWKS: the document's URL, as the dashboard shows it.
    jwksUrl: env.SERVICE_JWKS_URL,
    dataApi: {
      baseUrl: env.SERVICE_DATA_API_URL ?? '',
      bearerToken: env.SERVICE_DATA_API_TOKEN ?? '',
      workspaceKey: env.SERVICE_WORKSPACE_KEY ?? '',
    },
    // What not to do, for the recipe's own test: the library used bare (see the recipe's page).
    bare: env.RECIPE_BARE === '1',
  };
}

/** A full 500-key config.bulk_deleted page in JWKS mode carries a ~30 KB X-Service-Signature (HOST-14). */
const MAX_HEADER_BYTES = 256 * 1024;
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const DEDUPE_ENTRIES = 10_000;

/** Remembers (delivery id, body) pairs: the id alone is shared by every page of a bulk manifest (HDR-3). */
function deduper() {
  const seen = new Set();
  return (deliveryId, rawBody) => {
    const key = `${deliveryId}\n${createHash('sha256').update(rawBody).digest('hex')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > DEDUPE_ENTRIES) seen.delete(seen.values().next().value);
    return true;
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) reject(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res, status, body) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Your user's facts: a flat object of your FACTS class's fields (2.4), never a secret (4.1 rule 7). */
function factsOf(_endUserHandle) {
  return { displayName: 'Ada Example', preferredLanguages: ['Brazilian Portuguese', 'English'] };
}

export function startReceiver(settings, verifier) {
  const firstSeen = deduper();

  async function onCallback(req, res) {
    const rawBody = await readBody(req);
    // Verify the bytes as received: a parsed and re-serialized body is other bytes (HOST-4).
    if (!(await verifier.callback(req.headers, rawBody))) return answer(res, 401);
    let payload;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return answer(res, 400);
    }
    const first = firstSeen(String(req.headers['x-service-delivery-id'] ?? ''), rawBody);
    answer(res, 200, { received: true }); // acknowledge first ...
    // ... work afterwards: read every key of onComplete over the data API (section 6 rule 8).
    if (first && payload.event === 'onComplete') {
      setImmediate(() =>
        readEveryKey(settings.dataApi, payload).catch((e) => console.error(`data API reads failed: ${e.message}`)),
      );
    }
  }

  async function onFacts(req, res) {
    // req.url is the request target exactly as received: its query stays percent-encoded (5.2 item 6).
    if (!(await verifier.facts(req.url, req.headers))) return answer(res, 401);
    const handle = new URL(req.url, 'http://receiver').searchParams.get('endUserHandle') ?? '';
    answer(res, 200, factsOf(handle)); // flat: no envelope, no list
  }

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route =
      req.method === 'POST' && path === settings.hookPath
        ? onCallback
        : req.method === 'GET' && path === settings.factsPath
          ? onFacts
          : undefined;
    if (route === undefined) return answer(res, 404);
    route(req, res).catch((e) => {
      console.error(`${req.method} ${path}: ${e.message}`);
      if (!res.headersSent) answer(res, e.message === 'body too large' ? 413 : 500);
    });
  });
  return new Promise((resolve) =>
    server.listen(settings.port, settings.host, () => {
      console.log(`receiver listening on http://${settings.host}:${server.address().port}`);
      resolve(server);
    }),
  );
}
