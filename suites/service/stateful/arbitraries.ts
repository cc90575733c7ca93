/**
 * The generator of sequences: every trigger of the driver and every host request the model knows,
 * weighted so that sequences meet the features they combine, each left out when the target lacks
 * its driver capability (the report says which), and steered steps toward the rows random
 * sequences meet least (commands-steer.ts).
 */
import fc from 'fast-check';
import { Open, Turn } from './commands-chat.ts';
import { Delete, ScopeDelete } from './commands-delete.ts';
import { Close, Complete } from './commands-end.ts';
import { Hold, KeyRead, ListRead, Seed } from './commands-host.ts';
import type { Step } from './commands-step.ts';
import { RestWrite, type WriteMode } from './commands-write.ts';
import { GOALS, Steer } from './commands-steer.ts';
import { rowByShort, type DecidedBy } from './transitions.ts';
import { LIST, SETTING, type Model } from './model.ts';
import type { Real } from './real.ts';

/** A sequence of commands as fast-check runs them. */
export type Sequence = Iterable<fc.AsyncCommand<Model, Real, false>>;
// Mostly one user, so that one conversation's steps meet; the second user's records share the workspace.
const user = fc.constantFrom(0, 0, 0, 1);
const end = fc.constantFrom(SETTING, LIST);
const index = fc.nat({ max: 7 });
const fields = fc.uniqueArray(fc.nat({ max: 2 }), { minLength: 1, maxLength: 2 });
// Where the driver lets the harness name what the service would otherwise decide (spec/driver.openapi.yaml's
// defaults: a completion's keys, a scope's configEnd and keys, a save's configEnd and Setting record), a
// sequence does both, and the model predicts what the service must decide.
const by = fc.constantFrom<DecidedBy>('service', 'harness');
const save = fc.record({ end, target: fc.option(index, { nil: null, freq: 2 }), fields, named: fc.boolean() });

interface Trigger {
  name: string;
  capability?: string;
  weight: number;
  arb: fc.Arbitrary<Step>;
}

const TRIGGERS: Trigger[] = [
  { name: 'open', capability: 'conversations', weight: 5, arb: fc.tuple(user, end).map(([u, e]) => new Open(u, e)) },
  {
    name: 'turn',
    capability: 'turns',
    weight: 7,
    arb: fc.tuple(user, fc.array(save, { minLength: 1, maxLength: 3 })).map(([u, s]) => new Turn(u, s)),
  },
  {
    name: 'complete',
    capability: 'complete',
    weight: 5,
    arb: fc.tuple(user, by).map(([u, b]) => new Complete(u, b)),
  },
  { name: 'delete', capability: 'delete', weight: 2, arb: fc.tuple(user, index).map(([u, i]) => new Delete(u, i)) },
  {
    name: 'bulk-delete',
    capability: 'bulk-delete',
    weight: 3,
    arb: fc.tuple(user, end, by, fc.boolean()).map(([u, e, b, n]) => new ScopeDelete(u, e, b, n)),
  },
  { name: 'interrupt', capability: 'interrupt', weight: 1, arb: user.map((u) => new Close(u, 'interrupt')) },
  { name: 'idle-sweep', capability: 'idle-sweep', weight: 1, arb: user.map((u) => new Close(u, 'sweep')) },
  {
    name: 'rest-write',
    weight: 5,
    arb: fc
      .tuple(
        user,
        end,
        fc.constantFrom<WriteMode>('unkeyed', 'unkeyed', 'keyed', 'keyed', 'conflict', 'reuse', 'gone'),
        index,
        fields,
      )
      .map(([u, e, m, i, f]) => new RestWrite(u, e, m, i, f)),
  },
  {
    name: 'migration-hold',
    capability: 'migration-hold',
    weight: 4,
    arb: fc.tuple(user, end, index, fc.boolean()).map(([u, e, i, h]) => new Hold(u, e, i, h)),
  },
  { name: 'list-read', weight: 3, arb: fc.tuple(user, end).map(([u, e]) => new ListRead(u, e)) },
  {
    name: 'key-read',
    weight: 1,
    arb: fc
      .tuple(user, fc.constantFrom<'live' | 'gone' | 'unknown'>('live', 'gone', 'unknown'), index)
      .map(([u, w, i]) => new KeyRead(u, w, i)),
  },
  {
    name: 'seed',
    capability: 'seed-records',
    weight: 1,
    arb: fc.tuple(user, fc.constantFrom(1, 1, 2, 501)).map(([u, n]) => new Seed(u, n)),
  },
];

export interface Arbitraries {
  commands: fc.Arbitrary<Sequence>;
  leftOut: string[];
}

/** The sequences a target can run, and the triggers left out for a capability it lacks. */
export function sequences(capabilities: Iterable<string>, maxCommands: number): Arbitraries {
  const have = new Set(capabilities);
  const kept = TRIGGERS.filter((t) => t.capability === undefined || have.has(t.capability));
  const leftOut = TRIGGERS.filter((t) => !kept.includes(t)).map((t) => `${t.name} (capability ${t.capability})`);
  const steer = steered(have);
  const one: fc.Arbitrary<fc.AsyncCommand<Model, Real, false>> = fc.oneof(
    ...kept.map((t) => ({ arbitrary: t.arb, weight: t.weight })),
    ...(steer ? [{ arbitrary: steer, weight: STEER_WEIGHT }] : []),
  );
  return { commands: fc.commands([one], { maxCommands, size: 'max' }), leftOut };
}

/** Weight of the steered steps among the triggers' (their sum is 38): about one command in five. */
const STEER_WEIGHT = 10;

/**
 * Steered steps toward the rows the target's driver can reach (commands-steer.ts): a goal, a user,
 * a variant and a way to close (among those offered). None when no goal is reachable.
 */
function steered(have: Set<string>): fc.Arbitrary<Step> | undefined {
  const closes = [
    ...(have.has('interrupt') ? ['interrupt' as const] : []),
    ...(have.has('idle-sweep') ? ['sweep' as const] : []),
  ];
  const goals = GOALS.filter(
    (g) => rowByShort(g).capabilities.every((c) => have.has(c)) && (g !== 'M3' || closes.length > 0),
  );
  if (goals.length === 0) return undefined;
  const how = closes.length > 0 ? fc.constantFrom(...closes) : fc.constant('interrupt' as const);
  return fc
    .tuple(fc.constantFrom(...goals), user, fc.nat({ max: 5 }), how)
    .map(([g, u, v, h]) => new Steer(g, u, v, h));
}
