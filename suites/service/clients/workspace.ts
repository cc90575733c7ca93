/**
 * Test workspaces: created fresh per test through the driver (tests run in parallel, so each has
 * its own workspace and its own hook path on the worker's mock host), with journal helpers scoped
 * to that workspace's routes.
 */
import { randomBytes } from 'node:crypto';
import { ccsError, registerSecret } from '../../../spec/index.ts';
import { DEFAULT_CLASSES, DEFAULT_FACTS_FIELDS } from './workspace-types.ts';
import type { SigningOption, TestWorkspace, WorkspaceContext, WorkspaceOptions } from './workspace-types.ts';
import { addRoute, factsSchemaOf, mockHostPublicUrl, routeSigning } from './workspace-routes.ts';
import { buildTestWorkspace } from './workspace-journal.ts';

export type { ClassDef, FieldDef } from '../../../target/clients/driver-client.ts';
export * from './workspace-types.ts';
export { mockHostPublicUrl } from './workspace-routes.ts';

const rand = () => randomBytes(6).toString('hex');

export async function createTestWorkspace(ctx: WorkspaceContext, o: WorkspaceOptions = {}): Promise<TestWorkspace> {
  const { target, host, driver } = ctx;
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
    return buildTestWorkspace(
      ctx,
      sandboxChildren,
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
  const ws = buildTestWorkspace(ctx, sandboxChildren, created, {
    signing,
    hookPath,
    hostBaseUrl: effectiveHostBaseUrl,
    factsPath,
    classes,
    tools,
    ...(parent ? { parent } : {}),
  });
  return ws;
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
