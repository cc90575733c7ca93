/**
 * Works out an entry from its recorded request (the "record" job of the pipeline, done when the
 * entry is first read, not on the request path): head fields from the request line and header
 * lines, then from the body: bytes, JSON, addressing, schema and signature verdicts, header checks.
 * The values are those the journal has always recorded; only the moment they are computed moves.
 */
import { IncomingMessage } from 'node:http';
import { isLifecycleEvent } from '../protocol/index.ts';
import { fillAddressing, fillBody, parseBody } from './analyze.ts';
import type { AttemptCounter } from './attempts.ts';
import { keptBody } from './body-store.ts';
import { monoText, wallMsOf } from './clock.ts';
import { headerChecks } from './checks.ts';
import { schemaVerdict, shareHeaderValues } from './compact.ts';
import type { Entry, Pending, Settler } from './entry.ts';
import type { SchemaValidator } from './schema-port.ts';
import { factsPayload, unroutedVerdict, verifyRequest, type Verifier } from './verify.ts';
import type { JournalEntry, RouteConfig, SignatureRecord } from './types.ts';

/** A route as the pipeline uses it: its config, verifier, and the signing mode it declares. */
export interface RouteState {
  config: RouteConfig;
  verifier: Verifier;
  /** 'unknown': nobody said whether the workspace signs, so presence is not checked. */
  declared: 'none' | 'hmac' | 'jwks' | 'unknown';
}

// arrivals within one millisecond share its ISO text (one Date and string fewer per entry)
let lastIsoMs = Number.NaN;
let lastIso = '';
function isoOf(wallMs: number): string {
  if (wallMs !== lastIsoMs) {
    lastIso = new Date(wallMs).toISOString();
    lastIsoMs = wallMs;
  }
  return lastIso;
}

export function parseQuery(url: string): Record<string, string | string[]> {
  const i = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (i < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(i + 1))) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

// node's own rule for folding header lines into req.headers (joins, drops, set-cookie arrays):
// the entry's headers read exactly as node hands them over, without keeping node's object
const addHeaderLine = (
  IncomingMessage.prototype as unknown as {
    _addHeaderLine?: (f: string, v: string, dest: Record<string, unknown>) => void;
  }
)._addHeaderLine;
const FOLD_THIS = { joinDuplicateHeaders: false };

export function headersOf(rawHeaders: string[]): Record<string, string | string[]> {
  const dest: Record<string, string | string[]> = {};
  let folded = false;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const k = rawHeaders[i]!.toLowerCase();
    // the first line of a name: node's rule (any flag) sets the value as it came, set-cookie as a
    // list; a repeated name, and a name the object already answers (__proto__), take node's own rule
    if (dest[k] === undefined && k !== 'set-cookie') dest[k] = rawHeaders[i + 1]!;
    else {
      folded = true;
      if (addHeaderLine) addHeaderLine.call(FOLD_THIS, rawHeaders[i]!, rawHeaders[i + 1]!, dest);
      else if (dest[k] === undefined) dest[k] = rawHeaders[i + 1]!;
    }
  }
  // values set as they came are the header lines' own, shared on arrival (receive.ts); only a value
  // node's rule joined is new, and it is shared when it repeats
  if (folded) shareHeaderValues(dest);
  return dest;
}

export function analysisFailed(e: JournalEntry, error: unknown): void {
  e.parseError = `${e.parseError ? e.parseError + '; ' : ''}analysis failed: ${(error as Error).message}`;
}

export class EntrySettler implements Settler {
  /** "<runId>-": an id is it and the seq */
  private readonly idPrefix: string;

  constructor(
    runId: string,
    private readonly schema: () => SchemaValidator | undefined,
    private readonly attempts: AttemptCounter,
  ) {
    this.idPrefix = `${runId}-`;
  }

  head(e: Entry, p: Pending): void {
    p.head = true;
    e.id = this.id(e.seq);
    const wallMs = wallMsOf(p.wallOffMs);
    e.arrival = { monoNs: monoText(p.monoS, p.monoSubNs), wallMs, iso: isoOf(wallMs) };
    e.query = parseQuery(e.url);
    const headers = headersOf(p.rawHeaders);
    e.headers = headers;
    e.rawHeaders = p.rawHeaders;
    const te = headers['transfer-encoding'];
    e.transfer =
      typeof te === 'string' && /chunked/i.test(te)
        ? 'chunked'
        : headers['content-length'] !== undefined
          ? 'content-length'
          : 'none';
    const route = p.route as RouteState | undefined;
    e.signature = {
      verdict: 'absent',
      mode: route?.verifier.mode ?? 'none',
      reason: 'not verified yet (body not read)',
    };
    e.checks = [];
  }

  body(e: Entry, p: Pending): void {
    try {
      this.attempts.drain();
      const body = keptBody(p);
      fillBody(e, body, p.sha);
      fillAddressing(e, p.attemptsSeen);
      const route = p.route as RouteState | undefined;
      if (!route) {
        e.signature = unroutedVerdict(p.rawHeaders);
        return;
      }
      if (p.facts !== undefined) {
        // worked out for a request line already, from the same request: the same values
        if (p.facts.schema !== undefined) e.schema = p.facts.schema;
        e.signature = p.signature!;
        e.checks = p.facts.checks;
        return;
      }
      this.verdicts(e, p, route, body);
    } catch (error) {
      analysisFailed(e, error);
    }
  }

  /**
   * The verdicts of a routed request with its body read (schema, signature, header checks),
   * worked out for a request line without settling the entry: written into a scratch record and
   * kept in the pending request, so that settling later reuses them. Undefined when they cannot
   * be had this way (no route, no body, a failed analysis): the caller then settles the entry.
   */
  facts(e: Entry, p: Pending): JournalEntry | undefined {
    const route = p.route as RouteState | undefined;
    if (!route || !p.read) return undefined;
    const body = keptBody(p);
    if (body === undefined) return undefined;
    try {
      const t = {
        seq: e.seq,
        method: e.method,
        url: e.url,
        path: e.path,
        kind: e.kind,
        step: e.step,
        headers: headersOf(p.rawHeaders),
        query: parseQuery(e.url),
      } as JournalEntry;
      parseBody(t, body);
      this.address(t, p);
      this.verdicts(t, p, route, body);
      p.signature = t.signature;
      p.facts = { schema: t.schema, checks: t.checks };
      return t;
    } catch {
      return undefined;
    }
  }

  /**
   * The addressing of a scratch record. The attempt count is only read when the request carries
   * no attempt header (fillAddressing), so only then are the waiting bodies counted now.
   */
  private address(t: JournalEntry, p: Pending): void {
    fillAddressing(t, 0);
    if (t.deliveryId === undefined || t.attempt !== undefined) return;
    this.attempts.drain();
    if (p.attemptsSeen > 0) t.attempt = p.attemptsSeen;
  }

  id(seq: number): string {
    return this.idPrefix + seq;
  }

  addressing(e: Entry, p: Pending): JournalEntry | undefined {
    if (!p.read) return undefined;
    const body = keptBody(p);
    if (body === undefined) return undefined;
    try {
      const t = {
        id: this.id(e.seq),
        seq: e.seq,
        method: e.method,
        url: e.url,
        path: e.path,
        kind: e.kind,
        response: e.response,
        headers: headersOf(p.rawHeaders),
        query: parseQuery(e.url),
      } as JournalEntry;
      parseBody(t, body);
      this.address(t, p);
      return t;
    } catch {
      return undefined;
    }
  }

  private verdicts(e: JournalEntry, p: Pending, route: RouteState, body: Buffer | undefined): void {
    const kind = route.config.kind;
    const schema = this.schema();
    if ((kind === 'lifecycle' || kind === 'tool') && schema) {
      const event = (e.json as { event?: unknown } | undefined)?.event;
      const name = kind === 'tool' ? 'tool.dispatch' : isLifecycleEvent(event) ? String(event) : undefined;
      if (name === undefined)
        e.schema = {
          name: 'lifecycle',
          valid: false,
          errors: [
            e.json === undefined
              ? `body is not JSON (${e.parseError ?? 'no body'})`
              : 'body.event is not one of the lifecycle events of section 6',
          ],
        };
      else if (e.json === undefined)
        e.schema = { name, valid: false, errors: [`body is not JSON (${e.parseError ?? 'no body'})`] };
      else e.schema = schemaVerdict(name, schema(name, e.json));
    }
    // JWKS verdicts (and enforced ones) were reached on the request path; the rest are synchronous
    const signature =
      p.signature ??
      (verifyRequest(
        route.verifier,
        p.rawHeaders,
        requestPayload(kind, e.url, body),
        Math.floor(wallMsOf(p.wallOffMs) / 1000),
      ) as SignatureRecord);
    e.signature = signature;
    e.checks = headerChecks({
      kind,
      method: e.method,
      headers: e.headers,
      json: e.json,
      signingMode: route.declared,
      query: e.query,
    });
  }
}

/** What the signature covers: the raw body, or for the facts GET the request line (SIGN-6). */
export function requestPayload(kind: RouteConfig['kind'], url: string, body: Buffer | undefined): Uint8Array | string {
  return kind === 'facts' ? factsPayload(url) : (body ?? EMPTY);
}

const EMPTY = Buffer.alloc(0);
