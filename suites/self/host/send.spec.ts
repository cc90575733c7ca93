import http from 'node:http';
import { test, expect } from '@playwright/test';
import { send } from '../../host/index.ts';

test('a request to a closed port is recorded as a connect failure, never a hang', async () => {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  const o = await send({
    method: 'POST',
    url: `http://127.0.0.1:${port}/hook`,
    headers: {},
    body: Buffer.from('{}'),
    timeoutMs: 5_000,
  });
  expect(o.failure).toBe('connect');
  expect(o.status).toBeUndefined();
});

test('a receiver that never answers is recorded as a timeout at the deadline', async () => {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => {
    held.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const o = await send({
      method: 'POST',
      url: `http://127.0.0.1:${port}/hook`,
      headers: {},
      body: Buffer.from('{}'),
      timeoutMs: 300,
    });
    expect(o.failure).toBe('timeout');
    expect(o.elapsedMs).toBeGreaterThanOrEqual(290);
  } finally {
    for (const r of held) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
