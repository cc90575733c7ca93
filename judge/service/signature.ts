/**
 * The signature of one callback in the declared mode (section 5.2): presence (SIGN-3), the form of
 * each mode (SIGN-7, SIGN-11), its verification (SIGN-3, SIGN-8, SIGN-9, SIGN-12) and t (SIGN-4), from
 * the verdict the mock host already gave the entry (mock-host/verify.ts).
 */
import { SIGNATURE_HEADER, isExactHmacForm } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { header, rawBody } from './journal.ts';
import { hmacAtFirstSight, judgeHmac, type BytesRule } from './hmac-variants.ts';
import { SIGN_14_BYTES, judgeBound } from './hmac-bound.ts';
import { at, show, type DeclaredSigning } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

/** SIGN-4 reading: t is within 5 s of the arrival; past the receiver's 300 s window it is broken. */
const T_NEAR_ARRIVAL_S = 5;

/** SIGN-11's form alone: v1 of any hex case and length (its case and length are SIGN-12's). */
const HMAC_FORM = /^t=[0-9]+,v1=[0-9a-fA-F]+$/;
const SIGN_3_BYTES: BytesRule = {
  clause: 'SIGN-3',
  id: 'sign.every-event',
  rule: "v1 is made with the workspace secret over the callback's bytes",
};

/** The words (check ids) of the checks every callback passes through, made once (per-callback.ts). */
const EVERY_EVENT: CheckWords = { id: 'sign.every-event' };
const HMAC_HEADER_FORM: CheckWords = { id: 'sign.hmac-header-form' };
const T_NOW: CheckWords = { id: 'sign.t-now' };

/** The signature's verdict in a failure's words. */
function seen(e: JournalEntry): string {
  return `${e.signature.verdict}: ${e.signature.reason} (${at(e)})`;
}

/** SIGN-3, SIGN-4, SIGN-7..9, SIGN-11..14 from the entry's verdict in the declared mode. */
export function judgeSignature(
  e: JournalEntry,
  v: Verdicts,
  signing: DeclaredSigning,
  secrets: string[],
  timed = true,
  bound?: Record<string, string[]>,
): void {
  if (signing !== 'hmac' && signing !== 'jwks') return;
  const sig = header(e, SIGNATURE_HEADER);
  const carried = sig !== undefined && sig !== '';
  // the words of a failure are worked out only for a failure (verdicts.ts)
  const present = v.that(
    'SIGN-3',
    'every lifecycle callback carries X-Service-Signature',
    carried,
    EVERY_EVENT,
    carried ? undefined : () => ({ expected: 'an X-Service-Signature header', seen: `none (${at(e)})` }),
  );
  if (!present) return;
  const s = e.signature;
  if (signing === 'hmac') {
    // SIGN-11 reading: the form is t first, v1 second; that v1 is 64 lowercase hex digits is SIGN-12's
    // the contract's exact form (the usual header) is of this form too: no regex for it
    const trimmed = sig!.trim();
    const exact = isExactHmacForm(trimmed);
    const hmacForm = exact || HMAC_FORM.test(trimmed);
    const form = v.that(
      'SIGN-11',
      'in HMAC mode the header is t=<unix_seconds>,v1=<hex>',
      hmacForm,
      HMAC_HEADER_FORM,
      hmacForm
        ? undefined
        : () => ({ expected: 't=<unix_seconds>,v1=<hex>', seen: `${show(sig!.slice(0, 40))} (${at(e)})` }),
    );
    if (!form) return;
    // secrets bound to workspaces: this workspace's own, judged apart from the others' (SIGN-13, SIGN-14)
    const own = bound !== undefined ? judgeBound(e, v, sig!, bound) : undefined;
    if (own === 'other') return;
    const valid = own === undefined ? s.verdict === 'valid' : own.valid;
    const rule = own?.rotated ? SIGN_14_BYTES : SIGN_3_BYTES;
    // the lazy values are closures in an object, which the TypeScript loader names one by one: built
    // only for a signature that is not the contract's at first sight
    if (!hmacAtFirstSight(v, sig!, valid, rule, exact))
      judgeHmac(v, {
        secrets: own?.secrets ?? secrets,
        header: sig!,
        payload: () => rawBody(e),
        valid,
        where: () => ` (${at(e)})`,
        bytes: rule,
      });
  } else {
    const form = v.that(
      'SIGN-7',
      'in JWKS mode the header is a compact JWS with alg ES256 and a kid',
      s.verdict !== 'malformed',
      { id: 'sign.jws-form' },
      () => ({ expected: 'a compact ES256 JWS with a kid', seen: seen(e) }),
    );
    if (!form) return;
    if (s.verdict === 'unknown-kid') {
      v.that(
        'SIGN-9',
        'the kid a callback is signed with is in the JWKS document',
        false,
        { id: 'sign.jwks-document' },
        () => ({ expected: 'a kid of the document', seen: seen(e) }),
      );
      return;
    }
    // a valid JWS verified with the document's key under its kid: the document holds that kid's key
    if (s.verdict === 'valid')
      v.that('SIGN-9', 'the kid a callback is signed with is in the JWKS document', true, { id: 'sign.jwks-document' });
    if (s.verdict === 'invalid' || s.verdict === 'valid') {
      v.that(
        'SIGN-8',
        'the JWS payload is "<unix_seconds>." followed by the raw body and verifies',
        s.verdict === 'valid',
        { id: 'sign.jws-payload' },
        () => ({ expected: '"<t>." + the raw body bytes received, verified', seen: seen(e) }),
      );
    }
  }
  if (timed) judgeT(e, v);
}

function judgeT(e: JournalEntry, v: Verdicts): void {
  const s = e.signature;
  if (s.verdict === 'stale' || s.verdict === 'future') {
    v.that(
      'SIGN-4',
      "the signature's t is the unix time at sending, inside the 300 s window",
      false,
      { id: 'sign.t-now' },
      () => ({ expected: 'abs(arrival - t) <= 300 s', seen: seen(e) }),
    );
    return;
  }
  if (s.t === undefined) return;
  const skew = e.arrival.wallMs / 1000 - s.t;
  const inWindow = Math.abs(skew) <= 300;
  v.that(
    'SIGN-4',
    "the signature's t is the unix time at sending, inside the 300 s window",
    inWindow,
    T_NOW,
    inWindow
      ? undefined
      : () => ({
          expected: 'abs(arrival - t) <= 300 s',
          seen: `t ${s.t}, ${skew.toFixed(1)} s before arrival (${at(e)})`,
        }),
  );
  // Between 5 s and 300 s the judge cannot tell a stale t from the clocks of two machines apart.
  if (Math.abs(skew) > T_NEAR_ARRIVAL_S && Math.abs(skew) <= 300) {
    v.warn(
      'SIGN-4',
      "the signature's t is near the arrival",
      `t is ${skew.toFixed(1)} s from arrival (${at(e)}): stale, or the service's clock is off`,
    );
  }
}
