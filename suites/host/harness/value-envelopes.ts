/**
 * The record envelopes the data API answers reads with (2.3), generated from spec/openapi.yaml's
 * RecordEnvelope: data "object or null" whose fields that could not be populated are null, errors
 * and warnings maps of reason strings (empty or filled), callbackStatus of its enum, completedAt a
 * timestamp, non-null on drafts too. Rule 2: a record that does not bind is still returned, errors
 * filled. A key made by envelopeKey names its class and a seed, so every process serving reads (a
 * worker's own service side, or one shared by workers) answers it with the same envelope.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { ccsError, type RecordEnvelope } from '../../../spec/index.ts';
import { TIMESTAMP } from './value-numbers.ts';
import { componentSchema, conforms, enumOf } from './value-schema.ts';
import { NOTHING_LIKE, NUMBER_LIKE, WIDTH } from './value-text.ts';

export interface EnvelopeClass {
  id: string;
  words: string;
  arb: fc.Arbitrary<RecordEnvelope>;
}

const STATUS = () => fc.constantFrom(...enumOf(componentSchema('CallbackStatus')));
/** Field names of the host class, dotted where nested (2.3 maps fieldName to reason). */
const FIELD = fc.constantFrom('label', 'note', 'address.city', 'items.0.name', 'ü', '名前', '0');
/** Strings a field or a reason may hold: empty, number- and null-like, every UTF-8 width, whitespace at the ends. */
const TEXT = fc.oneof(
  fc.constant(''),
  fc.constantFrom(...NUMBER_LIKE, ...NOTHING_LIKE, ' ', ' \u00a0padded\t'),
  fc.string({ unit: fc.oneof(WIDTH[1], WIDTH[2], WIDTH[3], WIDTH[4]), maxLength: 24 }),
);
const REASONS = (min: number) => fc.dictionary(FIELD, TEXT, { minKeys: min, maxKeys: 3 });

interface Parts {
  data: RecordEnvelope['data'];
  errors?: Record<string, string>;
  warnings?: Record<string, string>;
  status?: string;
}

function envelopeOf(parts: fc.Arbitrary<Parts>): fc.Arbitrary<RecordEnvelope> {
  return fc
    .tuple(parts, REASONS(0), REASONS(0), STATUS(), TIMESTAMP)
    .map(([p, errors, warnings, status, completedAt]) => ({
      data: p.data,
      errors: p.errors ?? errors,
      warnings: p.warnings ?? warnings,
      callbackStatus: (p.status ?? status) as RecordEnvelope['callbackStatus'],
      completedAt,
    }));
}

/** A typed string field of the host class (label), filled or null, and any others. */
const DATA = fc.record({ label: TEXT, note: fc.option(TEXT, { nil: null }) });

export const ENVELOPE_CLASSES: readonly EnvelopeClass[] = [
  {
    id: 'envelope.fields-null',
    words: 'a field that could not be populated, null, its reason in errors',
    arb: envelopeOf(
      fc.tuple(TEXT, REASONS(0)).map(([reason, more]) => ({
        data: { label: null, note: null },
        errors: { ...more, label: reason },
      })),
    ),
  },
  {
    id: 'envelope.data-null',
    words: 'data null, errors and warnings empty maps',
    arb: envelopeOf(fc.constant({ data: null, errors: {}, warnings: {} })),
  },
  { id: 'envelope.data-empty', words: 'data an empty object', arb: envelopeOf(fc.constant({ data: {} })) },
  {
    id: 'envelope.unbound',
    words: 'a record that does not bind: data null, errors filled, DELIVERED (rule 2)',
    arb: envelopeOf(REASONS(1).map((errors) => ({ data: null, errors, status: 'DELIVERED' }))),
  },
  {
    id: 'envelope.filled',
    words: 'data filled with strings of every class (empty, number-like, every UTF-8 width), either status',
    arb: envelopeOf(DATA.map((data) => ({ data }))),
  },
];

/** The seed of a key's envelope, from the key itself (`sk-<class id>.<seed>.<tail>`). */
const KEY = /^sk-(envelope\.[a-z-]+)\.(\d+)\./;

/** A key whose read the data API answers with an envelope of the class, generated from the seed. */
export function envelopeKey(c: EnvelopeClass, seed: number): string {
  return `sk-${c.id}.${seed >>> 0}.${randomBytes(4).toString('hex')}`;
}

/** The envelope of a key made by envelopeKey, undefined for any other key. */
export function envelopeOfKey(serviceKey: string): RecordEnvelope | undefined {
  const m = KEY.exec(serviceKey);
  const c = m === null ? undefined : ENVELOPE_CLASSES.find((x) => x.id === m[1]);
  if (c === undefined) return undefined;
  const env = fc.sample(c.arb, { seed: Number(m![2]), numRuns: 1 })[0]!;
  if (!conforms(componentSchema('RecordEnvelope'), env))
    throw ccsError('HOST_VALUE_SCHEMA', { problem: `${c.id} made an envelope RecordEnvelope refuses` });
  return env;
}

const now = (): string => new Date().toISOString().replace('Z', '');

/** What a scripted 200 answers (HOST-13's held first key): section 2.3's edges, data null and empty maps. */
export function edgeEnvelope(): RecordEnvelope {
  return { data: null, errors: {}, warnings: {}, callbackStatus: 'PENDING', completedAt: now() };
}

/** The envelope of a key: its value class, else placeholder values (EVT-2: values are never in a callback). */
export function envelope(serviceKey: string): RecordEnvelope {
  return (
    envelopeOfKey(serviceKey) ?? {
      data: { label: `record ${serviceKey}` },
      errors: {},
      warnings: {},
      callbackStatus: 'DELIVERED',
      completedAt: now(),
    }
  );
}
