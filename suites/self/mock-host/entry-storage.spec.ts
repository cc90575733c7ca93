import { test, expect } from '@playwright/test';
import { keepBody, keptBody, releaseBody, type KeptBody } from '../../../mock-host/body-store.ts';
import { clauseTags } from '../../../spec/index.ts';
import { monoMsBetween, monoNow, monoText, wallMsOf, wallNow } from '../../../mock-host/clock.ts';
import { shareRawHeaders } from '../../../mock-host/compact.ts';

function kept(body: Buffer): Buffer {
  const k: KeptBody = { bodySlab: undefined, bodyOffset: 0, bodyLength: 0 };
  keepBody(k, body);
  return keptBody(k)!;
}

test('a kept body has the bytes it was given, small ones in a shared slab, large ones as they came (PITFALLS: raw bytes)', () => {
  const small = Buffer.from('{"event":"onComplete","é":1}', 'utf8');
  const copy = kept(small);
  expect(copy.equals(small)).toBe(true);
  expect(copy.buffer).not.toBe(small.buffer);
  small.fill(0); // the journal's copy does not follow the socket's buffer
  expect(copy.toString('utf8')).toBe('{"event":"onComplete","é":1}');
  const large = Buffer.alloc(64 * 1024, 7);
  expect(kept(large)).toBe(large);
  expect(kept(Buffer.alloc(0)).length).toBe(0);
  // past the end of a slab the next one starts; every body stays whole
  const bodies = Array.from({ length: 600 }, (_, i) => Buffer.alloc(4000 + (i % 7), i % 251));
  const keptAll = bodies.map(kept);
  keptAll.forEach((k, i) => expect(k.equals(bodies[i]!), `body ${i}`).toBe(true));
  expect(new Set(keptAll.map((k) => k.buffer)).size).toBeGreaterThan(1);
  const k: KeptBody = { bodySlab: undefined, bodyOffset: 0, bodyLength: 0 };
  expect(keptBody(k)).toBeUndefined();
  keepBody(k, Buffer.from('x'));
  releaseBody(k);
  expect(keptBody(k)).toBeUndefined();
});

test(
  "an entry's times kept as small integers read as the nanoseconds and milliseconds of the clocks that retry gaps are measured on (DELIV-8)",
  { tag: clauseTags('DELIV-8') },
  () => {
    const before = process.hrtime.bigint();
    const [s, ns] = monoNow();
    const after = process.hrtime.bigint();
    expect(Number.isInteger(s) && Number.isInteger(ns) && ns < 1e9).toBe(true);
    const text = BigInt(monoText(s, ns));
    expect(text >= before && text <= after).toBe(true);
    expect(monoText(12, 5)).toBe('12000000005');
    expect(monoMsBetween(1, 999_999_999, 3, 0)).toBe(1000); // 1.000000001 s: 1000 ms, truncated
    const w0 = Date.now();
    const w = wallMsOf(wallNow());
    expect(w >= w0 && w <= Date.now()).toBe(true);
  },
);

test('sharing header strings between requests never changes a header line, whatever the order, case or repetition of the lines (PITFALLS: raw bytes)', () => {
  const a = (id: string, len: string) => [
    'Host',
    '127.0.0.1:1',
    'content-type',
    'application/json',
    'x-service-delivery-id',
    id,
    'Content-Length',
    len,
  ];
  const requests = [
    a('d-1', '230'),
    a('d-2', '231'),
    a('d-3', '230'),
    ['content-type', 'text/plain', 'Host', '127.0.0.1:2', 'x-service-delivery-id', 'd-4'],
    ['Host', '127.0.0.1:1', 'X-Service-Delivery-Id', 'd-5', 'x-service-delivery-id', 'd-6', 'Content-Length', '230'],
    a('d-7', '230'),
    ['Host', '127.0.0.1:1', 'content-type', 'application/json'],
    a('d-8', '0'),
  ];
  for (const lines of requests) {
    const given = [...lines];
    shareRawHeaders(lines);
    expect(lines).toEqual(given);
  }
});
