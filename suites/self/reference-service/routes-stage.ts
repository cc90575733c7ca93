/**
 * What the route self tests of the reference service share: a fresh stage per test (host.ts), the framework
 * default error body (ERR-1), and the upload route called with a hand-built multipart body.
 */
import { test, expect } from '@playwright/test';
import { stage, type Stage } from './host.ts';

/** The stage of the running test (a live binding: set before each test of a file that calls stagePerTest). */
export let s: Stage;

/** Gives each test of the calling file a fresh stage, closed after it. */
export function stagePerTest(): void {
  test.beforeEach(async () => {
    s = await stage();
  });
  test.afterEach(async () => {
    await s.close();
  });
}

const ERROR_KEYS = ['error', 'path', 'status', 'timestamp'];
export function expectDefaultError(r: { status: number; json: any }, status: number, path: string): void {
  expect(r.status).toBe(status);
  expect(Object.keys(r.json).sort()).toEqual(ERROR_KEYS);
  expect(r.json.status).toBe(status);
  expect(r.json.path).toBe(path);
  expect(typeof r.json.error).toBe('string');
}

export function multipart(parts: Array<{ name: string; filename?: string; body: string | Buffer }>): {
  body: Buffer;
  type: string;
} {
  const boundary = '----ccsboundary7f3a';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(
  body: Buffer,
  type: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
    method: 'POST',
    body: body as unknown as BodyInit,
    headers: { 'content-type': type, ...headers },
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
