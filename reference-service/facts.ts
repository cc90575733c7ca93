/**
 * User facts (2.4, 4.1): the background GET at chat open, the 24 h cache on the service clock,
 * the class check (rejected whole, last good kept: FACTS-8) and the reply languages (FACTS-9..11).
 */
import { CONTRACT } from '../protocol/index.ts';
import type { ServiceContext } from './context.ts';
import { joinUrl, describeOutcome } from './delivery.ts';
import {
  classesOf,
  effectiveHostBaseUrl,
  type ClassDef,
  type FactsEntry,
  type FieldType,
  type Workspace,
} from './model.ts';
import { signatureFor } from './signing.ts';

const FACTS_TIMEOUT_MS = CONTRACT.factsTimeoutMs; // FACTS-5
const CONNECT_TIMEOUT_MS = CONTRACT.connectTimeoutMs; // section 8: all callbacks
const FACTS_CACHE_MS = CONTRACT.factsCacheMs; // FACTS-6, on the service clock

export function factsClassOf(ws: Workspace): ClassDef | undefined {
  for (const c of classesOf(ws).values()) if (c.kind === 'FACTS') return c;
  return undefined;
}

function cacheKey(ws: Workspace, endUserHandle: string): string {
  return `${ws.workspaceKey}\n${endUserHandle}`;
}

/** The last good facts still inside the 24 h cache, or undefined. */
export function factsInEffect(ctx: ServiceContext, ws: Workspace, endUserHandle: string): FactsEntry | undefined {
  const entry = ctx.facts.get(cacheKey(ws, endUserHandle));
  if (!entry) return undefined;
  // FACTS-6 (facts-cache-forever breaks it on purpose).
  return ctx.clock.now() - entry.receivedAt < FACTS_CACHE_MS || ctx.faults.has('facts-cache-forever')
    ? entry
    : undefined;
}

/** FACTS-10/11: preferredLanguages with English appended when missing; English alone when absent. */
export function replyLanguages(ctx: ServiceContext, facts: Record<string, unknown> | undefined): string[] {
  const pref = facts?.preferredLanguages;
  if (!Array.isArray(pref) || pref.length === 0) return ctx.faults.has('no-languages-empty') ? [] : ['English']; // FACTS-11
  const list = pref.filter((x): x is string => typeof x === 'string');
  if (!list.includes('English') && !ctx.faults.has('english-not-appended')) list.push('English');
  return list.length > 0 ? list : ['English'];
}

export function typeFits(type: FieldType, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
}

/** Problems of an answer against the FACTS class, by field (empty: it fits). */
export function factsProblems(cls: ClassDef, answer: Record<string, unknown>): Map<string, string> {
  const problems = new Map<string, string>();
  const declared = new Map(cls.fields.map((fd) => [fd.name, fd]));
  for (const [name, value] of Object.entries(answer)) {
    const fd = declared.get(name);
    if (!fd) {
      // 2.4.3: preferredLanguages is reserved, so it fits even when the class does not declare it.
      if (name === 'preferredLanguages' && Array.isArray(value) && value.every((x) => typeof x === 'string')) continue;
      problems.set(name, 'not a field of the FACTS class');
    } else if (value !== null && !typeFits(fd.type, value)) {
      problems.set(name, `expected ${fd.type}`);
    }
  }
  for (const fd of cls.fields) if (fd.required && !(fd.name in answer)) problems.set(fd.name, 'required field missing');
  return problems;
}

/** FACTS-1..5: the GET, in the background; resolves when the answer is handled (never rejects). */
export async function fetchFacts(ctx: ServiceContext, ws: Workspace, endUserHandle: string): Promise<void> {
  const cls = factsClassOf(ws);
  if (!cls || !cls.callback || ctx.closed) return;
  const f = ctx.faults;
  const deliveryId = f.has('facts-delivery-id-other-form')
    ? `uf-${endUserHandle}`
    : `uf-${ws.workspaceId}-${endUserHandle}`; // FACTS-3
  const base = effectiveHostBaseUrl(ws);
  if (!base) {
    ctx.log('info', 'facts.skipped', 'user-facts fetch skipped: hostBaseUrl is not set', {
      workspaceKey: ws.workspaceKey,
      deliveryId,
    });
    return;
  }
  let url: URL;
  let target: string;
  try {
    const u = new URL(joinUrl(base, cls.callback));
    // FACTS-1: ?endUserHandle=<endUserHandle>, percent-encoded.
    target = `${u.pathname}?${f.has('facts-query-other-name') ? 'user' : 'endUserHandle'}=${f.has('facts-query-unencoded') ? endUserHandle : encodeURIComponent(endUserHandle)}`;
    url = new URL(u.origin + target);
  } catch {
    ctx.log('warn', 'facts.skipped', 'user-facts fetch skipped: hostBaseUrl + callback is not a valid URL', {
      workspaceKey: ws.workspaceKey,
      deliveryId,
    });
    return;
  }
  // SIGN-6: the signed payload is the request line "GET " + path and query.
  const line = f.has('facts-signed-without-get')
    ? target
    : f.has('facts-jws-without-query') && ws.signing.mode === 'jwks'
      ? `GET ${target.split('?')[0]}`
      : `GET ${target}`;
  const signature = await signatureFor(ws, ctx.ring, f, Buffer.from(line, 'utf8'));
  const headers: Record<string, string> = {
    ...(f.has('facts-accept-missing') ? {} : { Accept: 'application/json' }), // FACTS-2
    'X-Service-Event': 'user.facts.fetch',
    'X-Service-Workspace': ws.workspaceKey,
    'X-Service-End-User': endUserHandle,
    'X-Service-Delivery-Id': deliveryId,
  };
  if (signature !== undefined && !f.has('facts-unsigned')) headers['X-Service-Signature'] = signature; // FACTS-4
  let outcome;
  try {
    outcome = await ctx.sender.send({
      method: 'GET',
      url,
      headers,
      connectTimeoutMs: ctx.clock.scaled(CONNECT_TIMEOUT_MS),
      requestTimeoutMs: ctx.clock.scaled(f.has('facts-timeout-20s') ? 2 * FACTS_TIMEOUT_MS : FACTS_TIMEOUT_MS),
    });
  } catch (error) {
    // A handle that is not a valid header value cannot be sent at all.
    ctx.log('warn', 'facts.failed', `user-facts fetch not sent: ${String((error as Error).message)}`, {
      workspaceKey: ws.workspaceKey,
      deliveryId,
    });
    return;
  }
  if (ctx.closed) return;
  if (outcome.kind !== 'answer' || outcome.status < 200 || outcome.status >= 300) {
    ctx.log('warn', 'facts.failed', `user-facts fetch ${describeOutcome(outcome)}; last good facts kept`, {
      workspaceKey: ws.workspaceKey,
      deliveryId,
    });
    return;
  }
  let answer: unknown;
  try {
    answer = JSON.parse(outcome.body.toString('utf8'));
  } catch {
    answer = undefined;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    // FACTS-7 broken on purpose by facts-non-object-clears: the last good facts are thrown away.
    if (f.has('facts-non-object-clears')) ctx.facts.delete(cacheKey(ws, endUserHandle));
    ctx.log('warn', 'facts.dropped', 'user-facts answer is not a JSON object; dropped (FACTS-7)', {
      workspaceKey: ws.workspaceKey,
      deliveryId,
    });
    return;
  }
  let facts = answer as Record<string, unknown>;
  const problems = factsProblems(cls, facts);
  if (problems.size > 0) {
    const names = [...problems.entries()].map(([k, v]) => `${k}: ${v}`).join('; ');
    if (!f.has('facts-partially-applied')) {
      ctx.log(
        'warn',
        'facts.rejected',
        `user-facts answer does not fit the FACTS class (${names}); rejected whole, last good facts kept (FACTS-8)`,
        { workspaceKey: ws.workspaceKey, deliveryId },
      );
      return;
    }
    facts = Object.fromEntries(Object.entries(facts).filter(([k]) => !problems.has(k)));
  }
  ctx.facts.set(cacheKey(ws, endUserHandle), {
    facts,
    receivedAt: ctx.clock.now(),
    fetchedAt: new Date().toISOString(),
  });
}
