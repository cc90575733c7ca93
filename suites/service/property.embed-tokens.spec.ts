/**
 * Property tests of POST /api/{workspaceKey}/embed-tokens: generated bodies from
 * the spec's EmbedTokenRequest schema. Valid bodies are accepted (2xx, or 404 "nothing pushed",
 * EMBED-11 reading); a body breaking exactly one rule gets the 400 the contract documents for that
 * rule; a rule the contract is silent on accepts any documented answer. Every response is checked
 * against the spec (status, content type, body: ERR-1 for error bodies).
 */
import fc from 'fast-check';
import { test, expect } from './fixtures.ts';
import { validArbitrary, invalidArbitrary, BMP_CHAR } from './property/compile.ts';
import { embedTokenSchema } from './property/schemas.ts';
import { checkProperty } from './property/run.ts';
import type { ServiceResponse } from './clients/service-client.ts';
import { clauseTags } from '../../spec/index.ts';

const accepted = (r: ServiceResponse) => (r.status >= 200 && r.status < 300) || r.status === 404;

function expectSpec(r: ServiceResponse): void {
  expect(r.specCheck.valid, `${r.status} does not match the spec: ${r.specCheck.errors.join('; ')}\n${r.curl}`).toBe(true);
}

/** rule@path of a one-rule violation -> the status and clause the contract gives it, if any. */
function documented(rule: string, path: string): { status: number; clause: string } | undefined {
  if (path === 'endUserHandle' && rule === 'required') return { status: 400, clause: 'EMBED-1' };
  if (path === 'endUserHandle' && rule === 'maxLength') return { status: 400, clause: 'EMBED-2' };
  if (path === 'endUserHandle' && rule === 'not') return { status: 400, clause: 'EMBED-3' };
  if (path === 'openingContext.referentKeys' && rule === 'maxItems') return { status: 400, clause: 'EMBED-5' };
  if (path.startsWith('openingContext.data.') && rule === 'oneOf') return { status: 400, clause: 'EMBED-7' };
  if (path === 'configEnd') return { status: 400, clause: 'EMBED-9' };
  return undefined;
}

test.describe.configure({ mode: 'parallel' });

test('generated valid embed-tokens bodies are accepted and answered per the spec (EMBED-11, EMBED-8)', { tag: clauseTags('EMBED-11', 'EMBED-8', '@property') }, async ({ ws, svc, target }) => {
  const schema = await embedTokenSchema(target.organizationId);
  await checkProperty('valid embed-tokens bodies', validArbitrary(schema), async (body, rec) => {
    const r = rec.record(await svc.embedTokens(ws, body));
    expect(accepted(r), `a valid body was answered ${r.status}: ${r.text.slice(0, 200)}`).toBe(true);
    expectSpec(r);
  });
});

test('an embed-tokens body breaking one rule gets the documented 400 (EMBED-1, EMBED-2, EMBED-3, EMBED-5, EMBED-7, ERR-1)',
  { tag: clauseTags('EMBED-1', 'EMBED-2', 'EMBED-3', 'EMBED-5', 'EMBED-7', 'ERR-1', '@property') }, async ({ ws, svc, target }) => {
    const schema = await embedTokenSchema(target.organizationId);
    const seen = new Set<string>();
    await checkProperty('one-rule-invalid embed-tokens bodies', invalidArbitrary(schema), async (iv, rec) => {
      const r = rec.record(await svc.embedTokens(ws, iv.value));
      const want = documented(iv.rule, iv.path);
      seen.add(`${iv.rule}@${iv.path}`);
      if (want) expect(r.status, `${want.clause}: ${iv.rule} at ${iv.path} (${iv.detail}) must give ${want.status}`).toBe(want.status);
      else expect(accepted(r) || r.status === 400, `${iv.rule} at ${iv.path}: the contract is silent, any documented answer; got ${r.status}`).toBe(true);
      expectSpec(r);
    }, { numRuns: 100 });
    test.info().annotations.push({ type: 'ccs-rules', description: [...seen].sort().join(', ') });
  });

test('endUserHandle is accepted up to 255 characters and refused with 400 past it (EMBED-2)', { tag: clauseTags('EMBED-2', '@property') }, async ({ ws, svc }) => {
  const handle = fc.tuple(fc.integer({ min: 250, max: 260 }), fc.string({ unit: BMP_CHAR, minLength: 260, maxLength: 260 }))
    .map(([n, s]) => ('u' + s).slice(0, n));
  await checkProperty('endUserHandle around 255', handle, async (h, rec) => {
    const r = rec.record(await svc.embedTokens(ws, { endUserHandle: h }));
    if (h.length <= 255) expect(accepted(r), `a ${h.length}-character handle was answered ${r.status}`).toBe(true);
    else expect(r.status, `a ${h.length}-character handle must give 400`).toBe(400);
    expectSpec(r);
  }, { numRuns: 40 });
});

test('a body carrying configEnd, whatever its value, gets 400 (EMBED-9)', { tag: clauseTags('EMBED-9', '@property') }, async ({ ws, svc }) => {
  const value = fc.oneof(fc.string(), fc.constant('/profile'), fc.constant(null), fc.integer(), fc.constant(''));
  await checkProperty('configEnd present', value, async (v, rec) => {
    const r = rec.record(await svc.embedTokens(ws, { endUserHandle: 'user-prop', configEnd: v }));
    expect(r.status, `configEnd ${JSON.stringify(v)} must give 400`).toBe(400);
    expectSpec(r);
  }, { numRuns: 30 });
});

test('openingContext is accepted up to 16384 serialized characters and refused with 400 past it (EMBED-6)', { tag: clauseTags('EMBED-6', '@property') }, async ({ ws, svc }) => {
  // Build {data:{note:"x..."}} whose compact JSON.stringify length is exactly n (EMBED-6 reading).
  const size = fc.integer({ min: 16_378, max: 16_390 });
  await checkProperty('openingContext around 16384', size, async (n, rec) => {
    const overhead = JSON.stringify({ data: { note: '' } }).length;
    const openingContext = { data: { note: 'x'.repeat(n - overhead) } };
    expect(JSON.stringify(openingContext).length).toBe(n);
    const r = rec.record(await svc.embedTokens(ws, { endUserHandle: 'user-prop', openingContext }));
    if (n <= 16_384) expect(accepted(r), `openingContext of ${n} characters was answered ${r.status}`).toBe(true);
    else expect(r.status, `openingContext of ${n} characters must give 400`).toBe(400);
    expectSpec(r);
  }, { numRuns: 20 });
});
