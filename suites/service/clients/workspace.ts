/**
 * Test workspaces: created fresh per test through the driver (tests run in parallel, so each has
 * its own workspace and its own hook path on the worker's mock host), with journal helpers scoped
 * to that workspace's routes.
 */
import { randomBytes } from 'node:crypto';
import {
  MockHost,
  waitForEntries,
  assertNothingArrives,
  type EntryFilter,
  type JournalEntry,
  type RouteConfig,
  type SigningConfig,
} from '../../../mock-host/index.ts';
import { ccsError } from '../../../spec/index.ts';
import { DriverClient, type ClassDef, type FieldDef, type DriverWorkspace } from './driver-client.ts';
import type { EvidenceLog } from './evidence.ts';
import { registerSecret } from '../../../spec/index.ts';
import type { Timing } from '../target-config/timing.ts';
import type { ResolvedTarget } from '../target-config/resolve.ts';
import { check, precondition, type ClauseRef } from '../../shared/index.ts';

export type { ClassDef, FieldDef };

/** The default classes (suites-api): a SETTING, a LIST with an identity field, and FACTS via WorkspaceOptions.facts. */
export const DEFAULT_CLASSES: ClassDef[] = [
  {
    configEnd: '/profile',
    kind: 'SETTING',
    fields: [
      { name: 'name', type: 'string', comment: 'Full name' },
      { name: 'email', type: 'string', comment: 'Contact email' },
      { name: 'age', type: 'integer', comment: 'Age in years' },
      { name: 'newsletter', type: 'boolean', comment: 'Wants the newsletter' },
    ],
  },
  {
    configEnd: '/addresses',
    kind: 'LIST',
    identityField: 'label',
    fields: [
      { name: 'label', type: 'string', required: true, comment: 'Unique label of the address' },
      { name: 'street', type: 'string', comment: 'Street and number' },
      { name: 'city', type: 'string', comment: 'City' },
    ],
  },
];
export const DEFAULT_FACTS_FIELDS: FieldDef[] = [
  { name: 'preferredLanguages', type: 'array', comment: 'Language names in English, most preferred first' },
  { name: 'company', type: 'string', comment: 'Employer of the user' },
];

export type SigningOption = { mode: 'none' } | { mode: 'hmac'; secret?: string } | { mode: 'jwks' };
export interface WorkspaceOptions {
  signing?: SigningOption;
  /** Default: the mock host's url (a sandbox: inherited from its parent, HOOK-3); null: none. */
  hostBaseUrl?: string | null;
  /** Default: a unique '/hooks/<random>' registered on the mock host; null: none. A sandbox inherits its parent's (HOOK-2). */
  hookPath?: string | null;
  classes?: ClassDef[];
  parent?: TestWorkspace;
  facts?: { callback?: string; schemaFields?: FieldDef[] } | false;
  tools?: Array<{ toolClass: string; path: string }>;
}

/**
 * How a wait judges its deadline: with `clause`, the arrival is a check of that clause (a missing
 * callback fails it); with `lenient`, whatever arrived is returned for the test's own checks;
 * otherwise the arrival is a precondition of the test (a miss leaves its clauses blocked).
 */
export interface WaitOptions {
  count?: number;
  deadlineMs?: number;
  clause?: ClauseRef;
  lenient?: boolean;
  /** With `clause`: the check's id in the fault model (spec/faults/service.yaml). */
  id?: string;
  /** The rule the arrival is, in the contract's words (default: "N callback(s) matching ... arrive within ... ms"). */
  rule?: string;
}

export interface TestWorkspace {
  workspaceKey: string;
  workspaceId: string;
  apiKey: string;
  bearerToken: string;
  embedAuthorization: string;
  hookPath: string | null;
  hostBaseUrl: string | null;
  factsPath: string | null;
  signing: { mode: 'none' | 'hmac' | 'jwks'; secret?: string; kid?: string };
  classes: ClassDef[];
  tools: Array<{ toolClass: string; path: string }>;
  parent?: TestWorkspace;
  /** Lifecycle entries of this workspace's hookPath (a sandbox: those naming its workspaceKey). */
  callbacks(filter?: EntryFilter): JournalEntry[];
  waitForCallbacks(filter: EntryFilter, o?: WaitOptions): Promise<JournalEntry[]>;
  /** A check of `clause`: nothing matching arrives within the window (default: the quiet window). */
  expectNoCallbacks(
    filter: EntryFilter,
    o: { clause: ClauseRef; windowMs?: number; rule?: string; id?: string },
  ): Promise<boolean>;
  factsRequests(): JournalEntry[];
  waitForFactsRequests(o?: WaitOptions): Promise<JournalEntry[]>;
  /** Entries of one of this workspace's tool routes. */
  toolRequests(toolClass?: string): JournalEntry[];
}

export interface WorkspaceContext {
  target: ResolvedTarget;
  host: MockHost;
  driver: DriverClient;
  timing: Timing;
  evidence: EvidenceLog;
  /** Routes added for this test, removed at its end. */
  addedRoutes: string[];
}

const rand = () => randomBytes(6).toString('hex');

/** The URL the service uses to reach the mock host. */
export function mockHostPublicUrl(target: ResolvedTarget, host: MockHost): string {
  return (target.mockHost.publicUrl ?? host.url).replace(/\{port\}/g, String(host.port)).replace(/\/$/, '');
}

function routeSigning(
  s: TestWorkspace['signing'],
  jwksUrl: string | undefined,
  extraSecrets: string[] = [],
): SigningConfig {
  if (s.mode === 'hmac') return { mode: 'hmac', secrets: [s.secret!, ...extraSecrets] };
  if (s.mode === 'jwks') return jwksUrl ? { mode: 'jwks', jwksUrl } : { mode: 'none' };
  return { mode: 'none' };
}

function addRoute(ctx: WorkspaceContext, r: RouteConfig): void {
  ctx.host.addRoute(r);
  ctx.addedRoutes.push(r.path);
}

function factsSchemaOf(fields: FieldDef[]): object {
  const props: Record<string, object> = {};
  for (const f of fields)
    props[f.name] = f.name === 'preferredLanguages' ? { type: 'array', items: { type: 'string' } } : { type: f.type };
  return { type: 'object', properties: props, additionalProperties: false };
}

export async function createTestWorkspace(ctx: WorkspaceContext, o: WorkspaceOptions = {}): Promise<TestWorkspace> {
  const { target, host, driver, timing, evidence } = ctx;
  const hostUrl = mockHostPublicUrl(target, host);
  const sandboxChildren: string[] = [];

  // A target without a driver: the workspace of the target file (only the default shape).
  if (!target.driverUrl) {
    const fw = o.parent ? target.workspaces?.sandbox : target.workspaces?.production;
    if (!fw) throw ccsError('TARGET_NO_DRIVER', { problem: 'and no such workspace in its file' });
    const signing: TestWorkspace['signing'] = fw.hmacSecret
      ? { mode: 'hmac', secret: fw.hmacSecret }
      : { mode: 'none' };
    const hookPath = fw.hookPath ?? null;
    if (hookPath) addRoute(ctx, { kind: 'lifecycle', path: hookPath, signing: routeSigning(signing, target.jwksUrl) });
    return build(
      {
        workspaceKey: fw.workspaceKey,
        workspaceId: fw.workspaceId ?? '',
        apiKey: fw.apiKey,
        bearerToken: fw.bearerToken,
        embedAuthorization: fw.embedAuthorization,
        signing: { mode: signing.mode },
      },
      { signing, hookPath, hostBaseUrl: hostUrl, factsPath: null, classes: DEFAULT_CLASSES, tools: [] },
    );
  }

  driver.requireCapability('workspaces');
  if (o.parent) driver.requireCapability('sandbox');
  const signingOpt: SigningOption = o.signing ?? { mode: 'none' };
  if (signingOpt.mode === 'hmac') driver.requireCapability('signing-hmac');
  if (signingOpt.mode === 'jwks') driver.requireCapability('signing-jwks');
  const signing: TestWorkspace['signing'] =
    signingOpt.mode === 'hmac'
      ? { mode: 'hmac', secret: signingOpt.secret ?? `test-only-hmac-${randomBytes(16).toString('hex')}` }
      : { mode: signingOpt.mode };
  registerSecret(signing.secret);

  const parent = o.parent;
  // HOOK-2: a sandbox's hookPath is its parent's. HOOK-3: without its own hostBaseUrl it inherits.
  const hookPath = parent ? parent.hookPath : o.hookPath === undefined ? `/hooks/${rand()}` : o.hookPath;
  const hostBaseUrl = o.hostBaseUrl === undefined ? (parent ? null : hostUrl) : o.hostBaseUrl;
  const factsOpt = parent ? false : o.facts === undefined ? {} : o.facts;
  const factsPath = factsOpt === false ? (parent ? parent.factsPath : null) : (factsOpt.callback ?? `/facts/${rand()}`);
  const factsFields = factsOpt === false ? [] : (factsOpt.schemaFields ?? DEFAULT_FACTS_FIELDS);
  const classes = parent
    ? parent.classes
    : [
        ...(o.classes ?? DEFAULT_CLASSES),
        ...(factsOpt === false
          ? []
          : [{ configEnd: '/facts', kind: 'FACTS' as const, fields: factsFields, callback: factsPath! }]),
      ];
  const tools = parent ? parent.tools : (o.tools ?? []);

  const body: Record<string, unknown> = {
    signing: signing.mode === 'hmac' ? { mode: 'hmac', secret: signing.secret } : { mode: signing.mode },
  };
  if (parent) body.parentWorkspaceKey = parent.workspaceKey;
  else {
    body.classes = classes;
    body.hookPath = hookPath;
    if (tools.length) body.tools = tools;
  }
  if (hostBaseUrl !== null) body.hostBaseUrl = hostBaseUrl;
  else if (!parent) body.hostBaseUrl = null;
  const created = await driver.createWorkspace(body);
  for (const s of [created.apiKey, created.bearerToken, created.embedAuthorization.replace(/^\w+\s+/, '')])
    registerSecret(s);

  if (parent) {
    // The sandbox delivers to the parent's hookPath (HOOK-2) with its own secret (SIGN-13): the
    // route accepts both, and entry.signature.secretIndex tells which one matched (0 = parent's).
    (parent as unknown as { __children: string[] }).__children?.push(created.workspaceKey);
    if (parent.hookPath && signing.mode === 'hmac' && parent.signing.mode === 'hmac') {
      ctx.host.addRoute({
        kind: 'lifecycle',
        path: parent.hookPath,
        signing: routeSigning(parent.signing, target.jwksUrl, [signing.secret!]),
      });
    }
  } else {
    if (hookPath) addRoute(ctx, { kind: 'lifecycle', path: hookPath, signing: routeSigning(signing, target.jwksUrl) });
    if (factsPath)
      addRoute(ctx, {
        kind: 'facts',
        path: factsPath,
        signing: routeSigning(signing, target.jwksUrl),
        factsSchema: factsSchemaOf(factsFields),
      });
    for (const t of tools)
      addRoute(ctx, { kind: 'tool', path: t.path, signing: routeSigning(signing, target.jwksUrl) });
  }
  const effectiveHostBaseUrl = hostBaseUrl ?? (parent ? parent.hostBaseUrl : null);
  const ws = build(created, {
    signing,
    hookPath,
    hostBaseUrl: effectiveHostBaseUrl,
    factsPath,
    classes,
    tools,
    ...(parent ? { parent } : {}),
  });
  return ws;

  function build(
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

/** PATCH through the driver and update the test workspace (and its mock-host route) in place. */
export async function patchTestWorkspace(
  ctx: WorkspaceContext,
  ws: TestWorkspace,
  patch: {
    hostBaseUrl?: string | null;
    hookPath?: string | null;
    signing?: { mode: 'none' } | { mode: 'hmac'; secret: string; previousSecret?: string } | { mode: 'jwks' };
  },
): Promise<TestWorkspace> {
  if (patch.signing?.mode === 'hmac') {
    registerSecret(patch.signing.secret);
    registerSecret(patch.signing.previousSecret);
  }
  const updated = await ctx.driver.updateWorkspace(ws.workspaceKey, patch);
  if (patch.hostBaseUrl !== undefined) ws.hostBaseUrl = patch.hostBaseUrl;
  if (patch.hookPath !== undefined) ws.hookPath = patch.hookPath;
  if (patch.signing) {
    ws.signing =
      patch.signing.mode === 'hmac' ? { mode: 'hmac', secret: patch.signing.secret } : { mode: patch.signing.mode };
    if (updated.signing?.kid) ws.signing.kid = updated.signing.kid;
  }
  if (ws.hookPath) {
    // HMAC rotation (SIGN-14): the route accepts the current secret (index 0) and the previous one (index 1).
    const extra = patch.signing?.mode === 'hmac' && patch.signing.previousSecret ? [patch.signing.previousSecret] : [];
    addRoute(ctx, {
      kind: 'lifecycle',
      path: ws.hookPath,
      signing: routeSigning(ws.signing, ctx.target.jwksUrl, extra),
    });
  }
  return ws;
}
