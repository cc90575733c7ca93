/**
 * Property tests of POST /api/{workspaceKey}/embed-tokens: generated bodies from
 * the spec's EmbedTokenRequest schema. Valid bodies are accepted (2xx, or 404 "nothing pushed",
 * EMBED-11 reading); a body breaking exactly one rule gets the 400 the contract documents for that
 * rule; a rule the contract is silent on accepts any documented answer. Every error response of
 * the one-rule test is checked against the spec's error body (ERR-1); the other tests do not cite
 * ERR-1 and leave error bodies to it.
 */
import fc from 'fast-check';
import { test } from './fixtures.ts';
import { validArbitrary, invalidArbitrary, BMP_CHAR } from './property/compile.ts';
import { embedTokenSchema } from './property/schemas.ts';
import { checkProperty, violation } from './property/run.ts';
import type { ServiceResponse } from './clients/service-client.ts';
import { answered } from './areas/errors.ts';
import { precondition } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

const accepted = (r: ServiceResponse) => (r.status >= 200 && r.status < 300) || r.status === 404;
const ACCEPTED = 'a 2xx (or 404 for nothing pushed yet)';

/** ERR-1: an error answer's body is the spec's ErrorBody (the only response shape of this route the contract shows). */
function errorBodyPerSpec(r: ServiceResponse, what: string): void {
  if (r.status < 400) return;
  violation(
    r.specCheck.valid,
    'ERR-1',
    `the ${r.status} body for ${what} is the framework default error body of the spec`,
    { expected: 'the ErrorBody of spec/openapi.yaml', seen: `${r.specCheck.errors.join('; ')}: ${answered(r)}` },
  );
}

/** rule@path of a one-rule violation -> the status and clause the contract gives it, if any. */
function documented(rule: string, path: string): { status: number; clause: ClauseId } | undefined {
  if (path === 'endUserHandle' && rule === 'required') return { status: 400, clause: 'EMBED-1' };
  if (path === 'endUserHandle' && rule === 'maxLength') return { status: 400, clause: 'EMBED-2' };
  if (path === 'endUserHandle' && rule === 'not') return { status: 400, clause: 'EMBED-3' };
  if (path === 'openingContext.referentKeys' && rule === 'maxItems') return { status: 400, clause: 'EMBED-5' };
  if (path.startsWith('openingContext.data.') && rule === 'oneOf') return { status: 400, clause: 'EMBED-7' };
  if (path === 'configEnd') return { status: 400, clause: 'EMBED-9' };
  return undefined;
}

/**
 * A rule the contract is silent on: EMBED-1's reading names an empty, null or non-string
 * endUserHandle and unknown extra members (any documented answer, 2xx or 400); other silent
 * rules belong to no clause, so an undocumented answer there stops the property undecided.
 */
function silentClause(rule: string, path: string): ClauseId | undefined {
  if (path === 'endUserHandle' || (rule === 'additionalProperties' && !path.includes('.'))) return 'EMBED-1';
  return undefined;
}

/** The limit whose boundary a valid body sits on, in words, if any. */
function atBoundary(body: unknown): string | undefined {
  const b = (body ?? {}) as { endUserHandle?: unknown; openingContext?: unknown };
  if (typeof b.endUserHandle === 'string' && [...b.endUserHandle].length === 255)
    return "EMBED-2's boundary (a 255-character endUserHandle)";
  if (b.openingContext !== undefined && JSON.stringify(b.openingContext).length === 16_384)
    return "EMBED-6's boundary (an openingContext of 16384 serialized characters)";
  return undefined;
}

test(
  'generated valid embed-tokens bodies are accepted and answered per the spec (EMBED-11, EMBED-8)',
  { tag: clauseTags('EMBED-11', 'EMBED-8', '@property') },
  async ({ ws, svc, target }) => {
    const schema = await embedTokenSchema(target.organizationId);
    await checkProperty(
      'valid embed-tokens bodies',
      ['EMBED-11', 'EMBED-8'],
      validArbitrary(schema),
      async (body, rec) => {
        const r = rec.record(await svc.embedTokens(ws, body));
        // A valid body with an (unknown) toolClass in its openingContext is EMBED-8's case; any other is EMBED-11's.
        const oc = (body as { openingContext?: { toolClass?: unknown } }).openingContext;
        const clause: ClauseId =
          oc !== undefined && oc !== null && typeof oc === 'object' && 'toolClass' in oc ? 'EMBED-8' : 'EMBED-11';
        // A body at a limit's boundary being accepted is that limit's own rule (EMBED-2, EMBED-6), judged by its tests.
        const boundary = atBoundary(body);
        if (boundary)
          precondition(
            accepted(r),
            `a valid body at ${boundary} is accepted (that limit's own rule, judged by its tests)`,
            { expected: ACCEPTED, seen: answered(r) },
          );
        violation(
          accepted(r),
          clause,
          clause === 'EMBED-8' ? 'a valid body with an unknown toolClass is accepted' : 'a valid body is accepted',
          { expected: ACCEPTED, seen: answered(r) },
        );
      },
    );
  },
);

test(
  'an embed-tokens body breaking one rule gets the documented 400 (EMBED-1, EMBED-2, EMBED-3, EMBED-5, EMBED-7, ERR-1)',
  { tag: clauseTags('EMBED-1', 'EMBED-2', 'EMBED-3', 'EMBED-5', 'EMBED-7', 'ERR-1', '@property') },
  async ({ ws, svc, target }) => {
    const schema = await embedTokenSchema(target.organizationId);
    const seen = new Set<string>();
    await checkProperty(
      'one-rule-invalid embed-tokens bodies',
      ['EMBED-1', 'EMBED-2', 'EMBED-3', 'EMBED-5', 'EMBED-7', 'ERR-1'],
      invalidArbitrary(schema),
      async (iv, rec) => {
        const r = rec.record(await svc.embedTokens(ws, iv.value));
        const want = documented(iv.rule, iv.path);
        seen.add(`${iv.rule}@${iv.path}`);
        const what = `${iv.rule} at ${iv.path} (${iv.detail})`;
        if (want)
          violation(r.status === want.status, want.clause, `a body breaking ${what} gets ${want.status}`, {
            expected: String(want.status),
            seen: answered(r),
          });
        else {
          const ok = accepted(r) || r.status === 400;
          const clause = silentClause(iv.rule, iv.path);
          if (clause)
            violation(
              ok,
              clause,
              `a body breaking ${what}, on which the contract is silent, gets a documented answer`,
              { expected: `${ACCEPTED} or 400`, seen: answered(r) },
            );
          else
            precondition(ok, `a body breaking ${what}, on which the contract is silent, gets a documented answer`, {
              expected: `${ACCEPTED} or 400`,
              seen: answered(r),
            });
        }
        errorBodyPerSpec(r, `a body breaking ${what}`);
      },
      { numRuns: 100 },
    );
    test.info().annotations.push({ type: 'ccs-rules', description: [...seen].sort().join(', ') });
  },
);

test(
  'endUserHandle is accepted up to 255 characters and refused with 400 past it (EMBED-2)',
  { tag: clauseTags('EMBED-2', '@property') },
  async ({ ws, svc }) => {
    const handle = fc
      .tuple(fc.integer({ min: 250, max: 260 }), fc.string({ unit: BMP_CHAR, minLength: 260, maxLength: 260 }))
      .map(([n, s]) => ('u' + s).slice(0, n));
    await checkProperty(
      'endUserHandle around 255',
      ['EMBED-2'],
      handle,
      async (h, rec) => {
        const r = rec.record(await svc.embedTokens(ws, { endUserHandle: h }));
        if (h.length <= 255)
          violation(accepted(r), 'EMBED-2', `a ${h.length}-character endUserHandle is accepted`, {
            expected: ACCEPTED,
            seen: answered(r),
          });
        else
          violation(r.status === 400, 'EMBED-2', `a ${h.length}-character endUserHandle gets 400`, {
            expected: '400',
            seen: answered(r),
          });
      },
      { numRuns: 40 },
    );
  },
);

test(
  'a body carrying configEnd, whatever its value, gets 400 (EMBED-9)',
  { tag: clauseTags('EMBED-9', '@property') },
  async ({ ws, svc }) => {
    const value = fc.oneof(fc.string(), fc.constant('/profile'), fc.constant(null), fc.integer(), fc.constant(''));
    await checkProperty(
      'configEnd present',
      ['EMBED-9'],
      value,
      async (v, rec) => {
        const r = rec.record(await svc.embedTokens(ws, { endUserHandle: 'user-prop', configEnd: v }));
        violation(r.status === 400, 'EMBED-9', `a body with configEnd ${JSON.stringify(v)} gets 400`, {
          expected: '400',
          seen: answered(r),
        });
      },
      { numRuns: 30 },
    );
  },
);

test(
  'openingContext is accepted up to 16384 serialized characters and refused with 400 past it (EMBED-6)',
  { tag: clauseTags('EMBED-6', '@property') },
  async ({ ws, svc }) => {
    // Build {data:{note:"x..."}} whose compact JSON.stringify length is exactly n (EMBED-6 reading).
    const size = fc.integer({ min: 16_378, max: 16_390 });
    await checkProperty(
      'openingContext around 16384',
      ['EMBED-6'],
      size,
      async (n, rec) => {
        const overhead = JSON.stringify({ data: { note: '' } }).length;
        const openingContext = { data: { note: 'x'.repeat(n - overhead) } };
        precondition(
          JSON.stringify(openingContext).length === n,
          `the openingContext built serializes to ${n} characters`,
          { expected: String(n), seen: String(JSON.stringify(openingContext).length) },
        );
        const r = rec.record(await svc.embedTokens(ws, { endUserHandle: 'user-prop', openingContext }));
        if (n <= 16_384)
          violation(accepted(r), 'EMBED-6', `an openingContext of ${n} characters is accepted`, {
            expected: ACCEPTED,
            seen: answered(r),
          });
        else
          violation(r.status === 400, 'EMBED-6', `an openingContext of ${n} characters gets 400`, {
            expected: '400',
            seen: answered(r),
          });
      },
      { numRuns: 20 },
    );
  },
);
