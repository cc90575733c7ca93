/**
 * A test workspace as the tests hold it (workspace.ts): its keys, and journal helpers scoped to its routes (a
 * parent's entries exclude its sandboxes'), each wait judged as its WaitOptions say.
 */
import { waitForEntries, assertNothingArrives, type EntryFilter, type JournalEntry } from '../../../mock-host/index.ts';
import { ccsError } from '../../../spec/index.ts';
import type { ClassDef, DriverWorkspace } from '../../../target/clients/driver-client.ts';
import { check, precondition } from '../../shared/index.ts';
import type { TestWorkspace, WaitOptions, WorkspaceContext } from './workspace-types.ts';

/** A test workspace from the driver's answer (or the target file's workspace), with its journal helpers. */
export function buildTestWorkspace(
  ctx: WorkspaceContext,
  sandboxChildren: string[],
  c: Pick<
    DriverWorkspace,
    'workspaceKey' | 'workspaceId' | 'apiKey' | 'bearerToken' | 'embedAuthorization' | 'signing'
  >,
  s: {
    signing: TestWorkspace['signing'];
    hookPath: string | null;
    hostBaseUrl: string | null;
    factsPath: string | null;
    classes: ClassDef[];
    tools: TestWorkspace['tools'];
    parent?: TestWorkspace;
  },
): TestWorkspace {
  const { host, timing, evidence } = ctx;
  const isSandbox = !!s.parent;
  const base = (): EntryFilter => {
    if (!ws.hookPath) return { workspaceKey: ws.workspaceKey };
    if (isSandbox) return { path: ws.hookPath, workspaceKey: ws.workspaceKey };
    return { path: ws.hookPath, predicate: (e) => !(e.workspaceKey && sandboxChildren.includes(e.workspaceKey)) };
  };
  const merge = (f: EntryFilter = {}): EntryFilter => {
    const b = base();
    const preds = [b.predicate, f.predicate].filter((p): p is (e: JournalEntry) => boolean => !!p);
    const out: EntryFilter = { ...b, ...f };
    if (preds.length) out.predicate = (e) => preds.every((p) => p(e));
    return out;
  };
  const ws: TestWorkspace = {
    workspaceKey: c.workspaceKey,
    workspaceId: c.workspaceId,
    apiKey: c.apiKey,
    bearerToken: c.bearerToken,
    embedAuthorization: c.embedAuthorization,
    hookPath: s.hookPath,
    hostBaseUrl: s.hostBaseUrl,
    factsPath: s.factsPath,
    signing: { ...s.signing, ...(c.signing.kid ? { kid: c.signing.kid } : {}) },
    classes: s.classes,
    tools: s.tools,
    ...(s.parent ? { parent: s.parent } : {}),
    callbacks: (f) => host.journal.entries(merge(f)),
    async waitForCallbacks(f, w = {}) {
      const count = w.count ?? 1;
      const deadlineMs = w.deadlineMs ?? timing.deliveryDeadlineMs();
      const v = await waitForEntries(host.journal, merge(f), { count, deadlineMs });
      evidence.add({ sentence: v.sentence, entries: v.entries });
      judgeWait(
        w,
        v.ok,
        `${count} callback(s) matching ${describeFilterOf(f)} arrive within ${deadlineMs} ms`,
        count,
        v,
      );
      return v.entries;
    },
    async expectNoCallbacks(f, w) {
      const windowMs = w.windowMs ?? timing.quietWindowMs();
      const v = await assertNothingArrives(host.journal, merge(f), { windowMs });
      evidence.add({ sentence: v.sentence, seqs: v.evidence.seqs });
      return check(
        w.clause,
        w.rule ?? `no callback matching ${describeFilterOf(f)} arrives within ${windowMs} ms`,
        w.id ? { id: w.id } : {},
      ).that(v.ok, { expected: 'none', seen: v.sentence });
    },
    factsRequests: () => (ws.factsPath ? host.journal.entries({ path: ws.factsPath }) : []),
    async waitForFactsRequests(w = {}) {
      if (!ws.factsPath) throw ccsError('TARGET_NO_FACTS');
      const count = w.count ?? 1;
      const deadlineMs = w.deadlineMs ?? timing.deliveryDeadlineMs();
      const v = await waitForEntries(host.journal, { path: ws.factsPath }, { count, deadlineMs });
      evidence.add({ sentence: v.sentence, entries: v.entries });
      judgeWait(w, v.ok, `${count} user-facts GET(s) arrive within ${deadlineMs} ms`, count, v);
      return v.entries;
    },
    toolRequests: (toolClass) => {
      const paths = ws.tools.filter((t) => toolClass === undefined || t.toolClass === toolClass).map((t) => t.path);
      return host.journal.entries({ predicate: (e) => paths.includes(e.path) });
    },
  };
  Object.defineProperty(ws, '__children', { value: sandboxChildren, enumerable: false });
  return ws;
}

/** A filter in words, for the rule of a wait (the journal's own wording). */
function describeFilterOf(f: EntryFilter): string {
  const parts = [
    f.event ? `event ${f.event}` : '',
    f.path ? `path ${f.path}` : '',
    f.workspaceKey ? `workspaceKey ${f.workspaceKey}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : "the test's filter";
}

function judgeWait(
  w: WaitOptions,
  ok: boolean,
  defaultRule: string,
  count: number,
  v: { sentence: string; entries: JournalEntry[] },
): void {
  if (w.lenient) return;
  const rule = w.rule ?? defaultRule;
  const words = { expected: `${count}`, seen: `${v.entries.length}: ${v.sentence}` };
  if (w.clause !== undefined) check(w.clause, rule, w.id ? { id: w.id } : {}).that(ok, words);
  else precondition(ok, rule, words);
}
