/**
 * Fills a journal entry once its body has been read: raw bytes, parse result (with the reason
 * when it fails), the contract fields that address it (event, deliveryId, attempt, end user,
 * workspace). Attempts are counted in the order bodies were read (attempts.ts); the rest runs
 * when the entry is settled (settle.ts).
 */
import * as nodeBuffer from 'node:buffer';
import * as nodeCrypto from 'node:crypto';
import {
  ATTEMPT_HEADER,
  DELIVERY_ID_HEADER,
  END_USER_HEADER,
  EVENT_HEADER,
  WORKSPACE_HEADER,
} from '../protocol/index.ts';
import { isJsonContentType } from './content-type.ts';
import type { JournalEntry } from './types.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });
// buffer.isAscii: node >= 18.15 / 19.6
const isAscii = (nodeBuffer as { isAscii?: (b: Uint8Array) => boolean }).isAscii;
// crypto.hash (node >= 20.12) is the one-shot form: the same digest without a Hash object per body
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;
export function sha256Hex(b: Uint8Array): string {
  return oneShot ? oneShot('sha256', b, 'hex') : nodeCrypto.createHash('sha256').update(b).digest('hex');
}
export const EMPTY_SHA = sha256Hex(Buffer.alloc(0));
const EMPTY = Buffer.alloc(0);

function header(e: JournalEntry, name: string): string | undefined {
  const v = e.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** sha: the body's digest when the caller already has it. */
export function fillBody(e: JournalEntry, body: Buffer | undefined, sha?: string): void {
  const b = body ?? EMPTY;
  e.bodySize = b.length;
  e.bodyBase64 = b.length ? b.toString('base64') : '';
  e.bodySha256 = sha ?? (b.length ? sha256Hex(b) : EMPTY_SHA);
  parseBody(e, b);
}

/** The parse result of a body (json, or parseError with the reason), written into e. */
export function parseBody(e: JournalEntry, b: Buffer): void {
  if (b.length === 0) {
    if (e.method !== 'GET' && e.method !== 'HEAD') e.parseError = 'no body';
    return;
  }
  let text: string;
  try {
    // ASCII (every usual callback) reads the same in latin1, the cheaper decoding; the rest as UTF-8
    text = isAscii !== undefined && isAscii(b) ? b.toString('latin1') : utf8.decode(b);
  } catch {
    e.parseError = `body is not valid UTF-8 (${b.length} bytes); JSON must be UTF-8`;
    return;
  }
  const ct = header(e, 'content-type');
  try {
    e.json = JSON.parse(text);
  } catch (error) {
    e.parseError = `body is not valid JSON: ${(error as Error).message}`;
    return;
  }
  if (!isJsonContentType(ct)) {
    // parsed anyway, so the entry still says which event it was; the problem stays visible
    e.parseError =
      ct === undefined
        ? 'no Content-Type header (expected application/json); body parsed as JSON anyway'
        : `Content-Type is "${ct}", not application/json; body parsed as JSON anyway`;
  }
}

// module level, not a closure per request: the test runner's transform names every inner function
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The delivery id as node would hand it over in req.headers: the values of every
 * X-Service-Delivery-Id line, joined with ', ' (read from the raw header lines, so the request
 * path never builds the headers object).
 */
export function deliveryIdOf(rawHeaders: string[]): string | undefined {
  let out: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== DELIVERY_ID_HEADER.length || name.toLowerCase() !== DELIVERY_ID_HEADER) continue;
    out = out === undefined ? rawHeaders[i + 1]! : out + ', ' + rawHeaders[i + 1]!;
  }
  return out;
}

/**
 * The contract fields of the entry, from the body first and the headers second; seen: the attempt count (attempts.ts).
 */
export function fillAddressing(e: JournalEntry, seen: number): void {
  const body =
    typeof e.json === 'object' && e.json !== null && !Array.isArray(e.json)
      ? (e.json as Record<string, unknown>)
      : undefined;
  const event = (e.kind === 'lifecycle' ? str(body?.event) : undefined) ?? header(e, EVENT_HEADER);
  if (event !== undefined) e.event = event;
  const id = header(e, DELIVERY_ID_HEADER);
  if (id !== undefined) e.deliveryId = id;
  const q = e.query.endUserHandle;
  const handle =
    e.kind === 'facts'
      ? ((Array.isArray(q) ? q[0] : q) ?? header(e, END_USER_HEADER))
      : (str(body?.endUserHandle) ?? header(e, END_USER_HEADER));
  if (handle !== undefined) e.endUserHandle = handle;
  const ws = str(body?.workspaceKey) ?? header(e, WORKSPACE_HEADER);
  if (ws !== undefined) e.workspaceKey = ws;
  const a = header(e, ATTEMPT_HEADER);
  if (a !== undefined && /^[0-9]{1,6}$/.test(a.trim())) e.attempt = Number(a.trim());
  if (e.deliveryId !== undefined && e.attempt === undefined && seen > 0) e.attempt = seen;
}
