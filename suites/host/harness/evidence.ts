/**
 * The ccs-evidence attachment of a host test (CONTRIBUTING "Evidence"): the sentence that decided
 * it and the requests sent, with a curl line each. Signatures are not secrets; the secrets and
 * the Bearer token never appear here.
 */
import type { TestInfo } from '@playwright/test';
import { curlOf, type SendOutcome } from './send.ts';

export async function attachEvidence(
  testInfo: TestInfo, sentence: string, outcomes: readonly SendOutcome[], entries?: readonly unknown[],
  /** The fast-check seed of generated requests: the report's rerun line replays it (--seed). */
  seed?: number,
): Promise<void> {
  const evidence = {
    sentence,
    // No answer (timeout, refused connection) leaves status out and names the failure instead.
    requests: outcomes.map((o) => ({
      method: o.method, url: o.url, ...(o.status !== undefined ? { status: o.status } : { failure: o.failure ?? 'no answer' }),
      elapsedMs: Math.round(o.elapsedMs), curl: curlOf(o),
    })),
    ...(entries === undefined ? {} : { entries }),
    ...(seed === undefined ? {} : { seed }),
  };
  await testInfo.attach('ccs-evidence', { body: JSON.stringify(evidence), contentType: 'application/json' });
}
