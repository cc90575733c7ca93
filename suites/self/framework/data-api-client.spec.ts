/**
 * One data API client per run, built from the target (suites/service/clients/for-target.ts): no
 * suite builds a ServiceClient or a data API path of its own; the model-based test sends every
 * data API request in the forms the target declares (UNSPEC-8, UNSPEC-9), read back from the
 * requests themselves against the embedded reference serving only those forms; and when the
 * target declares a write body or a key member the service does not read, the failure names the
 * field to check (dataApi.writeBody, dataApi.keyField) and still fails on its own clause.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONFIG_END_FORMS,
  DEFAULT_DATA_API_FORMS,
  parseDataApiTail,
  readWriteBody,
  type DataApiForms,
} from '../../../spec/index.ts';
import type { ServiceResponse } from '../../service/clients/service-client.ts';
import { StepViolation, runStateful, type StatefulOutcome } from '../../service/stateful/index.ts';
import { withStatefulEnv } from './stateful-env.ts';
import { FORMS_STATEFUL_RUNS, entriesFor, formCombinations, planFormsProjects } from '../../forms/index.ts';

const SUITES = fileURLToPath(new URL('../../', import.meta.url));
/** The client and its one factory: the only files that may build a ServiceClient or a data API path. */
const CLIENT_FILES = [
  'service/clients/service-client.ts',
  'service/clients/form-hint.ts',
  'service/clients/for-target.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('every data API client of the suites is built from the target by serviceClientFor (UNSPEC-8, UNSPEC-9)', () => {
  // suites/self builds clients of its own on purpose (in forms other than a target's); suites/host
  // serves the data API rather than calling it.
  const files = sources(SUITES)
    .map((p) => relative(SUITES, p).replace(/\\/g, '/'))
    .filter((f) => !f.startsWith('self/') && !f.startsWith('host/') && !CLIENT_FILES.includes(f));
  expect(files.length).toBeGreaterThan(20);
  const built = files.filter((f) => /new ServiceClient\s*\(/.test(readFileSync(join(SUITES, f), 'utf8')));
  expect(built, 'build it with serviceClientFor(target, ...) of suites/service/clients/for-target.ts').toEqual([]);
  const writesPath = (f: string) => /\/endpoints\/|dataApiPath\(/.test(readFileSync(join(SUITES, f), 'utf8'));
  const paths = files.filter((f) => f.startsWith('service/') && writesPath(f));
  expect(paths, 'a data API path is written by the client only (ServiceClient.dataPath)').toEqual([]);
});

test('the forms run runs the model-based test in all 12 combinations, the same sequences in each (UNSPEC-9)', () => {
  const planned = formCombinations().filter((f) => entriesFor(f).some((e) => e.file === 'combinations.spec.ts'));
  expect(planned).toHaveLength(12);
  const projects = planFormsProjects({ statefulSeed: 7 });
  expect(projects).toHaveLength(13);
  const title = ' service/combinations.spec.ts random sequences of chat triggers (DATA-4) @DATA-4 @stateful';
  for (const p of projects) {
    expect(new RegExp(p.grep).test(title), p.name).toBe(true);
    const runs = String(FORMS_STATEFUL_RUNS);
    expect(p.metadata).toMatchObject({ ccsStatefulSeed: '7', ccsStatefulRuns: runs, ccsStatefulOneRound: '1' });
  }
});

/** The model-based test against the embedded reference serving `served`, the target declaring `declared`. */
async function statefulRun(
  served: DataApiForms,
  declared: DataApiForms,
  runs: number,
  maxCommands = 60,
): Promise<{ outcome: StatefulOutcome; sent: ServiceResponse[] }> {
  const sent: ServiceResponse[] = [];
  // Fixed sequences: six random ones missed a keyed write in 2 runs of 15 (the model-based
  // test meets one in a few hundred steps), and these tests assert on what the sequences send.
  const outcome = await withStatefulEnv({ served, declared }, (env) =>
    runStateful(env, { runs, maxCommands, budgetMs: 4_000, baseSeed: 1, onResponse: (r) => sent.push(r) }),
  );
  return { outcome, sent };
}

const dataRequests = (sent: ServiceResponse[]) => sent.filter((r) => new URL(r.url).pathname.includes('/endpoints/'));

const DECLARES = 'the model-based test sends every data API request in the declared forms (UNSPEC-8, UNSPEC-9)';
test(DECLARES, async () => {
  test.setTimeout(180_000);
  const forms: DataApiForms = { configEnd: 'encoded', keyedWrite: 'body', keyField: 'recordKey', writeBody: 'bare' };
  const { outcome, sent } = await statefulRun(forms, forms, 6);
  expect(outcome.failure?.violation.message, outcome.failure?.script).toBeUndefined();
  const data = dataRequests(sent);
  expect(data.length).toBeGreaterThan(20);
  const problems: string[] = [];
  let writes = 0;
  let keyed = 0;
  for (const r of data) {
    const tail = new URL(r.url).pathname.split('/endpoints/')[1] ?? '';
    const readings = parseDataApiTail(tail, forms.configEnd);
    // A path in the declared form reads in it, and in no other (the configEnds here hold no inner slash).
    const elsewhere = CONFIG_END_FORMS.filter((f) => f !== forms.configEnd && parseDataApiTail(tail, f).length > 0);
    if (readings.length === 0 || elsewhere.length > 0) problems.push(`${r.method} ${r.url}: not in ${forms.configEnd}`);
    if (r.method !== 'POST') continue;
    writes += 1;
    if (readings.some((p) => p.serviceKey !== undefined)) problems.push(`POST ${r.url}: a key in the path`);
    const sentBody = JSON.parse(r.requestText ?? 'null') as unknown;
    const body = readWriteBody(sentBody, forms);
    if (!body || 'data' in (sentBody as object)) problems.push(`POST ${r.url}: ${r.requestText} is no bare field map`);
    if (body?.serviceKey !== undefined) keyed += 1;
    // A 404 is a keyed write to a gone record (DATA-9), which the model expects; a 405 or 400 it never does.
    if (r.status === 405 || r.status === 400) problems.push(`POST ${r.url} answered ${r.status}: ${r.formHint ?? ''}`);
  }
  expect(problems).toEqual([]);
  expect(writes, 'host writes among the requests').toBeGreaterThan(0);
  expect(keyed, 'keyed writes (the key in "recordKey") among them').toBeGreaterThan(0);
});

const WRITE_BODY = 'a write body the service does not read fails its clause, hinting at dataApi.writeBody (UNSPEC-8)';
test(WRITE_BODY, async () => {
  test.setTimeout(180_000);
  const served: DataApiForms = { ...DEFAULT_DATA_API_FORMS, writeBody: 'bare' };
  const { outcome } = await statefulRun(served, { ...DEFAULT_DATA_API_FORMS }, 4);
  const v = outcome.failure?.violation;
  expect(v, 'the run fails').toBeInstanceOf(StepViolation);
  const step = v as StepViolation;
  // The clause the step's own condition decides (the read of what was written, or the write itself).
  expect(step.clause).toMatch(/^(DATA-\d+|STATE-\d+)$/);
  expect(step.hint, step.message).toContain('check `dataApi.writeBody` in the target');
});

const KEY_FIELD = 'a key member the service does not read fails a keyed write, hinting at dataApi.keyField (UNSPEC-9)';
test(KEY_FIELD, async () => {
  test.setTimeout(180_000);
  const served: DataApiForms = { ...DEFAULT_DATA_API_FORMS, keyedWrite: 'body', keyField: 'recordKey' };
  // A keyed write of a List record is a few steps in a hundred: sequences as long as the service test's.
  const { outcome } = await statefulRun(served, { ...served, keyField: 'serviceKey' }, 8, 160);
  const v = outcome.failure?.violation;
  expect(v, 'the run fails').toBeInstanceOf(StepViolation);
  const step = v as StepViolation;
  // The keyed write of a live, a held or a gone record, whichever the sequence reached first.
  expect(step.clause, step.message).toMatch(/^DATA-(4|9|11)$/);
  expect(step.hint, step.message).toContain('check `dataApi.keyField` in the target');
});
