/**
 * A JWKS document cache for JWKS-mode verification (5.2 "Cache it; refetch when kid is unknown",
 * HOST-8). Unlike jose's createRemoteJWKSet (30 s cooldown by default), an unknown kid triggers a
 * refetch at once unless minRefetchIntervalMs says otherwise, so a rotation is seen immediately.
 */
import { importJWK, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { ccsError } from '../spec/index.ts';
import { jwksSeen, type JwksDocumentSeen } from './jwks-seen.ts';

/** The documents a cache keeps as seen: the first ones and the latest, past this many. */
const SEEN_DOCUMENTS = 64;
/** Least time between two fetches of lookAgain(). */
const LOOK_AGAIN_MS = 1_000;

export interface JwksCacheOptions {
  url: string;
  fetch?: typeof fetch;
  /** Age after which the document is refetched on the next lookup (default 10 minutes). */
  maxAgeMs?: number;
  /** Least time between two refetches caused by an unknown kid (default 0: no cooldown). */
  minRefetchIntervalMs?: number;
  /** Deadline of one fetch (default 10 s). */
  timeoutMs?: number;
}

export interface JwksDocument {
  keys: JWK[];
}

/** Checks the shape of a JWKS document (SIGN-9: "a standard JWKS document with a keys array"). */
export function parseJwksDocument(value: unknown, where: string): JwksDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ccsError('PROTOCOL_JWKS_INVALID', { url: where, problem: 'is not a JSON object' });
  }
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'object' || k === null || Array.isArray(k))) {
    throw ccsError('PROTOCOL_JWKS_INVALID', { url: where, problem: 'has no "keys" array of objects' });
  }
  return { keys: keys as JWK[] };
}

/** Picks the JWK of a kid from a document (first usable one if several share it). */
export function findJwk(doc: JwksDocument, kid: string): JWK | undefined {
  const matching = doc.keys.filter((k) => k.kid === kid);
  return matching.find((k) => k.kty === 'EC' && k.crv === 'P-256') ?? matching[0];
}

/** Imports a public JWK as an ES256 verification key, or undefined when it is not one. */
export async function importEs256PublicJwk(jwk: JWK): Promise<CryptoKey | KeyObject | undefined> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || (jwk.alg !== undefined && jwk.alg !== 'ES256')) return undefined;
  try {
    // Drop private members so a leaked private JWK in a document is still used only to verify.
    const { d: _d, ...publicPart } = jwk;
    const key = await importJWK(publicPart, 'ES256');
    return key instanceof Uint8Array ? undefined : key;
  } catch {
    return undefined;
  }
}

/** The url without userinfo, for messages: credentials in a url never reach an error. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}

export class JwksCache {
  readonly url: string;
  private readonly shownUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxAgeMs: number;
  private readonly minRefetchIntervalMs: number;
  private readonly timeoutMs: number;
  private doc: JwksDocument | undefined;
  private fetchedAtMs = Number.NEGATIVE_INFINITY;
  private inflight: Promise<JwksDocument> | undefined;
  private imported = new Map<string, CryptoKey | KeyObject | undefined>();
  private fetches = 0;
  private readonly seen: JwksDocumentSeen[] = [];
  private lookedAgainAtMs = Number.NEGATIVE_INFINITY;

  constructor(o: JwksCacheOptions) {
    if (typeof o?.url !== 'string' || !/^https?:\/\//.test(o.url)) {
      throw ccsError('PROTOCOL_JWKS_URL_INVALID', {
        got: typeof o?.url === 'string' ? JSON.stringify(safeUrl(o.url)) : typeof o?.url,
      });
    }
    this.url = o.url;
    this.shownUrl = safeUrl(o.url);
    this.fetchImpl = o.fetch ?? globalThis.fetch;
    this.maxAgeMs = o.maxAgeMs ?? 600_000;
    this.minRefetchIntervalMs = o.minRefetchIntervalMs ?? 0;
    this.timeoutMs = o.timeoutMs ?? 10_000;
  }

  /** How many times the document was fetched (successful or not). */
  get fetchCount(): number {
    return this.fetches;
  }

  /**
   * The documents fetched, in order, each kept once while it is served unchanged (SIGN-9: what the key
   * source held when each callback came). Private members by name only: a leaked key never reaches a journal.
   */
  get documents(): readonly JwksDocumentSeen[] {
    return this.seen;
  }

  /** The key of a kid; refetches once when the kid is unknown (a rotation, HOST-8). */
  async keyFor(kid: string): Promise<KeyObject | CryptoKey | undefined> {
    let fetchedNow = false;
    if (this.doc === undefined || performance.now() - this.fetchedAtMs > this.maxAgeMs) {
      try {
        await this.refresh();
        fetchedNow = true;
      } catch (err) {
        // Keep serving a stale document when a refresh fails; without any document there is no answer.
        if (this.doc === undefined) throw err;
      }
    }
    let found = await this.lookup(kid);
    if (found === undefined && !fetchedNow && performance.now() - this.fetchedAtMs >= this.minRefetchIntervalMs) {
      await this.refresh();
      found = await this.lookup(kid);
    }
    return found;
  }

  /** The JWK of a kid in the cached document, without fetching. */
  cachedJwk(kid: string): JWK | undefined {
    return this.doc === undefined ? undefined : findJwk(this.doc, kid);
  }

  /**
   * Fetches the document again in the background, at most once a second, whatever the outcome: a
   * verifier's evidence of what the key source serves after a JWS its cached key did not verify.
   */
  lookAgain(): void {
    if (this.inflight !== undefined || performance.now() - this.lookedAgainAtMs < LOOK_AGAIN_MS) return;
    this.lookedAgainAtMs = performance.now();
    this.refresh().catch(() => undefined);
  }

  /** Forgets the document: the next lookup fetches. */
  invalidate(): void {
    this.doc = undefined;
    this.imported.clear();
    this.fetchedAtMs = Number.NEGATIVE_INFINITY;
  }

  private async lookup(kid: string): Promise<KeyObject | CryptoKey | undefined> {
    if (this.doc === undefined) return undefined;
    if (this.imported.has(kid)) return this.imported.get(kid);
    const jwk = findJwk(this.doc, kid);
    if (jwk === undefined) return undefined;
    const key = await importEs256PublicJwk(jwk);
    this.imported.set(kid, key);
    return key;
  }

  /** Fetches the document; concurrent callers share one request. */
  private refresh(): Promise<JwksDocument> {
    if (this.inflight) return this.inflight;
    this.inflight = this.fetchDocument().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchDocument(): Promise<JwksDocument> {
    this.fetches += 1;
    let res: Response;
    try {
      res = await this.fetchImpl(this.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw ccsError('PROTOCOL_JWKS_FETCH_FAILED', {
        url: this.shownUrl,
        problem: `failed: ${(err as Error).message}`,
      });
    }
    if (res.status !== 200) {
      throw ccsError('PROTOCOL_JWKS_FETCH_FAILED', {
        url: this.shownUrl,
        problem: `answered ${res.status}, expected 200`,
      });
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw ccsError('PROTOCOL_JWKS_INVALID', { url: this.shownUrl, problem: 'is not JSON' });
    }
    const doc = parseJwksDocument(body, this.shownUrl);
    this.remember(doc);
    this.doc = doc;
    this.imported = new Map();
    this.fetchedAtMs = performance.now();
    return doc;
  }

  private remember(doc: JwksDocument): void {
    const keys = jwksSeen(doc.keys);
    const now = Date.now();
    const last = this.seen[this.seen.length - 1];
    if (last !== undefined && JSON.stringify(last.keys) === JSON.stringify(keys)) {
      last.lastWallMs = now;
      return;
    }
    // Past the bound the first documents stay (the start of a run) and the latest replaces the one before.
    if (this.seen.length >= SEEN_DOCUMENTS) this.seen.pop();
    this.seen.push({ url: this.shownUrl, firstWallMs: now, lastWallMs: now, keys });
  }
}
