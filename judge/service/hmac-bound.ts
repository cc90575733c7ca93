/**
 * HMAC secrets bound to workspaces (observe's `--hmac-secret-file WS=FILE`): secrets are per workspace
 * and per environment, so a callback of a workspace verifies with a secret of its own, never with
 * another workspace's, its production parent's for a sandbox (SIGN-13); a workspace given two secrets
 * has rotated, and a callback made with either is accepted during the overlap (SIGN-14 reading: which one
 * the service signs with meanwhile is not shown).
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { rawBody } from './journal.ts';
import { hmacMadeOver, type BytesRule } from './hmac-variants.ts';
import { at } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

export const SIGN_14_BYTES: BytesRule = {
  clause: 'SIGN-14',
  id: 'sign.rotation',
  rule: 'after a rotation v1 is made with the secret given or the previous one',
};
const OWN_SECRET: CheckWords = { id: 'sign.sandbox-own-secret' };
const OWN_RULE = "a workspace's callbacks are signed with its own secret, never another workspace's";

export interface OwnSecrets {
  /** The workspace's own secrets, for the judging of the bytes and the hex (hmac-variants.ts). */
  secrets: string[];
  /** Made with one of them over t, a dot and the body. */
  valid: boolean;
  /** Two or more: a rotation, whose rule is SIGN-14's. */
  rotated: boolean;
}

/**
 * The request's workspace's own secrets and whether they made it over `body` (a callback's raw bytes, or
 * the facts GET's request line), or 'other' when another bound workspace's secret made it (SIGN-13 failed:
 * nothing more to judge of its bytes); undefined when its workspace has no secret of its own (the secrets
 * for every workspace judge it).
 */
export function judgeBound(
  e: JournalEntry,
  v: Verdicts,
  header: string,
  bound: Record<string, string[]>,
  body: Uint8Array | string = rawBody(e),
): OwnSecrets | 'other' | undefined {
  const ws = e.workspaceKey;
  const own = ws !== undefined ? bound[ws] : undefined;
  if (own === undefined) return undefined;
  const valid = hmacMadeOver(own, header, body) === 'contract';
  const others = Object.keys(bound).filter((k) => k !== ws);
  if (!valid) {
    const other = others.find((k) => hmacMadeOver(bound[k]!, header, body) === 'contract');
    if (other !== undefined) {
      v.that('SIGN-13', OWN_RULE, false, {
        ...OWN_SECRET,
        expected: `v1 made with a secret of ${ws}`,
        seen: `made with the secret of ${other} (${at(e)})`,
      });
      return 'other';
    }
  } else if (others.length > 0) v.that('SIGN-13', OWN_RULE, true, OWN_SECRET);
  return { secrets: own, valid, rotated: own.length > 1 };
}
