/**
 * Property tests of the data API routes: generated route parameters (handles at
 * and around the 255 limit, org- handles, unknown keys and configEnds) and malformed write bodies.
 * Each answer is the documented status for the rule at stake; where the test cites ERR-1, every
 * error answer also matches its shape in the spec (the framework default body), checked apart from
 * the property so that each clause is decided on its own. Requests are written in the data API
 * forms the target declares (UNSPEC-8, UNSPEC-9).
 */
import fc from 'fast-check';
import { test } from './fixtures.ts';
import { validArbitrary, BMP_CHAR } from './property/compile.ts';
import { endUserHandleSchema } from './property/schemas.ts';
import { checkProperty, violation } from './property/run.ts';
import type { ServiceResponse } from './clients/service-client.ts';
import { answered } from './areas/errors.ts';
import { check } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

/** What was answered, with the data API form hint when a 404, 405 or 400 may come from another form. */
function seen(r: ServiceResponse): string {
  return `${answered(r)}${r.formHint ? ` (hint: ${r.formHint})` : ''}`;
}

/** The answer has this status (a violation of `clause` otherwise). */
function status(r: ServiceResponse, allowed: number[], clause: ClauseId, rule: string): void {
  violation(allowed.includes(r.status), clause, rule, { expected: allowed.join(' or '), seen: seen(r) });
}

/**
 * ERR-1 over every answer of a property: an error body is the framework default of section 7, as
 * spec/openapi.yaml shows it. Collected while the property runs and checked once after it, so a
 * service that breaks only the body's shape fails ERR-1 and still has the status rule decided.
 */
class ErrorBodies {
  readonly problems = new Map<string, string>();
  seen = 0;
  record(r: ServiceResponse): void {
    if (r.status < 400) return;
    this.seen++;
    if (!r.specCheck.valid && this.problems.size < 5)
      this.problems.set(
        `${r.status} ${r.specCheck.errors.join('; ')}`,
        `${r.status}: ${r.specCheck.errors.join('; ')} (${r.curl})`,
      );
  }
  check(what: string): void {
    check
      .soft(
        'ERR-1',
        `the error bodies of ${what} match spec/openapi.yaml: the framework default { timestamp, status, error, path }`,
      )
      .none([...this.problems.values()], `no difference in ${this.seen} error answers`);
  }
}

/**
 * A path segment "." or ".." is removed by every URL normalization (RFC 3986 5.2.4; the WHATWG URL
 * parser also reads %2E as a dot): it cannot carry a handle or a key in a data API path, so no
 * generated one is a dot segment.
 */
const notDotSegment = (s: unknown): boolean => s !== '.' && s !== '..';
const orgHandle = fc.string({ unit: BMP_CHAR, maxLength: 40 }).map((s) => `org-${s}`);
const key = fc.string({ unit: BMP_CHAR, minLength: 1, maxLength: 40 }).filter(notDotSegment);
const validHandles = async () => validArbitrary(await endUserHandleSchema()).filter(notDotSegment);

test(
  'a Setting read for a handle with no record answers 404, whatever the handle (DATA-8, ERR-1)',
  { tag: clauseTags('DATA-8', 'ERR-1', '@property') },
  async ({ ws, svc }) => {
    const handles = await validHandles();
    const bodies = new ErrorBodies();
    await checkProperty('Setting reads of fresh handles', ['DATA-8'], handles, async (h, rec) => {
      const r = rec.record(await svc.listRecords(ws, '/profile', h as string));
      bodies.record(r);
      status(r, [404], 'DATA-8', 'GET /{endUserHandle} of a Setting for a handle with no record answers 404');
    });
    bodies.check('Setting reads of fresh handles');
  },
);

test(
  'a data route with a reserved org- handle answers 400 (DATA-6, ERR-1)',
  { tag: clauseTags('DATA-6', 'ERR-1', '@property') },
  async ({ ws, svc }) => {
    const bodies = new ErrorBodies();
    await checkProperty(
      'org- handles on the data API',
      ['DATA-6'],
      fc.tuple(orgHandle, fc.constantFrom('get', 'post', 'get-key')),
      async ([h, op], rec) => {
        const r = rec.record(
          op === 'get'
            ? await svc.listRecords(ws, '/profile', h)
            : op === 'post'
              ? await svc.writeRecord(ws, '/profile', h, { data: { name: 'x' } })
              : await svc.getRecord(ws, '/addresses', h, 'k-1'),
        );
        bodies.record(r);
        status(
          r,
          [400],
          'DATA-6',
          `${op === 'get' ? 'GET /{endUserHandle}' : op === 'post' ? 'POST /{endUserHandle}' : 'GET /{endUserHandle}/{serviceKey}'} with an org- handle answers 400`,
        );
      },
    );
    bodies.check('data API requests with org- handles');
  },
);

test(
  'handles around 255 characters on the data API get a documented answer (DATA-8)',
  { tag: clauseTags('DATA-8', '@property') },
  async ({ ws, svc }) => {
    // The 255 limit is written for embed-tokens (section 8): at or under it a Setting read of a
    // fresh handle is 404; past it the contract is silent, so 400 or 404 are both accepted.
    const handle = fc
      .tuple(fc.integer({ min: 253, max: 258 }), fc.string({ unit: BMP_CHAR, minLength: 258, maxLength: 258 }))
      .map(([n, s]) => ('u' + s).slice(0, n));
    await checkProperty(
      'data API handles around 255',
      ['DATA-8'],
      handle,
      async (h, rec) => {
        const r = rec.record(await svc.listRecords(ws, '/profile', h));
        if (h.length <= 255)
          status(
            r,
            [404],
            'DATA-8',
            `GET /{endUserHandle} of a Setting for a fresh handle of ${h.length} characters answers 404`,
          );
        else
          status(
            r,
            [400, 404],
            'DATA-8',
            `GET /{endUserHandle} of a Setting for a handle of ${h.length} characters (over the embed-tokens limit) answers 400 or 404`,
          );
      },
      { numRuns: 24 },
    );
  },
);

test('PUT on any data route answers 405 (DATA-5)', { tag: clauseTags('DATA-5', '@property') }, async ({ ws, svc }) => {
  const handles = await validHandles();
  await checkProperty(
    'PUT on data routes',
    ['DATA-5'],
    fc.tuple(handles, fc.option(key), fc.constantFrom('/profile', '/addresses')),
    async ([h, k, end], rec) => {
      const r = rec.record(
        await svc.putRecord(ws, end, h as string, { data: {} }, k === null ? {} : { serviceKey: k }),
      );
      status(
        r,
        [405],
        'DATA-5',
        `PUT ${k === null ? '/{endUserHandle}' : '/{endUserHandle}/{serviceKey}'} on ${end} answers 405`,
      );
    },
    { numRuns: 40 },
  );
});

test(
  'a malformed write body answers 400 (DATA-7, ERR-1)',
  { tag: clauseTags('DATA-7', 'ERR-1', '@property') },
  async ({ ws, svc }) => {
    // Not JSON at all: a JSON text cut short, or free text that does not parse.
    const malformed = fc
      .oneof(
        fc
          .json({ maxDepth: 2 })
          .filter((s) => s.length > 2)
          .chain((s) => fc.integer({ min: 1, max: s.length - 1 }).map((n) => s.slice(0, n))),
        fc.string({ minLength: 1, maxLength: 30 }),
      )
      .filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      });
    const bodies = new ErrorBodies();
    await checkProperty('malformed write bodies', ['DATA-7'], malformed, async (text, rec) => {
      const r = rec.record(await svc.writeRecord(ws, '/profile', 'user-prop', undefined, { rawBody: text }));
      bodies.record(r);
      status(r, [400], 'DATA-7', 'a write whose body does not parse as JSON answers 400');
    });
    bodies.check('malformed writes');
  },
);

test(
  'a read by an unknown serviceKey answers 404 (DATA-9)',
  { tag: clauseTags('DATA-9', '@property') },
  async ({ ws, svc }) => {
    await checkProperty('unknown serviceKeys', ['DATA-9'], key, async (k, rec) => {
      const r = rec.record(await svc.getRecord(ws, '/addresses', 'user-prop', k));
      status(r, [404], 'DATA-9', 'GET /{endUserHandle}/{serviceKey} of an unknown key answers 404');
    });
  },
);

test(
  'a data route for a configEnd with no live config answers 404 (DATA-10)',
  { tag: clauseTags('DATA-10', '@property') },
  async ({ ws, svc }) => {
    const end = fc
      .stringMatching(/^\/[a-z][a-z0-9-]{0,20}$/)
      .filter((e) => !['/profile', '/addresses', '/facts'].includes(e));
    await checkProperty(
      'unknown configEnds',
      ['DATA-10'],
      end,
      async (e, rec) => {
        const r = rec.record(await svc.listRecords(ws, e, 'user-prop'));
        status(r, [404], 'DATA-10', `GET /{endUserHandle} on configEnd ${e}, which has no live config, answers 404`);
      },
      { numRuns: 30 },
    );
  },
);

test(
  'upload status for an id with no push history answers 404 (UPLOAD-8)',
  { tag: clauseTags('UPLOAD-8', '@property') },
  async ({ ws, svc, driver }) => {
    driver.requireCapability('upload');
    await checkProperty(
      'unknown upload ids',
      ['UPLOAD-8'],
      key,
      async (id, rec) => {
        const r = rec.record(await svc.uploadStatus(ws, id));
        status(r, [404], 'UPLOAD-8', 'upload status of an id with no push history answers 404');
      },
      { numRuns: 30 },
    );
  },
);
