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
import type { JournalChange } from '../types.ts';
import { Entry, settled } from '../entry.ts';
import type { AdminHost } from '../admin-host.ts';

const MAX_UNSENT_BYTES = 256 * 1024;
const HEARTBEAT_MS = 15_000;
const WRITE_PIECE = 16 * 1024;

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

/**
 * The summary of a change whose entry may not be settled yet (subscribeLazy): what the entry says
 * at that change, worked out from its request alone (no signature, schema or checks), so a page
 * that listens costs the request path nothing.
 */
export function summarizeLazy(c: JournalChange): ChangeSummary {
  const e = c.entry;
  if (e instanceof Entry && !Entry.isSeen(e)) {
    const p = Entry.pendingOf(e);
    // on arrival the body has not been read: the request line is all there is
    if (p !== undefined && c.kind === 'arrived')
      return { kind: c.kind, id: p.settler.id(e.seq), seq: e.seq, method: e.method, path: e.path };
    const t = p !== undefined ? p.settler.addressing(e, p) : undefined;
    if (t !== undefined) return summarizeChange({ kind: c.kind, entry: t });
  }
  return summarizeChange({ kind: c.kind, entry: settled(e) });
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
  /** changes noted on the request path, summarized and written once per turn of the event loop */
  private queue: JournalChange[] = [];
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    private readonly off: () => void,
  ) {
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
    // changes noted before this event go first (a reset after them must come after them)
    if (this.queue.length !== 0) this.flush();
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`, false);
  }

  note(c: JournalChange): void {
    if (this.queue.push(c) === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const queue = this.queue;
    this.queue = [];
    // a client already lagging is skipped without working out what it would have been sent
    if (this.res.destroyed || this.res.writableEnded || this.lagging) return;
    let text = '';
    for (const c of queue) {
      text += `event: ${c.kind}\ndata: ${JSON.stringify(summarizeLazy(c))}\n\n`;
      // written in pieces, so the bound on unsent bytes holds within one turn's changes too
      if (text.length >= WRITE_PIECE) {
        this.write(text, false);
        text = '';
        if (this.lagging) return;
      }
    }
    if (text !== '') this.write(text, false);
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
const streams = new WeakMap<AdminHost, Set<EventStream>>();

export function broadcast(host: AdminHost, name: string, data: unknown): void {
  for (const s of streams.get(host) ?? []) s.send(name, data);
}

export function registerEvents(app: FastifyInstance, host: AdminHost): void {
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
    const off = host.journal.subscribeLazy((c) => stream?.note(c));
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
