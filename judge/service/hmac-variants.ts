/**
 * Which bytes an HMAC v1 was made over, as the SIGN-12 reading tells the clauses apart: the clauses of
 * which secret signs which bytes (SIGN-3, SIGN-6) compare v1 without regard to case, over t and the
 * bytes with or without the dot; the hex case and the dot are SIGN-12's alone. Needs the secret.
 */
import { createHmac } from 'node:crypto';
import { hmacHex, isExactHmacForm } from '../../protocol/index.ts';
import type { ClauseId, ServiceCheckId } from '../../spec/index.ts';

type MadeOver = 'contract' | 'no-dot';

const FORM = /^t=([0-9]+),v1=([0-9a-fA-F]+)$/;

/** 'contract': t + "." + payload; 'no-dot': t + payload; undefined: neither, with any secret given. */
export function hmacMadeOver(secrets: string[], header: string, payload: Uint8Array | string): MadeOver | undefined {
  const m = FORM.exec(header.trim());
  if (!m) return undefined;
  const [, t, v1] = m as unknown as [string, string, string];
  const got = v1.toLowerCase();
  for (const secret of secrets) {
    if (hmacHex(secret, t, payload) === got) return 'contract';
    const noDot = createHmac('sha256', Buffer.from(secret, 'utf8')).update(t).update(payload).digest('hex');
    if (noDot === got) return 'no-dot';
  }
  return undefined;
}

/** The clause that says which secret signs which bytes for this request (SIGN-3 callbacks, SIGN-6 facts GET). */
export interface BytesRule {
  clause: ClauseId;
  id: ServiceCheckId;
  rule: string;
}

export const V1_RULE = 'v1 is the lowercase hex HMAC-SHA256, with the workspace secret, of t, a dot and the raw bytes';
const SIGN_12 = {
  id: 'sign.hmac-v1' as const,
  expected: 'v1 = HMAC-SHA256(secret, t + "." + bytes), 64 lowercase hex digits',
};
const SIGN_12_ID = { id: SIGN_12.id };

interface Judge {
  that(
    clause: ClauseId,
    rule: string,
    ok: boolean,
    words?: { id?: ServiceCheckId; expected?: string; seen?: string },
  ): boolean;
  warn(clause: ClauseId, rule: string, reason: string): void;
}

/** A value worked out only when the signature is not the contract's at first sight (a valid lowercase v1). */
type Lazy<T> = T | (() => T);
function value<T>(x: Lazy<T>): T {
  return typeof x === 'function' ? (x as () => T)() : x;
}

/**
 * The contract's signature at first sight (verified, v1 of 64 lowercase hex digits): both clauses held,
 * and true; false when it is not, for judgeHmac to tell why. Called first on every callback, so the
 * judge of 100,000 valid ones builds none of judgeHmac's lazy values.
 */
export function hmacAtFirstSight(
  v: Judge,
  header: string,
  valid: boolean,
  bytes: BytesRule,
  exact = valid && isExactHmacForm(header.trim()),
): boolean {
  if (!valid || !exact) return false;
  v.that(bytes.clause, bytes.rule, true, { id: bytes.id });
  v.that('SIGN-12', V1_RULE, true, SIGN_12_ID);
  return true;
}

/**
 * An HMAC signature of the declared form, judged on the clause each condition is: SIGN-12 for the hex
 * case and the dot, `bytes` for the secret and the signed bytes (SIGN-12 reading).
 */
export function judgeHmac(
  v: Judge,
  o: {
    secrets: string[];
    header: string;
    payload: Lazy<Uint8Array | string>;
    valid: boolean;
    bytes: BytesRule;
    where: Lazy<string>;
  },
): void {
  if (hmacAtFirstSight(v, o.header, o.valid, o.bytes)) return;
  const lowerHex = isExactHmacForm(o.header.trim());
  const where = value(o.where);
  if (o.secrets.length === 0) {
    v.warn(
      o.bytes.clause,
      o.bytes.rule,
      `the signature does not verify${where}; without --hmac-secret-file the ` +
        'judge cannot tell the secret or the bytes (this clause) from the hex case or the dot (SIGN-12)',
    );
    return;
  }
  const over = hmacMadeOver(o.secrets, o.header, value(o.payload));
  if (over === undefined) {
    v.that(o.bytes.clause, o.bytes.rule, false, {
      id: o.bytes.id,
      expected: 'v1 made with the workspace secret over t and these bytes',
      seen: `no secret given makes it${where}`,
    });
    if (!lowerHex) v.that('SIGN-12', V1_RULE, false, { ...SIGN_12, seen: `v1 is not 64 lowercase hex${where}` });
    return;
  }
  v.that(o.bytes.clause, o.bytes.rule, true, { id: o.bytes.id });
  const seen = over === 'no-dot' ? 'v1 made over t and the bytes with no dot between' : 'v1 in another hex case';
  v.that('SIGN-12', V1_RULE, false, { ...SIGN_12, seen: `${seen}${where}` });
}
