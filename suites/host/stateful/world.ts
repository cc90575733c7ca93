/**
 * The real side of one host sequence: the harness (its service side, the receiver's endpoint of the
 * sequence's signing mode), fresh handles and conversation ids, the payload of each delivery built once (a
 * redelivery is the same bytes, section 6 rule 4), the read scripts of its keys, the keys a rotation
 * published, and the sequence's script in words. Payloads and senders are the host harness's own
 * (payloads.ts, deliver.ts, signature-case-kit.ts).
 */
import { randomBytes } from 'node:crypto';
import type { SignerConfig } from '../../../protocol/index.ts';
import type { HostHarness, ModeEndpoint, SigningKey } from '../harness/harness.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from '../harness/payloads.ts';
import { describe, type Payload, type SendOutcome } from '../../../judge/host/index.ts';
import { WRONG_SECRET } from '../harness/signature-case-kit.ts';
import { QUICK_MS } from '../harness/ack.ts';
import { curlOf } from '../harness/send.ts';
import type { HostCoverage } from './coverage.ts';
import {
  CONVERSATIONS,
  SANDBOX_CONV,
  SCRIPT_STATUSES,
  USERS,
  deliveryName,
  userOf,
  type DeliveryRef,
  type ReadScript,
  type Signer,
} from './model.ts';
import type { HostTally } from './violation.ts';

/** Pages of a bulk manifest in a sequence (section 6: each page a separate delivery, count on every page). */
export const BULK_PAGES = 2;

/**
 * The longest a scripted hold keeps a read: half of HOST-2's 1 s (ack.ts QUICK_MS), so that a receiver which
 * makes callbacks wait for its reads (HOST-2's fault) still answers them within HOST-1's 10 s when the holds of
 * every sequence side by side add up.
 */
const HOLD_MS = QUICK_MS / 2;

export interface Built {
  payload: Payload;
  /** An onComplete's keys and their read scripts. */
  scripts: Array<{ key: string; script: ReadScript }>;
}

export class World {
  readonly tag = randomBytes(3).toString('hex');
  readonly handles = Array.from({ length: USERS }, (_, u) => freshHandle(`mb${u}`));
  readonly conversations = Array.from({ length: CONVERSATIONS }, () => freshConversationId());
  readonly built = new Map<string, Built>();
  readonly rotated: SigningKey[] = [];
  /** The kids of genuine callbacks the receiver acknowledged in this sequence. */
  readonly ackedKids = new Set<string>();
  /** Keys whose reads the data API holds now. */
  readonly holding = new Map<string, { handle: string; key: string }>();
  readonly lines: string[] = [];
  private forger?: SigningKey;

  /** True once the exploration has ended elsewhere (run.ts): the sequence takes no further step. */
  ended: () => boolean = () => false;

  constructor(
    readonly h: HostHarness,
    readonly ep: ModeEndpoint,
    readonly coverage: HostCoverage,
    readonly tally: HostTally,
    readonly counts: Map<string, number>,
    /** The journal position when the sequence began: reads after it may be its receiver's. */
    readonly startSeq: number,
  ) {
    this.lines.push(
      `# ${ep.mode} receiver ${ep.hookUrl}; end users ${this.handles.map((x) => JSON.stringify(x)).join(', ')}; ` +
        `conversations ${this.conversations.join(', ')}` +
        (ep.sandbox ? ` (conversation#${SANDBOX_CONV} of sandbox workspace ${ep.sandbox.workspaceKey})` : ''),
    );
  }

  /** The sandbox of the conversation's workspace (2.1), when it is the declared sandbox's. */
  sandboxOf(conv: number): ModeEndpoint['sandbox'] {
    return conv === SANDBOX_CONV ? this.ep.sandbox : undefined;
  }

  handleOf(conv: number): string {
    return this.handles[userOf(conv)]!;
  }

  /** The delivery's payload, built (and its keys scripted on the data API) the first time it is named. */
  async build(d: DeliveryRef, scripts: readonly ReadScript[]): Promise<Built> {
    const name = deliveryName(d);
    const had = this.built.get(name);
    if (had !== undefined) return had;
    const ctx = {
      workspaceKey: this.sandboxOf(d.conv)?.workspaceKey ?? this.h.target.workspaceKey,
      configEnd: this.h.target.configEnd,
      endUserHandle: this.handleOf(d.conv),
      conversationId: this.conversations[d.conv]!,
      hookPath: this.ep.hookPath,
    };
    let extra: Record<string, unknown> = {};
    const keyed: Built['scripts'] = [];
    if (d.event === 'onComplete') {
      for (const script of scripts.length > 0 ? scripts : (['plain'] as const)) keyed.push({ key: freshKey(), script });
      extra = { serviceKeys: keyed.map((k) => k.key) };
    } else if (d.event === 'config.bulk_deleted') {
      // One manifest per conversation: every page says the same count (section 6).
      extra = { count: BULK_PAGES * 2, page: d.page, totalPages: BULK_PAGES, keys: [freshKey(), freshKey()] };
    }
    const payload = lifecyclePayload(d.event, ctx, extra);
    for (const { key, script } of keyed) {
      const statuses = SCRIPT_STATUSES[script];
      // A held read waits until released (a later step, or the sequence's end), HOLD_MS at most.
      const hold =
        script === 'held' ? { ms: Math.min(HOLD_MS, this.h.target.timeouts.dataReadMs), reads: 1 } : undefined;
      if (statuses.length > 0 || hold !== undefined)
        await this.h.service.script(ctx.endUserHandle, key, statuses, hold);
      if (hold !== undefined) this.holding.set(`${name}\u0000${key}`, { handle: ctx.endUserHandle, key });
    }
    const b = { payload, scripts: keyed };
    this.built.set(name, b);
    return b;
  }

  /** The onStart a rotation signs with its new kid: a conversation of user#0 outside the model's (no keys). */
  rotationOnStart(): Payload {
    return lifecyclePayload('onStart', {
      workspaceKey: this.h.target.workspaceKey,
      configEnd: this.h.target.configEnd,
      endUserHandle: this.handles[0]!,
      conversationId: freshConversationId(),
      hookPath: this.ep.hookPath,
    });
  }

  /** Ends the holds of a delivery's keys (every hold when name is undefined). */
  async release(name?: string): Promise<void> {
    for (const [k, v] of [...this.holding]) {
      if (name !== undefined && !k.startsWith(`${name}\u0000`)) continue;
      this.holding.delete(k);
      await this.h.service.release(v.handle, v.key);
    }
  }

  /** The signer config of a genuine request (5.2): the current key or secret, or another a sequence may use. */
  signerOf(s: Signer, conv: number): { signer?: SignerConfig; words: string } {
    const ep = this.ep;
    // A sandbox signs with its own secret, or its own kid in the same document (5.2); unsigned when signing is off.
    const sandbox = this.sandboxOf(conv);
    if (sandbox !== undefined && s === 'current')
      return ep.mode === 'none'
        ? { words: `unsigned, sandbox ${sandbox.workspaceKey}` }
        : {
            signer: sandbox.signer,
            words: `sandbox ${sandbox.workspaceKey}'s own ${ep.mode === 'hmac' ? 'secret' : 'kid'}`,
          };
    if (s === 'previous')
      return { signer: { mode: 'hmac', secret: ep.previousSecret ?? '' }, words: 'previous secret' };
    if (s === 'other-kid' && ep.decoy)
      return { signer: { mode: 'jwks', privateKey: ep.decoy.privateKey, kid: ep.decoy.kid }, words: 'another kid' };
    const key = s === 'earlier-rotated' ? this.rotated[0] : this.rotated[this.rotated.length - 1];
    if ((s === 'rotated' || s === 'earlier-rotated') && key)
      return {
        signer: { mode: 'jwks', privateKey: key.privateKey, kid: key.kid },
        words: `${s === 'rotated' ? 'rotated' : 'earlier rotated'} kid ${key.kid}`,
      };
    return { words: 'current key' };
  }

  /**
   * A signer a correct verifier refuses: a wrong secret, or another private key under the current kid (the
   * sandbox's own, for a delivery of the sandbox).
   */
  async forgedSigner(conv: number): Promise<SignerConfig> {
    if (this.ep.mode === 'hmac') return { mode: 'hmac', secret: WRONG_SECRET };
    this.forger ??= await this.h.newKey();
    const kid = this.sandboxOf(conv)?.key?.kid ?? this.ep.key?.kid ?? '';
    return { mode: 'jwks', privateKey: this.forger.privateKey, kid };
  }

  step(words: string): void {
    this.lines.push(`${this.steps + 1}. ${words}`);
  }

  answer(o: SendOutcome): void {
    this.lines.push(`   -> ${describe(o)}\n   ${curlOf(o)}`);
  }

  get steps(): number {
    return this.lines.filter((l) => /^\d+\. /.test(l)).length;
  }
}
