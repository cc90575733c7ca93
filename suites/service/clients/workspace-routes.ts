/**
 * The mock-host routes of a test workspace: its hook path, facts path and tool paths, each with the signing the
 * route verifies (kept for the worker's life: a retry after its test ended is still judged as a callback).
 */
import type { MockHost, RouteConfig, SigningConfig } from '../../../mock-host/index.ts';
import type { FieldDef } from '../../../target/clients/driver-client.ts';
import type { ResolvedTarget } from '../../../target/service/resolve.ts';
import type { TestWorkspace, WorkspaceContext } from './workspace-types.ts';

/** The URL the service uses to reach the mock host. */
export function mockHostPublicUrl(target: ResolvedTarget, host: MockHost): string {
  return (target.mockHost.publicUrl ?? host.url).replace(/\{port\}/g, String(host.port)).replace(/\/$/, '');
}

export function routeSigning(
  s: TestWorkspace['signing'],
  jwksUrl: string | undefined,
  extraSecrets: string[] = [],
): SigningConfig {
  if (s.mode === 'hmac') return { mode: 'hmac', secrets: [s.secret!, ...extraSecrets] };
  if (s.mode === 'jwks') return jwksUrl ? { mode: 'jwks', jwksUrl } : { mode: 'none' };
  return { mode: 'none' };
}

export function addRoute(ctx: WorkspaceContext, r: RouteConfig): void {
  ctx.host.addRoute(r);
}

export function factsSchemaOf(fields: FieldDef[]): object {
  const props: Record<string, object> = {};
  for (const f of fields)
    props[f.name] = f.name === 'preferredLanguages' ? { type: 'array', items: { type: 'string' } } : { type: f.type };
  return { type: 'object', properties: props, additionalProperties: false };
}
