import { test, expect } from '@playwright/test';
import { generatePayloads, generateSpacings, invalidBySpec, spaced } from '../../host/harness/generated.ts';
import { edgePayloads } from '../../host/harness/edges.ts';

const ctx = { workspaceKey: 'ws-self', configEnd: '/settings', hookPath: '/hooks/ccs' };
/** A generated onComplete key's tail, unique per callback (generated.ts). */
const TAIL = /~[0-9a-f]{16}$/;
const withoutIds = (ps: ReturnType<typeof generatePayloads>) =>
  ps.map(({ conversationId: _c, ...rest }) =>
    Array.isArray(rest.serviceKeys)
      ? { ...rest, serviceKeys: (rest.serviceKeys as string[]).map((k) => k.replace(TAIL, '')) }
      : rest,
  );

test('generated host payloads are valid per the spec, cover every event and replay from their seed (HOST-26)', () => {
  for (const seed of [1, 42, -7, 123456]) {
    const ps = generatePayloads(ctx, seed, 60);
    expect(invalidBySpec(ps)).toEqual([]);
    expect(withoutIds(generatePayloads(ctx, seed, 60))).toEqual(withoutIds(ps));
  }
  const events = new Set(generatePayloads(ctx, 3, 200).map((p) => p.event));
  expect(events.size).toBe(7);
});

test('the written-in edges are valid per the spec (HOST-26)', () => {
  const edges = edgePayloads({ ...ctx });
  expect(invalidBySpec(edges.map((e) => e.payload))).toEqual([]);
  const pages = edges
    .filter((e) => e.payload.event === 'config.bulk_deleted')
    .map((e) => (e.payload.keys as string[]).length);
  expect(pages).toEqual(expect.arrayContaining([1, 499, 500, 237]));
});

test('a spaced body parses to the same payload and keeps a lone carriage return (HOST-24)', () => {
  const [p] = generatePayloads(ctx, 9, 1);
  for (const spacing of generateSpacings(9, 6)) expect(JSON.parse(spaced(p, spacing))).toEqual(p);
  expect(spaced(p, generateSpacings(9, 1)[0]!)).toMatch(/\r(?!\n)/);
});

test("a generated onComplete's keys are its own: the same seed twice names no key twice (HOST-13)", () => {
  const keysOf = (seed: number) =>
    generatePayloads(ctx, seed, 60).flatMap((p) => (p.event === 'onComplete' ? (p.serviceKeys as string[]) : []));
  const keys = [...keysOf(5), ...keysOf(5)];
  expect(keys.length).toBeGreaterThan(0);
  expect(new Set(keys).size).toBe(keys.length);
  for (const k of keys) expect(k).toMatch(TAIL);
});
