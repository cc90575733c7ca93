/**
 * Known-answer vectors of the host fault model: every row of spec/faults/host.yaml with
 * `vector: true` becomes a vector in each signing mode and on each kind of signed request its case
 * applies to (a callback's raw body, the facts GET's request line), built by the very case builders
 * the live suite sends (suites/host/harness/signature-cases.ts) with the test-only fixture keys and
 * secrets (fixtures/keys/) at a fixed clock. HMAC vectors are the same bytes on every run; an
 * ES256 signature is randomized, so the JWS vectors differ from run to run in their signatures
 * only (docs/vectors.md).
 */
import { importJWK } from 'jose';
import { ccsError, loadFaultModel, type FaultModelRow } from '../spec/index.ts';
import { testHmacSecrets, testJwks, testPrivateJwk, testPublicJwk, type TestKeyName } from '../fixtures/keys/index.ts';
import {
  SIGNATURE_CASES,
  factsCheckId,
  type CaseKey,
  type Keyring,
  type SignatureCase,
  type SignedKind,
  type SigningMode,
} from '../suites/host/index.ts';
import type { Vector, Verdict } from './vector-types.ts';

/** The verifier's clock of every fault-model vector, unix seconds (2026-01-01T00:00:00Z). */
export const VECTOR_NOW = 1_767_225_600;

/**
 * A body with dots of its own (step 4 splits at the first one), a non-ASCII character, and bytes a
 * parse and a re-serialization would change (a space after each separator, an escaped slash): a
 * verifier over JSON.stringify(JSON.parse(body)) fails every vector that should verify (HOST-4).
 */
const BODY =
  '{"event": "onComplete", "workspaceKey": "ws-vectors", "configEnd": "\\/settings", ' +
  '"endUserHandle": "u-vector-\u00fc", "conversationId": 4242, "timestamp": "2026-01-01T00:00:00.000", ' +
  '"serviceKeys": ["sk-1.a", "sk-2"], "path": "/hooks/ccs"}';
/** The facts GET's request target, its query percent-encoded as sent (5.2 item 6). */
const FACTS_TARGET = '/facts?endUserHandle=u-vector-%C3%BC%2Fa';

/** The check of a row that a correctly signed request decides: its case is the control. */
const CONTROL_CHECK = 'sig.valid-accepted';

/**
 * The verdict the exported verifier must give each case (docs/vectors.md: absent, malformed,
 * unknown-kid, invalid, then the window). Declared here, never read from the verifier.
 */
const VERDICT_OF_CASE: Record<string, Verdict> = {
  'sig.control': 'valid',
  'sig.t-past-300s-accepted': 'valid',
  'sig.t-future-300s-accepted': 'valid',
  'sig.t-past-301s': 'stale',
  'sig.t-future-301s': 'future',
  'sig.header-absent': 'absent',
  'sig.jws-header-absent': 'absent',
  'sig.kid-unknown': 'unknown-kid',
  'sig.kid-unknown-published-key': 'unknown-kid',
  'sig.hmac-v1-truncated': 'malformed',
  'sig.hmac-v1-extended': 'malformed',
  'sig.hmac-v1-empty': 'malformed',
  'sig.hmac-v1-not-hex': 'malformed',
  'sig.hmac-t-only': 'malformed',
  'sig.hmac-v1-only': 'malformed',
  'sig.hmac-t-not-digits': 'malformed',
  'sig.hmac-garbage': 'malformed',
  'sig.jws-no-kid': 'malformed',
  'sig.jws-alg-none': 'malformed',
  'sig.jws-payload-without-t': 'malformed',
  'sig.jws-t-not-digits': 'malformed',
  'sig.jws-not-compact': 'malformed',
  'sig.jws-two-parts': 'malformed',
  'sig.jws-empty-header': 'malformed',
  'sig.body-byte-changed': 'invalid',
  'sig.reserialized-body': 'invalid',
  'sig.request-line-changed': 'invalid',
  'sig.hmac-wrong-secret': 'invalid',
  'sig.hmac-t-changed': 'invalid',
  'sig.hmac-no-dot': 'invalid',
  'sig.jws-wrong-key': 'invalid',
  'sig.jws-kid-of-other-key': 'invalid',
  'sig.jws-alg-hs256': 'invalid',
  'sig.jws-der-signature': 'invalid',
  'sig.jws-body-byte-changed': 'invalid',
  'sig.jws-reserialized-body': 'invalid',
  // The JWS forms of HOST-27 a verifier accepts, and the shapes it refuses (suites/host/harness/wire/jws-shapes.ts).
  'sig.jws-r-leading-zero': 'valid',
  'sig.jws-s-leading-zero': 'valid',
  'sig.jws-header-reordered': 'valid',
  'sig.jws-header-typ': 'valid',
  'sig.jws-signature-63-bytes': 'invalid',
  'sig.jws-signature-65-bytes': 'invalid',
  'sig.jws-padded': 'malformed',
  'sig.jws-standard-alphabet': 'malformed',
  'sig.jws-extra-dot': 'malformed',
};

export interface FaultVector extends Vector {
  row: string;
  check: string;
}

/** The case of a row, and the kind of request its check is about (a facts-sig.* check: the facts GET). */
export function caseOfRow(row: FaultModelRow): { c: SignatureCase; kind: SignedKind } | undefined {
  const check = row.check === CONTROL_CHECK ? 'sig.control' : row.check;
  for (const c of SIGNATURE_CASES) {
    if (c.id === check) return { c, kind: c.kinds.includes('callback') ? 'callback' : 'facts' };
    if (factsCheckId(c) === check && c.kinds.includes('facts')) return { c, kind: 'facts' };
  }
  return undefined;
}

async function caseKey(name: TestKeyName): Promise<CaseKey> {
  const jwk = testPrivateJwk(name);
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, 'ES256', { extractable: true })) as CaseKey['privateKey'],
    publicJwk: testPublicJwk(name),
  };
}

/**
 * The fixture keyring: the document publishes production (the key) and sandbox (the decoy); rotated is the stranger.
 */
async function keyring(mode: SigningMode): Promise<Keyring> {
  if (mode === 'hmac') return { secret: testHmacSecrets('production').current };
  const [key, decoy, stranger] = await Promise.all([caseKey('production'), caseKey('sandbox'), caseKey('rotated')]);
  return { key, decoy, stranger };
}

/** The JWKS document of the JWS vectors, the HMAC secrets of the HMAC vectors. */
export const FAULT_VECTOR_JWKS = (): { keys: unknown[] } => testJwks(['production', 'sandbox']);

/** The signing modes a row names in its applies ("hmac, jwks"), when it names some. */
function rowModes(row: FaultModelRow): string[] | undefined {
  const words = (row.applies ?? []).find((a) => /^(hmac|jwks|none)(, (hmac|jwks|none))*$/.test(a));
  return words?.split(', ');
}

function offset(t: number): string {
  const d = t - VECTOR_NOW;
  return d === 0 ? 'now' : `now ${d > 0 ? '+' : '-'} ${Math.abs(d)} s`;
}

/** Every vector row of the host fault model in one mode, in the model's order. */
export async function faultModelVectors(mode: SigningMode): Promise<FaultVector[]> {
  const k = await keyring(mode);
  const out: FaultVector[] = [];
  for (const row of loadFaultModel('host').rows) {
    if (!row.vector) continue;
    const found = caseOfRow(row);
    if (found === undefined)
      throw ccsError('CLI_VECTORS_SOURCE_INVALID', {
        file: 'spec/faults/host.yaml',
        problem: `row ${row.row} is a vector row, but no signature case has its check ${row.check}`,
      });
    const { c, kind } = found;
    if (!c.modes.includes(mode) || !(rowModes(row) ?? c.modes).includes(mode)) continue;
    const verdict = VERDICT_OF_CASE[c.id];
    if (verdict === undefined) {
      const problem = `signature case ${c.id} has no declared verdict (VERDICT_OF_CASE)`;
      throw ccsError('CLI_VECTORS_SOURCE_INVALID', { file: 'cli/fault-vectors.ts', problem });
    }
    const t = c.t ? c.t(VECTOR_NOW) : VECTOR_NOW;
    const payload = Buffer.from(kind === 'facts' ? `GET ${FACTS_TARGET}` : BODY, 'utf8');
    const built = await c.build({ payload, t, ...(kind === 'facts' ? { requestTarget: FACTS_TARGET } : {}) }, k);
    const base = {
      name: `${row.row}: ${c.name} (t at ${offset(t)})`,
      row: row.row,
      check: row.check!,
      header: built.signature,
      now: VECTOR_NOW,
      verdict,
      clauses: [row.clause],
    };
    out.push(
      kind === 'facts'
        ? { ...base, kind: 'facts', requestTarget: FACTS_TARGET, ...(mode === 'hmac' ? { secrets: ['current'] } : {}) }
        : {
            ...base,
            kind: 'callback',
            body: (built.body ?? payload).toString('utf8'),
            ...(mode === 'hmac' ? { secrets: ['current'] } : {}),
          },
    );
  }
  return out;
}
