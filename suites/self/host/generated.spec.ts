import { test, expect } from '@playwright/test';
import { generatePayloads, generateSpacings, invalidBySpec, spaced } from '../../host/harness/generated.ts';
import { edgePayloads } from '../../host/harness/edges.ts';

const ctx = { workspaceKey: 'ws-self', configEnd: '/settings', hookPath: '/hooks/ccs' };
const withoutIds = (ps: ReturnType<typeof generatePayloads>) => ps.map(({ conversationId: _c, ...rest }) => rest);

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
