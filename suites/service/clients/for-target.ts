/**
 * The one place a data API client is built: from the resolved target, so that every request of a
 * run leaves in the forms the target declares (`dataApi`; UNSPEC-8, UNSPEC-9). The fixtures' `svc`
 * and each sequence of the model-based test use it; suites/self/framework/client-factory.spec.ts
 * fails when a suite builds a ServiceClient anywhere else.
 *
 * In a project of the data API forms run (metadata ccsFormsRun) the client also tells the test
 * which declared forms its requests depended on, as an annotation: the forms run checks that its
 * plan varies each of them for the test's file (suites/forms/plan.ts).
 */
import type { TestInfo } from '@playwright/test';
import { ServiceClient, type DataFormField, type ServiceResponse } from './service-client.ts';
import type { DataApiForms } from '../../../spec/index.ts';
import { projectMeta } from '../../shared/project-meta.ts';

/** Annotation of a test in a data API forms project: the target fields its data API requests depended on. */
export const DATA_FORMS_ANNOTATION = 'ccs-data-forms';

/** What of the target a data API client needs (ResolvedTarget has it). */
export interface DataApiTarget {
  baseUrl: string;
  apiKeyHeader: string;
  dataApi: DataApiForms;
}

export interface ClientOptions {
  onResponse?: (r: ServiceResponse) => void;
  /** The test the requests belong to: in a forms project the forms they depended on are annotated on it. */
  testInfo?: TestInfo;
  timeoutMs?: number;
}

/** The fields already annotated on each test (a test may build several clients, one per sequence). */
const annotated = new WeakMap<TestInfo, Set<DataFormField>>();

function formsRecorder(info: TestInfo | undefined): ((used: readonly DataFormField[]) => void) | undefined {
  if (!info || projectMeta(info.project.metadata).ccsFormsRun === undefined) return undefined;
  return (used) => {
    const seen = annotated.get(info) ?? new Set<DataFormField>();
    annotated.set(info, seen);
    const fresh = used.filter((f) => !seen.has(f));
    for (const f of fresh) seen.add(f);
    if (fresh.length > 0) info.annotations.push({ type: DATA_FORMS_ANNOTATION, description: fresh.join(',') });
  };
}

/** A data API client speaking the target's declared forms (and its API key header). */
export function serviceClientFor(target: DataApiTarget, o: ClientOptions = {}): ServiceClient {
  const onDataForms = formsRecorder(o.testInfo);
  return new ServiceClient({
    baseUrl: target.baseUrl,
    apiKeyHeader: target.apiKeyHeader,
    dataApi: target.dataApi,
    ...(o.onResponse ? { onResponse: o.onResponse } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(onDataForms ? { onDataForms } : {}),
  });
}
