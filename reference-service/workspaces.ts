/**
 * Workspace setup, shared by the driver (POST/PATCH /__driver/workspaces) and the fixture loader.
 * Stands in for the dashboard and a source push: classes, hostBaseUrl, hookPath, signing mode.
 */
import { randomBytes } from 'node:crypto';
import type { ServiceContext } from './context.ts';
import type { FaultSet } from './faults.ts';
import {
  isSandboxKey,
  type ClassDef,
  type SigningConfig,
  type ToolDef,
  type Workspace,
  type WorkspaceFixture,
} from './model.ts';
import { keyFor } from './signing.ts';

/** A driver error: answered as `status` with `body` (400 bad-request, 404 not-found, 422 push-rejected). */
export class DriverError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.reason ?? body.error));
  }
}

export function badRequest(field: string, message: string): DriverError {
  return new DriverError(400, { error: 'bad-request', field, message });
}

export function notFound(message: string): DriverError {
  return new DriverError(404, { error: 'not-found', message });
}

const FIELD_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseClasses(raw: unknown, faults?: FaultSet): ClassDef[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('classes', 'classes must be an array');
  const seen = new Set<string>();
  return raw.map((c, i) => {
    const at = `classes[${i}]`;
    if (!isObj(c)) throw badRequest(at, 'a class must be an object');
    // Segments of a configEnd are written in the data API path in the form served (routes/data.ts).
    if (typeof c.configEnd !== 'string' || !/^(\/[^/?#\s]+)+$/.test(c.configEnd))
      throw badRequest(
        `${at}.configEnd`,
        'configEnd must be one or more path segments, each after a slash, e.g. "/profile" or "/billing/invoice"',
      );
    if (seen.has(c.configEnd)) throw badRequest(`${at}.configEnd`, `configEnd ${c.configEnd} is declared twice`);
    seen.add(c.configEnd);
    if (c.kind !== 'SETTING' && c.kind !== 'LIST' && c.kind !== 'FACTS')
      throw badRequest(`${at}.kind`, 'kind must be SETTING, LIST or FACTS');
    if (!Array.isArray(c.fields)) throw badRequest(`${at}.fields`, 'fields must be an array');
    const fields = c.fields.map((fd, j) => {
      if (!isObj(fd) || typeof fd.name !== 'string' || fd.name.length === 0)
        throw badRequest(`${at}.fields[${j}].name`, 'a field needs a non-empty name');
      if (typeof fd.type !== 'string' || !FIELD_TYPES.has(fd.type))
        throw badRequest(`${at}.fields[${j}].type`, 'type must be string, number, integer, boolean, array or object');
      return {
        name: fd.name,
        type: fd.type as ClassDef['fields'][number]['type'],
        required: fd.required === true,
        ...(typeof fd.comment === 'string' ? { comment: fd.comment } : {}),
      };
    });
    const cls: ClassDef = { configEnd: c.configEnd, kind: c.kind, fields };
    if (c.identityField !== undefined) {
      if (c.kind !== 'LIST' || typeof c.identityField !== 'string' || !fields.some((fd) => fd.name === c.identityField))
        throw badRequest(`${at}.identityField`, 'identityField must name a field of a LIST class');
      cls.identityField = c.identityField;
    }
    if (c.kind === 'FACTS') {
      // FACTS-12 / 4.1 rule 1: the callback is required and relative; otherwise rejected at push.
      if (
        (typeof c.callback !== 'string' || !c.callback.startsWith('/')) &&
        !faults?.has('facts-without-callback-accepted')
      ) {
        throw new DriverError(422, {
          error: 'push-rejected',
          reason: `FACTS class ${c.configEnd} has no relative callback path (FACTS-12)`,
        });
      }
      if (typeof c.callback === 'string') cls.callback = c.callback;
    }
    return cls;
  });
}

function parseTools(raw: unknown): ToolDef[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('tools', 'tools must be an array');
  return raw.map((t, i) => {
    if (!isObj(t) || typeof t.toolClass !== 'string' || typeof t.path !== 'string' || !t.path.startsWith('/'))
      throw badRequest(`tools[${i}]`, 'a tool needs toolClass and a relative path starting with /');
    return { toolClass: t.toolClass, path: t.path };
  });
}

export function parseSigning(raw: unknown, previous?: SigningConfig): SigningConfig {
  if (raw === undefined) return { mode: 'none' };
  if (!isObj(raw)) throw badRequest('signing', 'signing must be an object with mode none, hmac or jwks');
  if (raw.mode === 'none') return { mode: 'none' };
  if (raw.mode === 'jwks') return { mode: 'jwks' };
  if (raw.mode === 'hmac') {
    if (typeof raw.secret !== 'string' || raw.secret.length === 0)
      throw badRequest('signing.secret', 'hmac mode needs a non-empty secret');
    if (raw.previousSecret !== undefined && (typeof raw.previousSecret !== 'string' || raw.previousSecret.length === 0))
      throw badRequest('signing.previousSecret', 'previousSecret must be a non-empty string');
    const prev =
      typeof raw.previousSecret === 'string'
        ? raw.previousSecret
        : previous?.mode === 'hmac' && previous.secret !== raw.secret
          ? previous.secret
          : undefined;
    return prev ? { mode: 'hmac', secret: raw.secret, previousSecret: prev } : { mode: 'hmac', secret: raw.secret };
  }
  throw badRequest('signing.mode', 'mode must be none, hmac or jwks');
}

function urlOrNull(field: string, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw badRequest(field, `${field} must be a string or null`);
  const scheme = URL.canParse(v) ? new URL(v).protocol : undefined;
  if (scheme !== 'http:' && scheme !== 'https:') throw badRequest(field, `${field} must be an absolute http(s) URL`);
  return v;
}

function pathOrNull(field: string, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !v.startsWith('/'))
    throw badRequest(field, `${field} must be a relative path starting with / or null`);
  return v;
}

const rand = (n: number): string => randomBytes(n).toString('hex');

export function createWorkspace(ctx: ServiceContext, spec: WorkspaceFixture | Record<string, unknown>): Workspace {
  const s = spec as Record<string, unknown>;
  if (!isObj(s)) throw badRequest('body', 'body must be a JSON object');
  let parent: Workspace | undefined;
  if (s.parentWorkspaceKey !== undefined) {
    if (typeof s.parentWorkspaceKey !== 'string')
      throw badRequest('parentWorkspaceKey', 'parentWorkspaceKey must be a string');
    parent = ctx.workspaces.get(s.parentWorkspaceKey);
    if (!parent) throw notFound(`no workspace ${s.parentWorkspaceKey}`);
    if (parent.parent) throw badRequest('parentWorkspaceKey', 'the parent must be a production workspace');
  }
  const key = s.workspaceKey === undefined ? (parent ? `sb-${rand(6)}` : `ws-${rand(6)}`) : s.workspaceKey;
  if (typeof key !== 'string' || !/^[A-Za-z0-9._~-]{1,128}$/.test(key))
    throw badRequest('workspaceKey', 'workspaceKey must be 1-128 URL-safe characters');
  if (parent && !isSandboxKey(key)) throw badRequest('workspaceKey', 'a sandbox workspaceKey starts with sb- (2.1)');
  if (!parent && isSandboxKey(key))
    throw badRequest('workspaceKey', 'a key starting with sb- is a sandbox: give parentWorkspaceKey');
  if (ctx.workspaces.has(key)) throw badRequest('workspaceKey', `workspace ${key} already exists`);
  for (const field of ['apiKey', 'bearerToken', 'workspaceId'] as const) {
    if (s[field] !== undefined && (typeof s[field] !== 'string' || (s[field] as string).length < 8))
      throw badRequest(field, `${field} must be a string of at least 8 characters`);
  }
  const ws: Workspace = {
    workspaceKey: key,
    workspaceId: (s.workspaceId as string | undefined) ?? `w${rand(6)}`,
    ...(parent ? { parent } : {}),
    apiKey: (s.apiKey as string | undefined) ?? `ak_test_${rand(16)}`,
    bearerToken: (s.bearerToken as string | undefined) ?? `bt_test_${rand(16)}`,
    hostBaseUrl: urlOrNull('hostBaseUrl', s.hostBaseUrl),
    hookPath: pathOrNull('hookPath', s.hookPath),
    // A sandbox inherits its parent's classes and tools (model.ts classesOf/toolsOf).
    classes: new Map(parent ? [] : parseClasses(s.classes, ctx.faults).map((c) => [c.configEnd, c])),
    tools: parent ? [] : parseTools(s.tools),
    signing: parseSigning(s.signing),
  };
  for (const w of ctx.workspaces.values()) {
    if (w.apiKey === ws.apiKey || w.bearerToken === ws.bearerToken)
      throw badRequest('apiKey', 'credentials must be unique per workspace');
  }
  ctx.workspaces.set(key, ws);
  return ws;
}

export function patchWorkspace(ws: Workspace, body: unknown): Workspace {
  if (!isObj(body)) throw badRequest('body', 'body must be a JSON object');
  if ('hostBaseUrl' in body) ws.hostBaseUrl = urlOrNull('hostBaseUrl', body.hostBaseUrl);
  if ('hookPath' in body) ws.hookPath = pathOrNull('hookPath', body.hookPath);
  if ('signing' in body) ws.signing = parseSigning(body.signing, ws.signing);
  return ws;
}

/** The driver's view of a workspace. Test credentials only; the HMAC secret is never echoed. */
export function workspaceView(ctx: ServiceContext, ws: Workspace): Record<string, unknown> {
  const signing: Record<string, unknown> = { mode: ws.signing.mode };
  if (ws.signing.mode === 'jwks') signing.kid = keyFor(ctx.ring, ws, ctx.faults).kid;
  return {
    workspaceKey: ws.workspaceKey,
    workspaceId: ws.workspaceId,
    apiKey: ws.apiKey,
    bearerToken: ws.bearerToken,
    embedAuthorization: `Bearer ${ws.apiKey}`,
    signing,
  };
}
