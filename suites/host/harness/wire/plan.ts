/**
 * The wire spec's plan (HOST-27): one genuine callback for each value of each freedom, the others as the
 * contract writes them (a refusal then names its freedom), so every freedom is tried once per run in every
 * signing mode; the callbacks of the other host tests draw every freedom at once from the run's seed.
 * JSON's string escapes matter only where a string holds what they escape: the payloads' endUserHandle
 * holds a /, a non-ASCII character and one outside the BMP.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../../../protocol/index.ts';
import type { HostCheckId } from '../../../../spec/index.ts';
import type { HostHarness, ModeEndpoint } from '../harness.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from '../payloads.ts';
import type { Payload } from '../../../../judge/host/index.ts';
import { CONNECTIONS, FRAMINGS } from './framing.ts';
import { PLAIN_FORM, type WireForm } from './form.ts';
import { CONTENT_TYPES, FIELD_ORDERS, NAME_CASES, VALUE_SPACES } from './http-fields.ts';
import { ESCAPES, MEMBER_ORDERS, type JsonForm } from './json-forms.ts';

export interface WireCase {
  id: HostCheckId;
  /** The freedom and its value, in words. */
  freedom: string;
  wire: WireForm;
  json?: JsonForm;
}

/** The contract's form with one freedom changed (form.ts PLAIN_FORM). */
const fields = (f: Partial<WireForm['fields']>): WireForm => ({
  ...PLAIN_FORM,
  fields: { ...PLAIN_FORM.fields, ...f },
});
const carry = (c: Partial<WireForm['carry']>): WireForm => ({ ...PLAIN_FORM, carry: { ...PLAIN_FORM.carry, ...c } });

/** Every value of every freedom once (the reused connection last: it needs the connection before it). */
export function wireCases(): WireCase[] {
  return [
    ...NAME_CASES.map((nameCase) => ({
      id: 'wire.fields-acked' as const,
      freedom: `field names ${nameCase}`,
      wire: fields({ nameCase }),
    })),
    ...FIELD_ORDERS.map((order) => ({
      id: 'wire.fields-acked' as const,
      freedom: `field order ${order}`,
      wire: fields({ order }),
    })),
    ...VALUE_SPACES.map((space) => ({
      id: 'wire.fields-acked' as const,
      freedom: `value spaces ${space}`,
      wire: fields({ space }),
    })),
    ...FRAMINGS.flatMap((framing) =>
      [1, 3].map((chunks) => ({
        id: 'wire.framing-acked' as const,
        freedom: framing === 'chunked' ? `chunked in ${chunks} chunk${chunks === 1 ? '' : 's'}` : 'Content-Length',
        wire: carry({ framing, chunks, connection: 'new' }),
      })),
    ).filter((c, i, all) => all.findIndex((x) => x.freedom === c.freedom) === i),
    // Each escape form once, the member orders in turn beside them (every order comes, not every pair).
    ...ESCAPES.map((escapes, i) => {
      const order = MEMBER_ORDERS[i % MEMBER_ORDERS.length]!;
      return {
        id: 'wire.json-acked' as const,
        freedom: `JSON members ${order}, escapes ${escapes}`,
        wire: PLAIN_FORM,
        json: { order, escapes },
      };
    }),
    ...CONNECTIONS.map((connection) => ({
      id: 'wire.framing-acked' as const,
      freedom: `a ${connection} connection`,
      wire: carry({ connection }),
    })),
  ];
}

/** The i-th callback of the plan: the events in turn, a handle that escapes change. */
export function wirePayload(h: HostHarness, ep: ModeEndpoint, i: number): Payload {
  const events = LIFECYCLE_EVENTS as readonly LifecycleEvent[];
  // Every other one an onComplete, so the keys of many forms are read (HOST-13).
  const event = i % 2 === 0 ? 'onComplete' : events[(i >> 1) % events.length]!;
  return lifecyclePayload(event, {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle: `${freshHandle('w')}-\u00e9/\u{1F600}`,
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });
}
