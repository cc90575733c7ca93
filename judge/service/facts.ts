/**
 * The user-facts GET as traffic shows it (4.1, 5.2): the mock host's checks of its request form,
 * headers, delivery id and signature presence (FACTS-1..4, mock-host/checks.ts), and its signature
 * over the request line in the declared mode (SIGN-6).
 */
import { SIGNATURE_HEADER } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from './journal.ts';
import { hmacMadeOver, judgeHmac, type BytesRule } from './hmac-variants.ts';
import { SIGN_14_BYTES, judgeBound, type OwnSecrets } from './hmac-bound.ts';
import { at } from './words.ts';
import type { DeclaredSigning } from './words.ts';
import type { Verdicts } from './verdicts.ts';
import { toClauseId, type ServiceCheckId } from '../../spec/index.ts';

const FACTS_CHECK_IDS: Record<string, ServiceCheckId | undefined> = {
  'FACTS-1': 'facts.request-form',
  'FACTS-2': 'facts.headers',
  'FACTS-3': 'facts.delivery-id',
  'FACTS-4': 'facts.signature-exactly-when-on',
};

/**
 * The query holds the X-Service-End-User handle written as it is, not percent-encoded: read as a query it
 * names another handle (a space, '&', '+', '#' or '%' in it), so FACTS-1's form is what broke, not the
 * header or the delivery id the mock host compares with the handle it read.
 */
function unencodedHandle(e: JournalEntry): string | undefined {
  const user = header(e, 'x-service-end-user');
  const raw = e.url.slice(e.url.indexOf('?') + 1);
  if (user === undefined || !e.url.includes('?') || new URLSearchParams(raw).get('endUserHandle') === user) return;
  if (!raw.startsWith('endUserHandle=')) return undefined;
  // the whole rest is the handle when '&', '+' or '#' went unencoded (a client may still encode a space)
  const rest = raw.slice('endUserHandle='.length);
  return rest === user || safeDecode(rest) === user ? user : undefined;
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/**
 * After a rotation the facts GET is signed with the secret given or the previous one, either accepted during
 * the overlap (5.2 Secrets; SIGN-14 reading): made with neither over the request line, nor over its path and
 * query alone (SIGN-6's bytes, judged by judgeHmac), fails SIGN-14, not SIGN-6 (SIGN-12 reading: the clause of
 * which secret signs tells the secret from the bytes). False when it failed.
 */
function rotationSecret(v: Verdicts, own: OwnSecrets, sig: string, target: string, where: string): boolean {
  const made =
    own.valid ||
    (hmacMadeOver(own.secrets, sig, `GET ${target}`) ?? hmacMadeOver(own.secrets, sig, target)) !== undefined;
  return v.that(SIGN_14_BYTES.clause, SIGN_14_BYTES.rule, made, {
    id: SIGN_14_BYTES.id,
    expected: 'v1 made with the secret given or the previous one',
    seen: `neither makes it over the request line${where}`,
  });
}

export function judgeFacts(
  e: JournalEntry,
  v: Verdicts,
  signing: DeclaredSigning,
  secrets: string[] = [],
  bound?: Record<string, string[]>,
): void {
  const handle = e.query.endUserHandle;
  const noHandle = typeof handle !== 'string' || handle === '';
  const unencoded = unencodedHandle(e);
  if (unencoded !== undefined) {
    v.that('FACTS-1', 'the query is ?endUserHandle= the handle, percent-encoded', false, {
      id: 'facts.request-form',
      expected: `?endUserHandle=${encodeURIComponent(unencoded)}`,
      seen: `${e.url} (${at(e)})`,
    });
  }
  for (const c of e.checks) {
    // the end-user header and the delivery id are compared with the query's handle: without one, or with
    // one read from an unencoded query, FACTS-1 speaks and they are not decided
    if ((noHandle || unencoded !== undefined) && (c.name === 'end-user-header' || c.name === 'delivery-id')) continue;
    // the mock host's checks name the clause of their own rule (mock-host/checks.ts)
    v.that(toClauseId(c.clause), `the user-facts GET: ${c.name}`, c.ok, {
      id: FACTS_CHECK_IDS[c.clause],
      seen: `${c.detail} (${at(e)})`,
    });
  }
  if (signing !== 'hmac' && signing !== 'jwks') return;
  const s = e.signature;
  const where = ` (${at(e)})`;
  const rule = 'the facts GET is signed over "GET " + path and query';
  const bytes: BytesRule = { clause: 'SIGN-6', id: 'sign.facts-request-line', rule };
  const sig = header(e, SIGNATURE_HEADER);
  // an absent signature is FACTS-4's; another header form is the mode's own rule
  if (sig === undefined) return;
  if (signing === 'hmac') {
    if (!/^t=[0-9]+,v1=[0-9a-fA-F]+$/.test(sig.trim())) return;
    const line = `GET ${e.url}`;
    // secrets bound to workspaces: the GET's workspace's own (SIGN-13), either of two after a rotation
    const own = bound !== undefined ? judgeBound(e, v, sig, bound, line) : undefined;
    if (own === 'other' || (own?.rotated && !rotationSecret(v, own, sig, e.url, where))) return;
    const valid = own === undefined ? s.verdict === 'valid' : own.valid;
    judgeHmac(v, { secrets: own?.secrets ?? secrets, header: sig, payload: line, valid, bytes, where });
    return;
  }
  if (s.verdict !== 'valid' && s.verdict !== 'invalid') return;
  v.that('SIGN-6', bytes.rule, s.verdict === 'valid', {
    id: bytes.id,
    expected: `a valid signature over "GET ${e.url}"`,
    seen: `${s.verdict}: ${s.reason}${where}`,
  });
}
