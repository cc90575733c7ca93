import { test, expect } from '@playwright/test';
import { keepBody } from '../../../mock-host/body-store.ts';
import { clauseTags } from '../../../spec/index.ts';
import { monoMsBetween, monoNow, monoText, wallMsOf, wallNow } from '../../../mock-host/clock.ts';

test('a kept body has the bytes it was given, small ones in a shared slab, large ones as they came (PITFALLS: raw bytes)', () => {
  const small = Buffer.from('{"event":"onComplete","é":1}', 'utf8');
  const kept = keepBody(small);
  expect(kept.equals(small)).toBe(true);
  expect(kept.buffer).not.toBe(small.buffer);
  small.fill(0); // the journal's copy does not follow the socket's buffer
  expect(kept.toString('utf8')).toBe('{"event":"onComplete","é":1}');
  const large = Buffer.alloc(64 * 1024, 7);
  expect(keepBody(large)).toBe(large);
  // past the end of a slab the next one starts; every body stays whole
  const bodies = Array.from({ length: 600 }, (_, i) => Buffer.alloc(4000, i % 251));
  const keptAll = bodies.map(keepBody);
  keptAll.forEach((k, i) => expect(k.equals(bodies[i]!), `body ${i}`).toBe(true));
  expect(new Set(keptAll.map((k) => k.buffer)).size).toBeGreaterThan(1);
});

test('an entry\'s times kept as small integers read as the nanoseconds and milliseconds of the clocks that retry gaps are measured on (DELIV-8)', { tag: clauseTags('DELIV-8') }, () => {
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
});
