/**
 * The ccs-evidence attachment of a host test (the one Evidence type of spec/evidence.ts): the
 * sentence that decided it and the requests sent, with a curl line each. Signatures are not
 * secrets; everything passes the one redactor (spec/redact.ts) before it is attached.
 */
import type { TestInfo } from '@playwright/test';
import { EVIDENCE_ATTACHMENT, processRedactor, type Evidence } from '../../../spec/index.ts';
import { curlOf } from './send.ts';
import type { SendOutcome } from '../../../judge/host/index.ts';

export async function attachEvidence(
  testInfo: TestInfo,
  sentence: string,
  outcomes: readonly SendOutcome[],
  entries?: readonly unknown[],
  /** The fast-check seed of generated requests: the report's rerun line replays it (--seed). */
  seed?: number,
): Promise<void> {
  const evidence: Evidence = {
    sentence,
    // No answer (timeout, refused connection) leaves status out and names the failure instead.
    requests: outcomes.map((o) => ({
      method: o.method,
      url: o.url,
      ...(o.status !== undefined ? { status: o.status } : { failure: o.failure ?? 'no answer' }),
      elapsedMs: Math.round(o.elapsedMs),
      curl: curlOf(o),
    })),
    ...(entries === undefined ? {} : { entries: [...entries] }),
    ...(seed === undefined ? {} : { seed }),
  };
  await testInfo.attach(EVIDENCE_ATTACHMENT, {
    body: JSON.stringify(processRedactor.value(evidence)),
    contentType: 'application/json',
  });
}
