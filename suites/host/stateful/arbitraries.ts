/**
 * The generated sequences: a signing mode (of those the target offers) and commands over a few conversations,
 * weighted toward the situations sequences alone reach: a delivery named again after others (a redelivery
 * after another, a retry), a bad copy before or after its genuine delivery, facts around a config.deleted.
 */
import fc from 'fast-check';
import { Bad, Facts, Release, Rotate, Send } from './commands.ts';
import {
  CONVERSATIONS,
  EVENTS,
  READ_SCRIPTS,
  USERS,
  type DeliveryRef,
  type Model,
  type ReadScript,
  type Signer,
} from './model.ts';
import type { World } from './world.ts';
import { BULK_PAGES } from './world.ts';

type Cmd = fc.Arbitrary<fc.AsyncCommand<Model, World>>;

const delivery: fc.Arbitrary<DeliveryRef> = fc
  .record({
    conv: fc.nat({ max: CONVERSATIONS - 1 }),
    // onComplete is the event with duties (reads, dedupe): about half the deliveries, each other event the rest.
    event: fc.oneof(
      { weight: 3, arbitrary: fc.constant('onComplete' as const) },
      { weight: 4, arbitrary: fc.constantFrom(...EVENTS) },
    ),
    page: fc.integer({ min: 1, max: BULK_PAGES }),
  })
  .map((d) => ({ ...d, page: d.event === 'config.bulk_deleted' ? d.page : 1 }));

/**
 * Mostly the current key; each other signer of a mode as often as the others (the previous HMAC secret, another
 * published kid, the last rotation's kid, the earlier of two rotations' kids after the later, HOST-8).
 */
const signer: fc.Arbitrary<Signer> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('current' as const) },
  fc.constant('rotated' as const),
  fc.constant('earlier-rotated' as const),
  fc.constant('previous' as const),
  fc.constant('other-kid' as const),
);

/**
 * The reads of an onComplete's one or two keys: the first mostly plain (so most redeliveries follow a handled
 * first delivery, which the judge needs to decide them), the second any answer of section 7 (or a held read).
 */
const scripts: fc.Arbitrary<ReadScript[]> = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constant('plain' as const) }, fc.constantFrom(...READ_SCRIPTS)),
    fc.option(fc.constantFrom(...READ_SCRIPTS), { freq: 2, nil: undefined }),
  )
  .map(([a, b]) => (b === undefined ? [a] : [a, b]));

const attempt = fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, fc.constantFrom(2, 3));

export const COMMANDS: Cmd[] = [
  fc.tuple(delivery, attempt, signer, scripts).map(([d, a, s, r]) => new Send(d, a, s, r)),
  fc.tuple(delivery, attempt, signer, scripts).map(([d, a, s, r]) => new Send(d, a, s, r)),
  fc.tuple(delivery, attempt, signer, scripts).map(([d, a, s, r]) => new Send(d, a, s, r)),
  fc
    .tuple(delivery, fc.constantFrom('forged' as const, 'tampered' as const, 'replayed' as const))
    .map(([d, k]) => new Bad(d, k)),
  fc.nat({ max: USERS - 1 }).map((u) => new Facts(u)),
  // Twice: two rotations early enough in a JWKS sequence that its kids are signed with in turn after them.
  fc.constant(new Rotate()),
  fc.constant(new Rotate()),
  fc.nat({ max: 3 }).map((p) => new Release(p)),
];

/**
 * A sequence: the index of its signing mode among the target's, and its commands; replayPath (fast-check's
 * record of which commands ran, in a failure's replay line) replays a shrunk sequence with its path.
 */
export function hostSequences(modes: number, maxCommands: number, replayPath?: string) {
  const commands = fc.commands(COMMANDS, { maxCommands, size: 'max', ...(replayPath ? { replayPath } : {}) });
  return fc.tuple(fc.nat({ max: Math.max(0, modes - 1) }), commands);
}
