import { test, expect } from '@playwright/test';
import { staleDocs, generateDocs } from '../../../reports/index.ts';

test('the generated configuration reference and clause list in docs/ are up to date (run npm run docs)', async () => {
  expect(await staleDocs()).toEqual([]);
});

test('the configuration reference lists every target field and the clause list every clause', async () => {
  const docs = await generateDocs();
  expect(docs['configuration.md']).toContain('| `service.baseUrl` | absolute http(s) URL | yes |');
  expect(docs['configuration.md']).toMatch(/`workspaces\.production\.apiKey` \| secret/);
  expect(docs['clauses.md']).toMatch(/^\| EVT-1 \| MUST \| service \|/m);
});

test('the configuration reference covers the host target file too, its meanings taken from its schema', async () => {
  const docs = await generateDocs();
  expect(docs['configuration.md']).toContain('## Host target file');
  expect(docs['configuration.md']).toMatch(/^\| `signing\.mode` \| one of `"hmac"`, `"jwks"`, `"none"` \| yes \|/m);
  expect(docs['configuration.md']).toMatch(
    /^\| `dataApi\.bearerToken` \| secret: .*\| The Bearer token the receiver sends/m,
  );
});
