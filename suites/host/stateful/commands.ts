/**
 * The commands of the host model: what the contract lets a service do to a host (sections 4.1, 5.2, 6, 7).
 * Each sends through the host harness's own senders (deliver.ts), which record every exchange in the judge's
 * ledger; the step checks the answer against the model (expect.ts) and marks its coverage row.
 */
import type fc from 'fast-check';
import { unixNow } from '../../../protocol/index.ts';
import { deliver, fetchFacts } from '../harness/deliver.ts';
import { oneByteChanged } from '../harness/signature-case-kit.ts';
import { isAck } from '../../../judge/host/index.ts';
import { readOk } from '../harness/reads.ts';
import { expectAck, expectFacts, expectRefusal, refusalOf, type Situation } from './expect.ts';
import {
  ENDS_READ,
  deliveryName,
  userOf,
  type BadKind,
  type DeliveryRef,
  type Model,
  type ReadScript,
  type Signer,
} from './model.ts';
import { ExplorationEnded } from './violation.ts';
import type { World } from './world.ts';

abstract class Step implements fc.AsyncCommand<Model, World> {
  abstract check(m: Readonly<Model>): boolean;
  async run(m: Model, w: World): Promise<void> {
    if (w.ended()) throw new ExplorationEnded();
    w.step(this.toString());
    w.counts.set(this.constructor.name, (w.counts.get(this.constructor.name) ?? 0) + 1);
    await this.act(m, w);
  }
  protected abstract act(m: Model, w: World): Promise<void>;
  abstract toString(): string;
}

const validRef = (d: DeliveryRef): boolean => d.event === 'config.bulk_deleted' || d.page === 1;

/**
 * HOST-11's given: the first delivery's reads are over before its redelivery leaves (the judge decides a
 * redelivery only then). Waited for when every key's script ends in a 200, until the read deadline.
 */
async function readsOver(w: World, name: string): Promise<void> {
  const b = w.built.get(name);
  if (b === undefined || b.payload.event !== 'onComplete') return;
  if (!b.scripts.every((s) => ENDS_READ.has(s.script))) return;
  const handle = String(b.payload.endUserHandle);
  const deadline = w.h.target.timeouts.dataReadMs;
  await Promise.all(b.scripts.map((s) => w.h.service.waitForRead(readOk(handle, s.key), deadline)));
}

/** A genuine delivery: first, again (a redelivery), or at attempt 2 or 3 (onComplete), by a signer of the mode. */
export class Send extends Step {
  constructor(
    readonly d: DeliveryRef,
    readonly attempt: number,
    readonly signer: Signer,
    readonly scripts: readonly ReadScript[],
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    // A sandbox's delivery is signed with the sandbox's own secret or kid only (5.2): whether a receiver takes
    // production's for it the contract does not say, so no sequence asks.
    const signer = m.inSandbox(this.d.conv) ? this.signer === 'current' : m.canSign(this.signer);
    return validRef(this.d) && signer && (this.attempt === 1 || this.d.event === 'onComplete');
  }
  protected async act(m: Model, w: World): Promise<void> {
    const name = deliveryName(this.d);
    const b = await w.build(this.d, this.scripts);
    const again = m.acked.has(name);
    if (again) await readsOver(w, name);
    // The newest key before any rotation is the current one (the sequence stays as long in every mode).
    const by: Signer = this.signer === 'rotated' && m.rotations === 0 ? 'current' : this.signer;
    if (by !== this.signer) w.lines.push('   (no JWKS rotation in this sequence yet: the current key or secret signs)');
    const { signer, words } = w.signerOf(by, this.d.conv);
    const o = await deliver(w.h, w.ep, b.payload, {
      attempt: this.attempt,
      ...(signer ? { signer, genuine: true } : {}),
    });
    w.answer(o);
    const situation: Situation = again
      ? 'redelivery'
      : this.attempt > 1
        ? 'retry'
        : this.d.page > 1
          ? 'later-page'
          : 'first';
    const what = `${name} (${words})`;
    const retry = this.attempt > 1;
    const kid = signer?.mode === 'jwks' ? signer.kid : undefined;
    // A rotated kid the receiver acknowledged before in this sequence, still in the document (HOST-8).
    const known = kid !== undefined && w.ackedKids.has(kid);
    if (!expectAck(w.tally, o, { mode: w.ep.mode, signer: by, situation, what, retry, known })) {
      w.lines.push('   (undecided here: HOST-11 and HOST-12 both name it; the unambiguous steps decide them)');
      return;
    }
    if (by === 'current') m.verifierSeen = true;
    if (kid !== undefined) w.ackedKids.add(kid);
    // The answer was the model's: the delivery is acknowledged, and its rows were exercised.
    const c = w.coverage;
    if (again) c.row('redelivery (same delivery id, same body) acknowledged');
    if (again && m.last !== name) c.row('redelivery after another delivery acknowledged');
    if (!again && this.d.page === 1) c.row(`first ${this.d.event} acknowledged`);
    if (!again && this.d.page > 1) c.row('later page of a bulk manifest acknowledged');
    if (!again && this.attempt > 1) c.row('onComplete first seen at attempt 2 or 3 acknowledged');
    if (again && this.attempt > 1) c.row('onComplete retried after its acknowledged attempt');
    if (!again && m.badSent.has(name)) c.row('genuine delivery after its bad copy acknowledged');
    if (by === 'rotated') c.row('callback signed by a rotated key');
    const later = w.rotated[1]?.kid;
    if (by === 'earlier-rotated' && later !== undefined && w.ackedKids.has(later))
      c.row("callback signed by an earlier rotation's key after a later one's");
    if (by === 'other-kid') c.row('callback signed by another published kid');
    if (by === 'previous') c.row('callback signed with the previous HMAC secret');
    const sandbox = m.inSandbox(this.d.conv);
    if (sandbox) c.row('deliveries of a sandbox workspace');
    if (!again && this.d.event === 'onComplete')
      for (const s of new Set(b.scripts.map((x) => x.script)))
        if (s !== 'plain') c.row(`onComplete with a read answered ${s === 'held' ? 'late (held, then released)' : s}`);
    if (!again && b.scripts.some((s) => s.script === 'held')) m.held.push(name);
    m.acked.add(name);
    m.sent.add(name);
    m.last = name;
    // A facts GET is of the production workspace: a sandbox's config.deleted is another workspace's user's (2.1).
    if (this.d.event === 'config.deleted' && !sandbox) m.deleted.add(userOf(this.d.conv));
  }
  toString(): string {
    const scripts = this.d.event === 'onComplete' ? `, reads ${this.scripts.join('/') || 'plain'}` : '';
    return `send ${deliveryName(this.d)} (attempt ${this.attempt}, ${this.signer} signer${scripts})`;
  }
}

/** A copy of a delivery a correct verifier refuses, before or after the genuine one. */
export class Bad extends Step {
  constructor(
    readonly d: DeliveryRef,
    readonly kind: BadKind,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return validRef(this.d) && m.signed;
  }
  protected async act(m: Model, w: World): Promise<void> {
    const name = deliveryName(this.d);
    const b = await w.build(this.d, []);
    const body = JSON.stringify(b.payload);
    // A copy of a delivery the receiver has met in any form may be answered as a duplicate before (or without)
    // verifying: its refusal is decided only on a first meeting (bad-signatures.ts: each case its own payload).
    const refused = m.sent.has(name) ? undefined : refusalOf(w.ep.mode, this.kind);
    // A sandbox's copy is made with the sandbox's own secret or kid (5.2), as its genuine delivery is.
    const own = w.sandboxOf(this.d.conv);
    const knobs = {
      ...(refused === undefined ? {} : { expect: { refused } }),
      ...(own !== undefined && w.ep.mode !== 'none' ? { signer: own.signer } : {}),
    };
    const o =
      this.kind === 'forged'
        ? await deliver(w.h, w.ep, b.payload, { ...knobs, signer: await w.forgedSigner(this.d.conv) })
        : this.kind === 'tampered'
          ? await deliver(w.h, w.ep, b.payload, {
              body: oneByteChanged(body),
              signedBody: body,
              ...knobs,
            })
          : await deliver(w.h, w.ep, b.payload, { t: unixNow() - 302, ...knobs });
    w.answer(o);
    expectRefusal(w.tally, o, `${this.kind} copy of ${name}`);
    if (isAck(o)) return; // accepted: the judge's refusal duty fails it at the sequence's end
    const c = w.coverage;
    c.row(
      this.kind === 'forged'
        ? 'forged copy refused 401'
        : this.kind === 'tampered'
          ? 'tampered copy refused 401'
          : 'replayed copy (t outside the window) refused 401',
    );
    c.row(m.acked.has(name) ? 'bad copy after the genuine delivery' : 'bad copy before the genuine delivery');
    m.badSent.add(name);
    m.sent.add(name);
  }
  toString(): string {
    return `send a ${this.kind} copy of ${deliveryName(this.d)}`;
  }
}

/** A correctly signed facts GET for a user (4.1, SIGN-6), at any point, repeated at will. */
export class Facts extends Step {
  constructor(readonly user: number) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.offers.facts;
  }
  protected async act(m: Model, w: World): Promise<void> {
    const handle = w.handles[this.user]!;
    const o = await fetchFacts(w.h, w.ep, { endUserHandle: handle });
    w.answer(o);
    if (!expectFacts(w.tally, o, `facts GET of user#${this.user}`, m.verifierSeen)) {
      w.lines.push('   (undecided here: no answer, or refused before any callback of the mode was verified)');
      return;
    }
    w.coverage.row('facts GET answered');
    if (m.factsAsked.has(this.user)) w.coverage.row('facts GET repeated for a user');
    if (m.deleted.has(this.user)) w.coverage.row('facts GET after a config.deleted of the user');
    m.factsAsked.add(this.user);
  }
  toString(): string {
    return `facts GET of user#${this.user}`;
  }
}

/**
 * A JWKS rotation: a new key published under a new kid, and the service signing with it at once (5.2 "refetch
 * when kid is unknown"): an onStart of a conversation of its own (no keys, no reads) under the new kid. First, in
 * a sequence whose receiver verified no callback of the current key yet, an onStart under the current kid: the
 * receiver then holds a document fetched before the rotation, which the rotation changes (its first fetch after
 * the rotation would find every key at once, and the test's place in the run would decide which one it saw).
 */
export class Rotate extends Step {
  check(m: Readonly<Model>): boolean {
    return m.offers.mode === 'jwks' && m.rotations < 2;
  }
  protected async act(m: Model, w: World): Promise<void> {
    if (!m.verifierSeen) {
      const before = await deliver(w.h, w.ep, w.rotationOnStart(), {});
      w.answer(before);
      const what = 'onStart before the rotation (current kid)';
      const x = { mode: 'jwks', signer: 'current' as const, situation: 'first' as const, retry: false, known: false };
      if (!expectAck(w.tally, before, { ...x, what })) return;
      m.verifierSeen = true;
    }
    const key = await w.h.newKey();
    await w.h.service.addJwk(key.publicJwk);
    w.rotated.push(key);
    w.lines.push(`   published kid ${key.kid}`);
    w.coverage.row('JWKS key published by a rotation');
    m.rotations += 1;
    const signer = { mode: 'jwks' as const, privateKey: key.privateKey, kid: key.kid };
    const o = await deliver(w.h, w.ep, w.rotationOnStart(), { signer, genuine: true });
    w.answer(o);
    const what = `onStart of the rotation (rotated kid ${key.kid})`;
    const x = { mode: 'jwks', signer: 'rotated' as const, situation: 'first' as const, retry: false, known: false };
    if (!expectAck(w.tally, o, { ...x, what })) return;
    w.ackedKids.add(key.kid);
    w.coverage.row('callback signed by a rotated key');
  }
  toString(): string {
    return 'rotate: publish a new JWKS key and sign an onStart with it (after one under the current kid, if none yet)';
  }
}

/** Ends the data API's hold of an onComplete's reads (ServiceSide.release). */
export class Release extends Step {
  constructor(readonly pick: number) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.held.length > 0;
  }
  protected async act(m: Model, w: World): Promise<void> {
    const name = m.held.splice(this.pick % m.held.length, 1)[0]!;
    await w.release(name);
  }
  toString(): string {
    return `release the held reads (#${this.pick})`;
  }
}
