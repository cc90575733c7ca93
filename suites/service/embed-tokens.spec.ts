/**
 * POST /api/{workspaceKey}/embed-tokens (4.2, 7, 8, 9): each 400 rule with its boundary, and
 * acceptance of valid bodies. Success is any 2xx, or 404 ("nothing pushed yet", section 7); the
 * response body is not shown (UNSPEC-4) and never asserted.
 */
import { test } from './fixtures.ts';
import type { ServiceResponse } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { answered, expectError } from './areas/errors.ts';
import { seedAddress, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { check, precondition, type CheckOptions, type ClauseRef } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

/** A soft check of `clause`: the body is accepted (EMBED-11 reading: any 2xx, or 404 when nothing was pushed). */
function expectAccepted(clause: ClauseRef, r: ServiceResponse, what: string, o: CheckOptions = {}): boolean {
  const ok = (r.status >= 200 && r.status < 300) || r.status === 404;
  return check
    .soft(clause, `${what} is accepted (a 2xx, or 404 for nothing pushed yet)`, o)
    .that(ok, { expected: 'a 2xx (or 404)', seen: answered(r) });
}

/** A handle of exactly n characters, unique per test. */
function handleOfLength(n: number): string {
  const head = uniqueHandle('h');
  return (head + 'x'.repeat(Math.max(0, n - head.length))).slice(0, n);
}

/** openingContext { data: { note } } of `ch` (one UTF-16 unit), n characters as compact JSON (EMBED-6 reading). */
function contextOfSize(n: number, ch = 'y'): { data: { note: string } } {
  const frame = JSON.stringify({ data: { note: '' } }).length;
  return { data: { note: ch.repeat(n - frame) } };
}

/** A handle of n characters, most of them two bytes in UTF-8: the limit counts characters, not bytes (EMBED-2). */
function wideHandleOfLength(n: number): string {
  const head = uniqueHandle('h');
  return (head + 'é'.repeat(Math.max(0, n - head.length))).slice(0, n);
}

test('a valid embed-tokens request is accepted (EMBED-11)', { tag: clauseTags('EMBED-11') }, async ({ ws, svc }) => {
  expectAccepted(
    'EMBED-11',
    await svc.embedTokens(ws, { endUserHandle: uniqueHandle() }),
    'a body with only endUserHandle',
    { id: 'embed.valid-accepted' },
  );
});

test(
  'embed-tokens answers 400 when endUserHandle is missing (EMBED-1)',
  { tag: clauseTags('EMBED-1') },
  async ({ ws, svc }) => {
    expectError('EMBED-1', await svc.embedTokens(ws, {}), 400, 'a body without endUserHandle', true, {
      id: 'embed.handle-required',
    });
    expectError(
      'EMBED-1',
      await svc.embedTokens(ws, { openingContext: {} }),
      400,
      'a body with openingContext but no endUserHandle',
      true,
      { id: 'embed.handle-required' },
    );
  },
);

test(
  'embed-tokens accepts an endUserHandle of 255 characters, non-ASCII ones too, and answers 400 for 256 (EMBED-2)',
  { tag: clauseTags('EMBED-2') },
  async ({ ws, svc }) => {
    const max = CONTRACT.endUserHandleMaxLength;
    expectAccepted(
      'EMBED-2',
      await svc.embedTokens(ws, { endUserHandle: handleOfLength(max) }),
      `an endUserHandle of ${max} characters`,
      { id: 'embed.handle-255-accepted' },
    );
    expectError(
      'EMBED-2',
      await svc.embedTokens(ws, { endUserHandle: handleOfLength(max + 1) }),
      400,
      `an endUserHandle of ${max + 1} characters`,
      true,
      { id: 'embed.handle-256-refused' },
    );
    // The unit is the character: 255 characters of two UTF-8 bytes each are still within the limit.
    expectAccepted(
      'EMBED-2',
      await svc.embedTokens(ws, { endUserHandle: wideHandleOfLength(max) }),
      `an endUserHandle of ${max} non-ASCII characters (over ${max} bytes)`,
      { id: 'embed.handle-counts-characters' },
    );
  },
);

test(
  'embed-tokens answers 400 when endUserHandle starts with org- (EMBED-3)',
  { tag: clauseTags('EMBED-3') },
  async ({ ws, svc }) => {
    expectError(
      'EMBED-3',
      await svc.embedTokens(ws, { endUserHandle: `org-${uniqueId('acme')}` }),
      400,
      'an org- handle',
      true,
      { id: 'embed.org-handle-refused' },
    );
    // The prefix rule is about the start only: "org" elsewhere in a handle is an ordinary handle.
    expectAccepted(
      'EMBED-3',
      await svc.embedTokens(ws, { endUserHandle: `user-org-${uniqueId('x')}` }),
      'a handle containing org- past its start',
      { id: 'embed.org-inside-accepted' },
    );
  },
);

test(
  'embed-tokens answers 400 for an invalid organizationId (EMBED-4)',
  { tag: clauseTags('EMBED-4') },
  async ({ ws, svc, target }) => {
    // EMBED-4 reading: the target file lists a valid and an invalid value; without them only a wrong JSON type is sent.
    if (target.organizationId) {
      expectError(
        'EMBED-4',
        await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), organizationId: target.organizationId.invalid }),
        400,
        "the target's invalid organizationId",
        true,
        { id: 'embed.organization-id' },
      );
      expectAccepted(
        'EMBED-4',
        await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), organizationId: target.organizationId.valid }),
        "the target's valid organizationId",
        { id: 'embed.organization-id' },
      );
    }
    expectError(
      'EMBED-4',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), organizationId: 42 }),
      400,
      'an organizationId that is a number',
      true,
      { id: 'embed.organization-id' },
    );
  },
);

test(
  'embed-tokens answers 400 for referentKeys unknown or not owned by the caller, and accepts owned ones (EMBED-5)',
  { tag: clauseTags('EMBED-5') },
  async ({ ws, makeWorkspace, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const own = await seedAddress(driver, ws, h, { label: 'home' });
    const other = await makeWorkspace({ facts: false });
    const foreign = await seedAddress(driver, other, h, { label: 'home' });
    expectAccepted(
      'EMBED-5',
      await svc.embedTokens(ws, { endUserHandle: h, openingContext: { referentKeys: [own] } }),
      "referentKeys naming the caller's own record",
      { id: 'embed.referent-keys' },
    );
    expectError(
      'EMBED-5',
      await svc.embedTokens(ws, { endUserHandle: h, openingContext: { referentKeys: [uniqueId('no-such-key')] } }),
      400,
      'referentKeys naming an unknown key',
      true,
      { id: 'embed.referent-keys' },
    );
    expectError(
      'EMBED-5',
      await svc.embedTokens(ws, { endUserHandle: h, openingContext: { referentKeys: [foreign] } }),
      400,
      "referentKeys naming another workspace's record",
      true,
      { id: 'embed.referent-keys' },
    );
  },
);

test(
  'embed-tokens accepts an openingContext of 16384 serialized characters, non-ASCII ones too, and answers 400 for 16385 (EMBED-6)',
  { tag: clauseTags('EMBED-6') },
  async ({ ws, svc }) => {
    const max = CONTRACT.openingContextMaxChars;
    const at = contextOfSize(max);
    const over = contextOfSize(max + 1);
    precondition(
      JSON.stringify(at).length === max,
      `the openingContext built for the boundary serializes to ${max} characters`,
      { expected: String(max), seen: String(JSON.stringify(at).length) },
    );
    precondition(
      JSON.stringify(over).length === max + 1,
      `the openingContext built past the boundary serializes to ${max + 1} characters`,
      { expected: String(max + 1), seen: String(JSON.stringify(over).length) },
    );
    expectAccepted(
      'EMBED-6',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), openingContext: at }),
      `an openingContext of ${max} characters`,
      { id: 'embed.context-16384-accepted' },
    );
    expectError(
      'EMBED-6',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), openingContext: over }),
      400,
      `an openingContext of ${max + 1} characters`,
      true,
      { id: 'embed.context-16385-refused' },
    );
    // The unit is the serialized character: 16384 characters, most of them two UTF-8 bytes, are still within the limit.
    const wide = contextOfSize(max, 'é');
    precondition(JSON.stringify(wide).length === max, `the non-ASCII openingContext serializes to ${max} characters`, {
      expected: String(max),
      seen: String(JSON.stringify(wide).length),
    });
    expectAccepted(
      'EMBED-6',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), openingContext: wide }),
      `an openingContext of ${max} non-ASCII characters (over ${max} bytes)`,
      { id: 'embed.context-counts-characters' },
    );
  },
);

test(
  'embed-tokens answers 400 when openingContext carries nested data values, and accepts flat ones (EMBED-7)',
  { tag: clauseTags('EMBED-7') },
  async ({ ws, svc }) => {
    // EMBED-7 reading: openingContext.data values must be scalars; an object or array value is nested.
    expectAccepted(
      'EMBED-7',
      await svc.embedTokens(ws, {
        endUserHandle: uniqueHandle(),
        openingContext: { data: { city: 'Paris', floor: 3, lift: true, note: null } },
      }),
      'flat data values',
      { id: 'embed.nested-data-refused' },
    );
    expectError(
      'EMBED-7',
      await svc.embedTokens(ws, {
        endUserHandle: uniqueHandle(),
        openingContext: { data: { address: { city: 'Paris' } } },
      }),
      400,
      'an object value inside openingContext.data',
      true,
      { id: 'embed.nested-data-refused' },
    );
    expectError(
      'EMBED-7',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), openingContext: { data: { tags: ['a', 'b'] } } }),
      400,
      'an array value inside openingContext.data',
      true,
      { id: 'embed.nested-data-refused' },
    );
  },
);

test(
  'an unknown toolClass inside openingContext is ignored, never an error (EMBED-8)',
  { tag: clauseTags('EMBED-8') },
  async ({ ws, svc }) => {
    expectAccepted(
      'EMBED-8',
      await svc.embedTokens(ws, {
        endUserHandle: uniqueHandle(),
        openingContext: { toolClass: uniqueId('no-such-tool') },
      }),
      'an unknown toolClass',
      { id: 'embed.unknown-tool-ignored' },
    );
  },
);

test(
  'embed-tokens answers 400 when the body carries a configEnd field (EMBED-9)',
  { tag: clauseTags('EMBED-9') },
  async ({ ws, svc }) => {
    expectError(
      'EMBED-9',
      await svc.embedTokens(ws, { endUserHandle: uniqueHandle(), configEnd: '/profile' }),
      400,
      'a body with configEnd',
      false,
      { id: 'embed.configend-refused' },
    );
  },
);
