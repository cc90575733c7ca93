/**
 * GET /__admin/events: the journal's changes as server-sent events, one event per change
 * (arrived, completed, dropped) carrying a summary; the page fetches full entries by id.
 *
 * A slow client never makes the host buffer without bound: once a client's unsent bytes pass
 * a limit, its events are no longer written and, when its socket drains, it gets one `resync`
 * event telling it to refetch what it shows. Streams end with the server (the host destroys
 * every socket on close) and a heartbeat comment finds dead clients.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { JournalChange } from '../index.ts';
import type { MockHost } from '../server.ts';

const MAX_UNSENT_BYTES = 256 * 1024;
const HEARTBEAT_MS = 15_000;

export interface ChangeSummary {
  kind: JournalChange['kind'];
  id: string;
  seq: number;
  method: string;
  path: string;
  event?: string;
  deliveryId?: string;
  attempt?: number;
  status?: number;
}

export function summarizeChange(c: JournalChange): ChangeSummary {
  const e = c.entry;
  const s: ChangeSummary = { kind: c.kind, id: e.id, seq: e.seq, method: e.method, path: e.path };
  if (e.event !== undefined) s.event = e.event;
  if (e.deliveryId !== undefined) s.deliveryId = e.deliveryId;
  if (e.attempt !== undefined) s.attempt = e.attempt;
  if (e.response?.status !== undefined) s.status = e.response.status;
  return s;
}

class EventStream {
  private lagging = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly res: ServerResponse, private readonly off: () => void) {
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n', true), HEARTBEAT_MS);
    this.heartbeat.unref();
    res.on('drain', () => {
      if (!this.lagging) return;
      this.lagging = false;
      this.write('event: resync\ndata: {}\n\n', true);
    });
    res.on('close', () => this.end());
  }

  send(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`, false);
  }

  /** control lines (heartbeat, resync) are tiny and go even when events are being skipped */
  private write(text: string, control: boolean): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!control && (this.lagging || this.res.writableLength > MAX_UNSENT_BYTES)) {
      this.lagging = true;
      return;
    }
    this.res.write(text);
  }

  end(): void {
    clearInterval(this.heartbeat);
    this.off();
    if (!this.res.destroyed && !this.res.writableEnded) this.res.end();
  }
}

/** Open streams, so that a reset of the journal can be told to every page. */
const streams = new WeakMap<MockHost, Set<EventStream>>();

export function broadcast(host: MockHost, name: string, data: unknown): void {
  for (const s of streams.get(host) ?? []) s.send(name, data);
}

export function registerEvents(app: FastifyInstance, host: MockHost): void {
  const open = new Set<EventStream>();
  streams.set(host, open);
  app.addHook('onClose', async () => {
    for (const s of [...open]) s.end();
  });
  app.get('/__admin/events', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    let stream: EventStream | undefined;
    const off = host.journal.subscribe((c) => stream?.send(c.kind, summarizeChange(c)));
    stream = new EventStream(res, () => {
      off();
      open.delete(stream!);
    });
    open.add(stream);
    // the client knows where the journal stands when it starts listening
    stream.send('hello', { dropped: host.journal.dropped });
    req.raw.on('close', () => stream?.end());
  });
}
