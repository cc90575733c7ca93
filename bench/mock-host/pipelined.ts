/**
 * The pipelined load generator of the observe figure (observe.ts), run as a process of its own as
 * load.ts is: raw TCP connections (node:net), each keeping a window of HTTP/1.1 requests in flight,
 * every request a distinct signed callback whose bytes are built before the clock starts. Why not
 * autocannon: with one request in flight per connection the server and the generator wait on each
 * other every round trip, so at 64 connections neither is busy all the time and every server lands
 * near the same rate (the generator's, not theirs); autocannon refuses pipelining together with
 * prepared requests. A window of several requests keeps the server's socket always readable, so
 * the server is the one that limits. Each connection's responses are read with ResponseStream and
 * must number exactly its requests (HTTP/1.1 answers them in order); a connection that ends or
 * stalls first counts its unanswered requests as errors or timeouts.
 */
import { connect, type Socket } from 'node:net';
import { HOOK_PATH, bodyFor, headersFor } from './callbacks.ts';
import { cpuSeconds, machineTicks, type LoadJob, type LoadResult } from './measure.ts';
import { ResponseStream } from './responses.ts';

/** a connection silent this long with requests unanswered has stalled (autocannon's timeout in load.ts) */
const STALL_MS = 30_000;

interface Lane {
  socket: Socket;
  bytes: Buffer;
  /** offsets[i]: where request i starts in bytes; offsets[count]: the end */
  offsets: number[];
  count: number;
  sent: number;
  sentAt: Float64Array;
  reader: ResponseStream;
}

/** Requests from..from+count-1 as the bytes of one buffer, with where each starts. */
function build(host: string, from: number, count: number, t: number): { bytes: Buffer; offsets: number[] } {
  const parts: Buffer[] = [];
  const offsets = [0];
  let at = 0;
  for (let i = from; i < from + count; i++) {
    const body = bodyFor(i);
    const headers = { host, ...headersFor(i, body, t), 'content-length': String(Buffer.byteLength(body)) };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const b = Buffer.from(`POST ${HOOK_PATH} HTTP/1.1\r\n${head}\r\n${body}`, 'utf8');
    parts.push(b);
    at += b.length;
    offsets.push(at);
  }
  return { bytes: Buffer.concat(parts), offsets };
}

function open(port: number, host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host, noDelay: true });
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;
}

export async function loadPipelined(job: LoadJob & { window: number }): Promise<LoadResult> {
  const url = new URL(job.url);
  const port = Number(url.port);
  // signed once per round, just before it starts: a round lasts seconds, the window is 300 s (5.2.4)
  const t = Math.floor(Date.now() / 1000);
  const lanes: Lane[] = [];
  for (let k = 0; k < job.connections; k++) {
    const from = job.from + Math.floor((k * job.n) / job.connections);
    const count = job.from + Math.floor(((k + 1) * job.n) / job.connections) - from;
    const { bytes, offsets } = build(url.host, from, count, t);
    const socket = await open(port, url.hostname);
    lanes.push({
      socket,
      bytes,
      offsets,
      count,
      sent: 0,
      sentAt: new Float64Array(count),
      reader: new ResponseStream(),
    });
  }
  const latencies = new Float64Array(job.n);
  let answered = 0;
  let errors = 0;
  let timeouts = 0;
  let last = 0;
  const cpu0 = cpuSeconds(job.serverPid);
  const own0 = process.cpuUsage();
  const m0 = machineTicks();
  const start = performance.now();
  await Promise.all(
    lanes.map(
      (lane) =>
        new Promise<void>((done) => {
          const { socket, reader } = lane;
          // the requests the window allows now, written as one slice of the prebuilt bytes
          const refill = () => {
            const upTo = Math.min(lane.count, reader.responses + job.window);
            if (upTo <= lane.sent) return;
            const now = performance.now();
            lane.sentAt.fill(now, lane.sent, upTo);
            socket.write(lane.bytes.subarray(lane.offsets[lane.sent]!, lane.offsets[upTo]!));
            lane.sent = upTo;
          };
          const end = (unanswered: 'error' | 'timeout' | undefined) => {
            socket.removeAllListeners();
            socket.on('error', () => undefined);
            socket.destroy();
            const left = lane.count - Math.min(lane.count, reader.responses);
            if (unanswered === 'timeout') timeouts += left;
            else errors += left + (unanswered === 'error' && left === 0 ? 1 : 0);
            done();
          };
          socket.setTimeout(STALL_MS, () => end('timeout'));
          socket.on('data', (chunk: Buffer) => {
            const before = reader.responses;
            let got: number;
            try {
              got = reader.feed(chunk);
            } catch {
              return end('error');
            }
            if (got === 0) return;
            const now = performance.now();
            last = now;
            for (let i = before; i < Math.min(lane.count, before + got); i++)
              latencies[answered++] = now - lane.sentAt[i]!;
            // more answers than requests: a request answered twice, or an answer nobody asked for
            if (reader.responses > lane.count) return end('error');
            if (reader.responses === lane.count) return end(undefined);
            refill();
          });
          socket.once('close', () => end('error'));
          socket.once('error', () => end('error'));
          if (lane.count === 0) end(undefined);
          else refill();
        }),
    ),
  );
  const ms = last - start;
  const cpu = cpuSeconds(job.serverPid) - cpu0;
  const own = process.cpuUsage(own0);
  const m1 = machineTicks();
  const ok = lanes.reduce((a, l) => a + Math.min(l.reader.ok, l.count), 0);
  const non2xx = lanes.reduce((a, l) => a + l.reader.non2xx, 0);
  const sorted = latencies.subarray(0, answered).sort();
  return {
    sent: lanes.reduce((a, l) => a + l.sent, 0),
    ok,
    non2xx,
    errors,
    timeouts,
    ms,
    cpu,
    generatorCpu: (own.user + own.system) / 1e6,
    machineIdle: (m1.idle - m0.idle) / Math.max(1, m1.total - m0.total),
    rps: (answered / ms) * 1000,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

if (process.argv.includes('--child')) {
  process.on('message', (job) => {
    void loadPipelined(job as LoadJob & { window: number }).then((r) => process.send!(r));
  });
}
