/**
 * Prefix scenarios that steer the generator to the mixed-scope rows (transitions.ts, MIXED): each a
 * fixed opening of steps on a fresh workspace, after which the sequence goes on at random. Random
 * sequences reach these rows too, but rarely (a scope delete over both states about once in eight
 * sequences); a prefix makes every default run reach each (issue 30 item 4).
 */
import { Close, Complete, Delete, Open, ScopeDelete, Turn, type Step } from './commands-chat.ts';
import { MIXED } from './transitions.ts';
import { LIST, SETTING } from './model.ts';

export interface Prefix {
  /** The mixed row it reaches. */
  row: string;
  capabilities: readonly string[];
  steps: () => Step[];
}

const capabilitiesOf = (short: string): readonly string[] =>
  MIXED.find((r) => r.id.startsWith(`${short} `))!.capabilities;
const newListInstance = { end: LIST, target: null, fields: [0] };
const setting = { end: SETTING, target: null, fields: [0, 1] };

export const PREFIXES: readonly Prefix[] = [
  // M1: one List record completed (DELIVERED), a second one saved (PENDING), then the whole List scope deleted.
  {
    row: 'M1', capabilities: capabilitiesOf('M1'),
    steps: () => [new Open(0, LIST), new Turn(0, [newListInstance]), new Complete(0), new Open(0, LIST),
      new Turn(0, [newListInstance]), new ScopeDelete(0, LIST)],
  },
  // M2: two List instances touched in one conversation, one deleted through the chat, then completion.
  {
    row: 'M2', capabilities: capabilitiesOf('M2'),
    steps: () => [new Open(0, LIST), new Turn(0, [newListInstance, newListInstance]), new Delete(0, 0),
      new Complete(0)],
  },
  // M3: a turn that saved the Setting, then the conversation closes without completing (and, later, a sweep).
  {
    row: 'M3', capabilities: [...capabilitiesOf('M3'), 'interrupt'],
    steps: () => [new Open(0, SETTING), new Turn(0, [setting]), new Close(0, 'interrupt')],
  },
  {
    row: 'M3', capabilities: [...capabilitiesOf('M3'), 'idle-sweep'],
    steps: () => [new Open(0, SETTING), new Turn(0, [setting]), new Close(0, 'sweep')],
  },
  // M4: the Setting completed, edited in a new conversation (config.saved DELIVERED), completed again.
  {
    row: 'M4', capabilities: capabilitiesOf('M4'),
    steps: () => [new Open(0, SETTING), new Turn(0, [setting]), new Complete(0), new Open(0, SETTING),
      new Turn(0, [setting]), new Complete(0)],
  },
];
