/**
 * --forward-to: relays a request to a local host app with the same method, path, headers and
 * body bytes (the contract's local listen pipe, HOOK-5), and records the app's answer.
 */
import { request } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { JournalEntry } from './types.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

export function forward(
  entry: JournalEntry,
  body: Buffer | undefined,
  base: string,
  res: ServerResponse,
): Promise<void> {
  const target = new URL(entry.url, base.endsWith('/') ? base : base + '/');
  // the request target as received, on the app's origin (path and query bytes unchanged)
  const baseUrl = new URL(base);
  const path = baseUrl.pathname.replace(/\/$/, '') + entry.url || '/';
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(entry.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
  headers.host = baseUrl.host;
  if (body && body.length) headers['content-length'] = String(body.length);
  entry.response = { forwardedTo: target.origin + path };
  return new Promise((resolve) => {
    const req = request(
      { method: entry.method, hostname: baseUrl.hostname, port: baseUrl.port || 80, path, headers, agent: false },
      (appRes) => {
        const chunks: Buffer[] = [];
        appRes.on('data', (c: Buffer) => chunks.push(c));
        appRes.on('end', () => {
          const out = Buffer.concat(chunks);
          const status = appRes.statusCode ?? 502;
          entry.response = { ...entry.response, status, ...(out.length ? { bodyBase64: out.toString('base64') } : {}) };
          if (!res.destroyed && !res.writableEnded) {
            const h: Record<string, string | number> = { 'content-length': out.length };
            const ct = appRes.headers['content-type'];
            if (ct) h['content-type'] = ct;
            res.writeHead(status, h);
            res.end(out);
          }
          resolve();
        });
        appRes.on('error', () => resolve());
      },
    );
    req.on('error', (error) => {
      const text = JSON.stringify({ error: `forward to ${baseUrl.origin} failed: ${error.message}` });
      entry.response = { ...entry.response, status: 502, bodyBase64: Buffer.from(text).toString('base64') };
      if (!res.destroyed && !res.writableEnded) {
        res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      }
      resolve();
    });
    req.end(body && body.length ? body : undefined);
  });
}
