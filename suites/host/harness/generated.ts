/**
 * Callback payloads generated from spec/openapi.yaml's webhooks (HOST-26): each event's request
 * schema is compiled to a fast-check arbitrary by the service direction's JSON-Schema compiler,
 * and the spec's own ajv validator is the oracle (a generated payload it refuses is a harness
 * bug, reported as such). The fields that name the receiver's own world (workspaceKey, configEnd)
 * are the target's, the conversation is fresh per payload, and what the schema cannot say
 * (a timestamp that is a real date, consistent pages) is written in. Deterministic per seed.
 */
import fc from 'fast-check';
import { LIFECYCLE_EVENTS, formatCallbackTimestamp, type LifecycleEvent } from '../../../protocol/index.ts';
import { ccsError, loadSpec } from '../../../spec/index.ts';
import { inlineRefs, validArbitrary } from '../../service/property/compile.ts';
import type { Schema } from '../../service/property/validate.ts';
import { dotSegment, freshConversationId, freshKey } from './payloads.ts';
import type { Payload } from '../../../judge/host/index.ts';

export interface GeneratedContext {
  workspaceKey: string;
  configEnd: string;
  hookPath: string;
}

/** The seed of this run: CCS_SEED (`--seed`) replays one, else a fresh one that is printed. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const s = env.CCS_SEED;
  if (s !== undefined && /^-?\d+$/.test(s)) return Number(s);
  return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

function webhookSchema(event: LifecycleEvent): Schema {
  const spec = loadSpec();
  const hook = (
    spec.openapi.webhooks as
      Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: Schema }> } } }> | undefined
  )?.[event];
  const schema = hook?.post?.requestBody?.content?.['application/json']?.schema;
  if (schema === undefined)
    throw ccsError('HOST_HARNESS_DEFECT', { problem: `spec/openapi.yaml has no request schema for webhook ${event}` });
  return inlineRefs(schema, (ref) => spec.resolveRef(ref) as Schema);
}

/** A real date-time (the pattern alone allows month 99), formatted as the contract's timestamp. */
const TIMESTAMP = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true })
  .map(formatCallbackTimestamp);

/** Cross-page rules the schema cannot hold (PAGE-1..4): full pages before the last, count on every page. */
const PAGE = fc
  .record({ totalPages: fc.integer({ min: 1, max: 4 }), lastLen: fc.integer({ min: 1, max: 500 }), pageFrom: fc.nat() })
  .map(({ totalPages, lastLen, pageFrom }) => {
    const page = 1 + (pageFrom % totalPages);
    return { page, totalPages, count: 500 * (totalPages - 1) + lastLen, len: page === totalPages ? lastLen : 500 };
  });

function eventArbitrary(event: LifecycleEvent, ctx: GeneratedContext): fc.Arbitrary<Payload> {
  // A handle or key '.' or '..' is a dot segment of the read path, which URL parsers resolve away: the schema
  // allows it, the contract's read path cannot carry it (NOT_SERVED in value-classes.ts), so it is never sent.
  const base = (
    validArbitrary(webhookSchema(event), { maxExtraItems: 8 }) as fc.Arbitrary<Record<string, unknown>>
  ).filter((p) => !dotSegment(p.endUserHandle) && !dotSegment(p.serviceKey));
  // An onComplete's keys end with a tail unique per callback (what the schema generated is kept before it): its
  // reads are then its own, never another callback's with the same generated values (the same seed in another
  // mode or test), so the judge can hold each onComplete to its reads (PITFALLS "Evidence").
  const own = (keys: unknown): string[] => (keys as string[]).map((k) => `${k}~${freshKey().slice(3)}`);
  const fix = (p: Record<string, unknown>, timestamp: string): Payload =>
    ({
      ...p,
      workspaceKey: ctx.workspaceKey,
      configEnd: ctx.configEnd,
      conversationId: freshConversationId(),
      timestamp,
      ...(event === 'onComplete' ? { path: ctx.hookPath, serviceKeys: own(p.serviceKeys) } : {}),
    }) as unknown as Payload;
  if (event !== 'config.bulk_deleted') return fc.tuple(base, TIMESTAMP).map(([p, ts]) => fix(p, ts));
  const key = fc.string({ minLength: 1, maxLength: 40 });
  return fc.tuple(base, TIMESTAMP, PAGE, key).map(
    ([p, ts, pg, k]) =>
      ({
        ...fix(p, ts),
        page: pg.page,
        totalPages: pg.totalPages,
        count: pg.count,
        keys: Array.from({ length: pg.len }, (_, i) => `${k}-${i}`),
      }) as unknown as Payload,
  );
}

export function payloadArbitrary(ctx: GeneratedContext): fc.Arbitrary<Payload> {
  return fc.oneof(...LIFECYCLE_EVENTS.map((e) => eventArbitrary(e as LifecycleEvent, ctx)));
}

/** n payloads of every event, the same for the same seed. */
export function generatePayloads(ctx: GeneratedContext, seed: number, numRuns: number): Payload[] {
  return fc.sample(payloadArbitrary(ctx), { seed, numRuns });
}

/** Payloads the spec's own validator refuses (a harness bug, never the receiver's fault). */
export function invalidBySpec(payloads: readonly Payload[]): string[] {
  const spec = loadSpec();
  return payloads.flatMap((p, i) => {
    const r = spec.validateWebhook(p.event, p);
    return r.valid ? [] : [`#${i} ${p.event}: ${r.errors.join('; ')}`];
  });
}

const WHITESPACE = [' ', '\t', '\n', '\r', '\r\n', '  \t'] as const;

/**
 * The payload serialized with JSON's whitespace between every token (RFC 8259: space, tab, line
 * feed, carriage return), taken in turn from `spacing`; the bytes sent are the bytes signed.
 */
export function spaced(value: unknown, spacing: readonly string[]): string {
  let i = 0;
  const ws = () => (spacing.length === 0 ? '' : spacing[i++ % spacing.length]!);
  const out = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${out(x)}${ws()}`).join(`,${ws()}`)}]`;
    if (v !== null && typeof v === 'object') {
      return `{${ws()}${Object.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${out(x)}${ws()}`)
        .join(`,${ws()}`)}}`;
    }
    return JSON.stringify(v);
  };
  return `${ws()}${out(value)}${ws()}`;
}

/** Spacing sequences, seeded; the first is always a lone carriage return (no line feed after it). */
export function generateSpacings(seed: number, n: number): string[][] {
  const arb = fc.array(fc.constantFrom(...WHITESPACE), { minLength: 1, maxLength: 12 });
  return [['\r', ' '], ...fc.sample(arb, { seed, numRuns: Math.max(0, n - 1) })];
}
