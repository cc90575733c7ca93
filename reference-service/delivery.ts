/**
 * Callback delivery (4.1, 5.2, 6): per-conversation queues keep each conversation's order while a
 * host that hangs, resets or refuses never blocks other conversations or any API request
 * (DELIV-15). onComplete is retried on timeout, 5xx or connect failure, 3 attempts, back-off
 * 5 s then 20 s (scaled) from the end of the previous attempt (DELIV-4..8); every other event is
 * one best-effort POST (DELIV-1). The body is serialized once per delivery and every attempt is
 * re-signed over those bytes with a fresh t (DELIV-11, SIGN-5).
 */
import { CONTRACT } from '../protocol/index.ts';
import type { ServiceContext } from './context.ts';
import type { Payload } from './events.ts';
import type { SendOutcome } from './http-send.ts';
import { effectiveHookPath, effectiveHostBaseUrl, type Workspace } from './model.ts';
import { signatureFor } from './signing.ts';
import { contractTimestamp } from './clock.ts';

const CONNECT_TIMEOUT_MS = CONTRACT.connectTimeoutMs; // DELIV-2
const REQUEST_TIMEOUT_MS = CONTRACT.requestTimeoutMs; // DELIV-3
const BACKOFF_MS = CONTRACT.backoffMs; // DELIV-8

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') || path === '' ? path : `/${path}`);
}

export function describeOutcome(o: SendOutcome): string {
  switch (o.kind) {
    case 'answer':
      return `answered ${o.status}`;
    case 'timeout':
      return 'whole-request timeout';
    case 'connect-timeout':
      return 'connect timeout';
    case 'connect-failed':
      return `connect failed (${o.code})`;
    case 'reset':
      return `connection reset (${o.code})`;
  }
}

export class Deliverer {
  private readonly queues = new Map<number, Promise<void>>();

  constructor(private readonly ctx: ServiceContext) {}

  /** Queues one lifecycle delivery behind the conversation's earlier ones; resolves when it is done. */
  enqueue(ws: Workspace, conversationId: number, event: string, payload: Payload): Promise<void> {
    const prev = this.queues.get(conversationId) ?? Promise.resolve();
    const next = prev
      .then(() => this.deliver(ws, conversationId, event, payload))
      .catch((error: unknown) => {
        this.ctx.log(
          'error',
          'delivery.error',
          `delivery of ${event} failed internally: ${String((error as Error)?.message ?? error)}`,
          { workspaceKey: ws.workspaceKey },
        );
      });
    this.queues.set(conversationId, next);
    void next.finally(() => {
      if (this.queues.get(conversationId) === next) this.queues.delete(conversationId);
    });
    return next;
  }

  /** Resolves when every queued delivery has ended (for tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  private deliveryId(conversationId: number, event: string): string {
    // HDR-3: lc-<conversationId>-<event>, fixed per (conversation, event).
    return this.ctx.faults.has('delivery-id-other-form')
      ? `dl-${event}-${conversationId}`
      : `lc-${conversationId}-${event}`;
  }

  private maxAttempts(event: string): number {
    const f = this.ctx.faults;
    if (event === 'onComplete')
      return f.has('two-attempts-only')
        ? CONTRACT.maxAttempts - 1
        : f.has('four-attempts')
          ? CONTRACT.maxAttempts + 1
          : CONTRACT.maxAttempts; // DELIV-7
    if (event === 'config.saved' && f.has('retry-config-saved-after-503')) return CONTRACT.maxAttempts;
    if (event === 'config.saved' && f.has('retry-saved-after-reset')) return 2; // DELIV-1 broken on purpose
    return 1; // DELIV-1
  }

  private retriable(event: string, o: SendOutcome): boolean {
    const f = this.ctx.faults;
    if (event !== 'onComplete')
      return (
        event === 'config.saved' &&
        ((f.has('retry-config-saved-after-503') && o.kind === 'answer' && o.status >= 500) ||
          (f.has('retry-saved-after-reset') && o.kind === 'reset'))
      );
    switch (o.kind) {
      case 'answer':
        if (o.status >= 200 && o.status < 300) return f.has('retry-oncomplete-after-204') && o.status !== 200; // DELIV-10
        if (o.status >= 500) return !f.has('no-retry-on-5xx'); // DELIV-4
        return f.has('retry-oncomplete-after-4xx') && o.status >= 400; // DELIV-10
      case 'timeout':
        return !f.has('no-retry-on-timeout'); // DELIV-6
      case 'connect-timeout':
        return true; // DELIV-5
      case 'connect-failed':
        return !f.has('no-retry-on-connect-refused'); // DELIV-5
      case 'reset':
        return true; // read as a network failure of the attempt (see report)
    }
  }

  /** Where the event goes: hostBaseUrl + hookPath, or undefined when skipped (HOOK-4) and logged. */
  private destination(ws: Workspace, event: string, deliveryId: string): URL | undefined {
    const ctx = this.ctx;
    const f = ctx.faults;
    const base = effectiveHostBaseUrl(ws, !f.has('sandbox-no-inherit-host'));
    const inherited = effectiveHookPath(ws);
    // HOOK-2 broken on purpose by sandbox-hookpath-suffixed.
    const hookPath = inherited && ws.parent && f.has('sandbox-hookpath-suffixed') ? `${inherited}/sandbox` : inherited;
    if (!base || (!hookPath && !f.has('send-without-hookpath'))) {
      // HOOK-4: skipped and logged; values stay stored and readable.
      ctx.log('info', 'delivery.skipped', `${event} skipped: ${!base ? 'hostBaseUrl' : 'hookPath'} is not set`, {
        workspaceKey: ws.workspaceKey,
        deliveryId,
      });
      return undefined;
    }
    try {
      return new URL(joinUrl(base, hookPath ?? ''));
    } catch {
      ctx.log('warn', 'delivery.skipped', `${event} skipped: hostBaseUrl + hookPath is not a valid URL`, {
        workspaceKey: ws.workspaceKey,
        deliveryId,
      });
      return undefined;
    }
  }

  private async deliver(ws: Workspace, conversationId: number, event: string, payload: Payload): Promise<void> {
    const ctx = this.ctx;
    const f = ctx.faults;
    if (ctx.closed) return;
    const deliveryId = this.deliveryId(conversationId, event);
    const url = this.destination(ws, event, deliveryId);
    if (!url) return;
    // HOOK-5: a running local listen pipe receives the event instead of the host POST.
    const pipe = ctx.listenPipes.get(ws.workspaceKey);
    // Serialized once (DELIV-11); lifecycle-body-array breaks EVT-1, retry-fresh-timestamp-body DELIV-11.
    let body = Buffer.from(
      JSON.stringify(event === 'onSessionTimeout' && f.has('lifecycle-body-array') ? [payload] : payload),
      'utf8',
    );
    const reserialized = f.has('sign-reserialized-body')
      ? Buffer.from(JSON.stringify(payload, null, 2), 'utf8')
      : undefined;
    const max = this.maxAttempts(event);
    let firstSignature: string | undefined;
    for (let attempt = 1; attempt <= max; attempt += 1) {
      if (ctx.closed) return;
      if (attempt > 1 && f.has('retry-fresh-timestamp-body'))
        body = Buffer.from(JSON.stringify({ ...payload, timestamp: contractTimestamp() }), 'utf8');
      let signature = await signatureFor(ws, ctx.ring, f, body, { reserialized });
      if (attempt === 1) firstSignature = signature;
      else if (f.has('no-resign-on-retry')) signature = firstSignature;
      const retry = attempt > 1;
      const textPlain =
        (event === 'config.deleted' && f.has('content-type-text-on-deleted')) ||
        (retry && f.has('retry-content-type-text')); // HDR-1
      const headers: Record<string, string> = {
        'Content-Type': textPlain ? 'text/plain' : 'application/json',
        'X-Service-Event': event === 'config.saved' && f.has('event-header-mismatch') ? 'config_saved' : event,
        'X-Service-Delivery-Id': f.has('retry-new-delivery-id') && retry ? `${deliveryId}-${attempt}` : deliveryId,
      };
      if (retry && f.has('retry-event-header-missing')) delete headers['X-Service-Event']; // HDR-2
      if (event === 'onComplete')
        headers['X-Service-Delivery-Attempt'] = String(
          f.has('attempt-header-zero-based') ? attempt - 1 : f.has('attempt-header-stuck-at-1') ? 1 : attempt,
        ); // HDR-4
      else if (event === 'config.saved' && f.has('attempt-header-on-config-saved'))
        headers['X-Service-Delivery-Attempt'] = '1';
      if ((retry && f.has('retry-unsigned')) || (event === 'config.deleted' && f.has('unsigned-config-deleted')))
        signature = undefined; // HDR-6, SIGN-3
      if (signature !== undefined && !(pipe && f.has('listen-pipe-unsigned')))
        headers['X-Service-Signature'] = signature; // SIGN-15
      else if (f.has('signature-header-when-off')) headers['X-Service-Signature'] = '';
      if (pipe && f.has('listen-pipe-also-posts-host'))
        void ctx.sender.send({
          method: 'POST',
          url,
          headers,
          body,
          connectTimeoutMs: ctx.clock.scaled(CONNECT_TIMEOUT_MS),
          requestTimeoutMs: ctx.clock.scaled(REQUEST_TIMEOUT_MS),
        });
      const startedMs = performance.now();
      const outcome = await ctx.sender.send({
        method: event === 'config.deleted' && f.has('deleted-sent-with-put') ? 'PUT' : 'POST', // HOOK-1
        url: pipe ?? url,
        headers,
        body,
        connectTimeoutMs: ctx.clock.scaled(CONNECT_TIMEOUT_MS),
        requestTimeoutMs: ctx.clock.scaled(
          f.has('request-timeout-20s')
            ? 2 * REQUEST_TIMEOUT_MS
            : f.has('request-timeout-5s')
              ? REQUEST_TIMEOUT_MS / 2
              : REQUEST_TIMEOUT_MS,
        ),
      });
      if (ctx.closed) return;
      if (
        outcome.kind === 'answer' &&
        outcome.status >= 200 &&
        outcome.status < 300 &&
        !(event === 'onComplete' && this.retriable(event, outcome))
      )
        return;
      const more = attempt < max && this.retriable(event, outcome);
      ctx.log(
        'warn',
        'delivery.failed',
        `${event} attempt ${attempt} ${describeOutcome(outcome)}${more ? '; retrying' : ''}`,
        { workspaceKey: ws.workspaceKey, deliveryId },
      );
      if (!more) {
        // DELIV-6.6: when every attempt failed the loss is logged service-side only.
        if (event === 'onComplete' && this.retriable(event, outcome)) {
          ctx.log('error', 'delivery.lost', `${event} lost after ${attempt} attempts`, {
            workspaceKey: ws.workspaceKey,
            deliveryId,
          });
          // DELIV-14 broken on purpose by status-follows-delivery: the lost delivery turns the records back.
          if (f.has('status-follows-delivery'))
            for (const k of (payload.serviceKeys as string[] | undefined) ?? []) {
              const r = ctx.records.get(k);
              if (r) r.callbackStatus = 'PENDING';
            }
        }
        return;
      }
      // DELIV-8: measured from the end of the previous attempt.
      // backoff-refused-5s breaks it after a refused connection only: 5 s before attempt 3 too.
      const refused5s = f.has('backoff-refused-5s') && outcome.kind === 'connect-failed';
      const first = (attempt === 1 && !f.has('backoff-20s-first')) || f.has('backoff-5s-both') || refused5s;
      const gap = first ? BACKOFF_MS[0]! : BACKOFF_MS[1]!;
      // DELIV-8 broken on purpose by backoff-from-attempt-start: the attempt's own time counts toward the back-off.
      const spent = f.has('backoff-from-attempt-start') ? performance.now() - startedMs : 0;
      await ctx.sleep(Math.max(0, ctx.clock.scaled(gap) - spent));
    }
  }
}
