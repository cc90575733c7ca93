/** `ccs-conformance observe` refuses what it cannot judge with exit 2 and one line naming the problem. */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObserve } from './children.ts';

test('observe --help exits 0 and lists --inject, --from, --idle and --duration', async () => {
  const r = await runObserve(['--help']);
  expect(r.code).toBe(0);
  for (const flag of ['--inject', '--from', '--idle', '--duration', '--signing', '--hmac-secret-file', '--jwks-url']) {
    expect(r.out).toContain(flag);
  }
});

test('observe refuses a bad --inject, a missing, non-journal or non-HAR --from file, a data API without a token source, and two signing modes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-usage-'));
  try {
    const notJournal = join(dir, 'not-journal.jsonl');
    writeFileSync(notJournal, '{"hello":1}\n');
    const notHar = join(dir, 'empty.har');
    writeFileSync(notHar, '{"log":{"version":"1.2"}}');
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'test-only');
    const cases: Array<[string[], RegExp]> = [
      [['--inject', 'onComplete:503'], /--inject must be EVENT=A,B/],
      [['--inject', 'onFinish=503'], /onFinish is not a lifecycle event/],
      [['--inject', 'onComplete=teapot'], /"teapot" is not a status/],
      [['--from', join(dir, 'missing.jsonl')], /cannot read \(ENOENT\)/],
      [['--from', notJournal], /entry 1 is not a mock host journal entry/],
      [['--from', notHar], /no log.entries \(a HAR 1.2 file\)/],
      [['--inject', 'onComplete=hold:x'], /"hold:x" is not a status/],
      [['--hmac-secret-file', secret, '--jwks-url', 'http://127.0.0.1:1/jwks.json', '--idle', '1'], /exclusive/],
      [['--idle', '0'], /--idle must be a number of seconds > 0/],
      [['--data-api', 'localhost:1', '--token-env', 'T'], /--data-api must be the service's http\(s\) base URL/],
      [['--data-api', 'http://127.0.0.1:1'], /--data-api needs --token-env NAME or --token-file F/],
      [['--data-api', 'http://127.0.0.1:1', '--token-env', 'T', '--token-file', secret], /exclusive/],
      [['--token-env', 'T'], /--token-env needs --data-api URL/],
      [['--token-file', secret], /--token-file needs --data-api URL/],
      [['--signing', 'rsa'], /--signing must be none, hmac or jwks/],
      [['--signing', 'hmac'], /--signing hmac needs --hmac-secret-file FILE/],
      [['--signing', 'jwks'], /--signing jwks needs --jwks-url URL/],
      [['--signing', 'none', '--hmac-secret-file', secret], /exclusive/],
    ];
    for (const [args, words] of cases) {
      const r = await runObserve(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toMatch(words);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
