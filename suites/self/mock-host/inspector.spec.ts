/**
 * The mock host's inspector page in a real headless Chromium (Debian's chromium: browsers cannot
 * be downloaded here): live arrival over server-sent events, grouping and the timeline, filters,
 * facts answers, paging of a large journal, and no secret on the page. Copy as curl and replay are
 * inspector-curl.spec.ts's. Screenshots are attached to each test so a reviewer sees the page.
 */
import { test, expect } from '@playwright/test';
import { factsSigningPayload, signHmac } from '../../../protocol/index.ts';
import { lcBody, nowSeconds, send, TEST_ONLY_SECRET } from './helpers.ts';
import { WAIT, inspectorHooks, openPage, postSigned, row, shot, startHost } from './inspector-page.ts';

inspectorHooks();

test('a callback posted after the page opened appears live, and no configured secret reaches the page', async ({}, testInfo) => {
  const h = await startHost();
  const page = await openPage(h);
  const bodies: string[] = [];
  page.on(
    'response',
    (r) =>
      void r.text().then(
        (t) => bodies.push(t),
        () => undefined,
      ),
  );
  await expect(page.locator('.row')).toHaveCount(0);
  await postSigned(h, lcBody('onStart', 31));
  await expect(row(page, 'lc-31-onStart')).toBeVisible(WAIT);
  await expect(row(page, 'lc-31-onStart').locator('.chip.sig-valid')).toHaveText('sig valid');
  await row(page, 'lc-31-onStart').click();
  await expect(page.locator('#detail .verdict').first()).toContainText('valid (hmac)');
  await shot(page, testInfo, 'live arrival');
  const everything = [await page.content(), ...bodies].join('\n');
  expect(everything.includes(TEST_ONLY_SECRET), 'the HMAC secret is never sent to the page').toBe(false);
  // a reset over the admin API empties the page too
  expect((await send(h.url, { method: 'POST', path: '/__admin/reset' })).status).toBe(200);
  await expect(page.locator('.row')).toHaveCount(0, WAIT);
  await expect(page.locator('#detail')).toHaveText('The journal was reset.');
  await postSigned(h, lcBody('onStart', 39));
  await expect(row(page, 'lc-39-onStart')).toBeVisible(WAIT);
  await page.close();
});

test('three attempts of one delivery id are one row and one timeline against the retry windows; a filter hides the others', async ({}, testInfo) => {
  const h = await startHost({
    scripts: [
      {
        id: 'fail-twice',
        match: { event: 'onComplete', attempt: [1, 2] },
        steps: [{ action: 'respond', status: 503 }],
        then: 'repeat-last',
      },
    ],
  });
  const page = await openPage(h);
  await postSigned(h, lcBody('onStart', 32));
  await postSigned(h, lcBody('config.saved', 33, { endUserHandle: 'user-2' }), { secret: 'not-the-configured-secret' });
  const complete = lcBody('onComplete', 32);
  for (const attempt of [1, 2, 3]) await postSigned(h, complete, { attempt });
  await h.journal.waitFor({ event: 'onComplete', completed: true }, { count: 3, timeoutMs: 5000 });

  const group = row(page, 'lc-32-onComplete');
  await expect(group).toHaveAttribute('data-count', '3', WAIT);
  await expect(page.locator('.row')).toHaveCount(3);
  await expect(group.locator('circle.mark')).toHaveCount(3);
  await expect(group.locator('circle.mark.fail')).toHaveCount(2);
  await expect(group.locator('circle.mark.ok')).toHaveCount(1);
  await group.click();
  await expect(page.locator('#detail article.card')).toHaveCount(3, WAIT);
  // DELIV-8: a window before attempt 2 and one before attempt 3, scaled by 0.1
  await expect(page.locator('#detail .chart rect.win')).toHaveCount(2);
  await expect(page.locator('#detail .chart .win-label')).toHaveText(['≈500 ms before #2', '≈2.00 s before #3']);
  // sent back to back, the retries came before their windows, and the chart says so
  await expect(page.locator('#detail .chart .bar-label')).toHaveText([
    /^503 · /,
    /^503 · .* · early$/,
    /^200 · .* · early$/,
  ]);
  await expect(page.locator('#detail article.card').nth(0)).toContainText('fail-twice step 1');
  await expect(page.locator('#detail article.card').nth(2).locator('.chip.status')).toHaveText('200');
  await shot(page, testInfo, 'three attempts on the timeline');

  await page.locator('#f-delivery').fill('lc-32-onComplete');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-32-onComplete');
  await page.locator('#f-delivery').fill('');
  await page.locator('#f-verdict').selectOption('sig:invalid');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-33-config.saved');
  await page.locator('#f-verdict').selectOption('');
  await page.locator('#f-user').fill('user-2');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await page.locator('#f-user').fill('');
  await page.locator('#f-event').selectOption('onStart');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-32-onStart');
  await shot(page, testInfo, 'filtered by event');
  await page.close();
});

test('a facts GET appears with the facts that were answered', async ({}, testInfo) => {
  const h = await startHost();
  const page = await openPage(h);
  const target = '/facts?endUserHandle=user-9';
  const r = await send(h.url, {
    method: 'GET',
    path: target,
    headers: {
      accept: 'application/json',
      'x-service-event': 'user.facts.fetch',
      'x-service-workspace': 'ws-test',
      'x-service-end-user': 'user-9',
      'x-service-delivery-id': 'uf-ws-test-user-9',
      'x-service-signature': signHmac({
        secret: TEST_ONLY_SECRET,
        t: nowSeconds(),
        payload: factsSigningPayload(target),
      }),
    },
  });
  expect(r.status).toBe(200);
  await row(page, 'uf-ws-test-user-9').click(WAIT);
  const card = page.locator('#detail article.card');
  await expect(card.locator('.sec', { hasText: 'Facts answered' })).toContainText('"plan": "business"');
  await expect(card.locator('.verdict').first()).toContainText('valid (hmac)');
  await shot(page, testInfo, 'facts GET');
  await page.close();
});

test('with 100,000 entries the page holds only the rows in view, fetched a page at a time, and the oldest is reachable', async ({}, testInfo) => {
  test.setTimeout(120_000);
  const h = await startHost();
  await postSigned(h, lcBody('onStart', 1));
  const [seed] = await h.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  for (let i = 2; i <= 100_000; i++) {
    const seq = h.journal.allocateSeq();
    h.journal.add({ ...seed!, seq, id: `${seed!.id.split('-')[0]}-${seq}`, deliveryId: `lc-${i}-onStart` });
  }
  const page = await openPage(h);
  await expect(page.locator('#stat-requests')).toHaveText('100000', WAIT);
  await expect(row(page, 'lc-100000-onStart')).toBeVisible(WAIT);
  expect(await page.locator('.row').count()).toBeLessThan(60);
  await page.locator('#list').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(row(page, 'lc-1-onStart')).toBeVisible(WAIT);
  expect(await page.locator('.row').count()).toBeLessThan(60);
  await shot(page, testInfo, 'the end of a 100,000 entry journal');
  await page.close();
});
