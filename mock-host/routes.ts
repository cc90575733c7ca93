/** Checks a route config (from code, the admin API or the CLI) and says which field is wrong. */
import { ccsError } from '../spec/index.ts';
import type { RouteConfig } from './types.ts';

function bad(field: string, rule: string): never {
  throw ccsError('MOCKHOST_ROUTE_INVALID', { field, rule });
}

export function validateRoute(r: unknown, field = 'route'): RouteConfig {
  if (typeof r !== 'object' || r === null || Array.isArray(r))
    bad(field, 'must be an object { kind, path, signing?, enforce?, factsSchema?, defaultFacts? }');
  const o = r as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!['kind', 'path', 'signing', 'enforce', 'factsSchema', 'defaultFacts'].includes(k))
      bad(`${field}.${k}`, 'is not a known field');
  }
  if (o.kind !== 'lifecycle' && o.kind !== 'tool' && o.kind !== 'facts')
    bad(`${field}.kind`, `must be lifecycle, tool or facts, got ${JSON.stringify(o.kind)}`);
  if (typeof o.path !== 'string' || !o.path.startsWith('/') || o.path.includes('?'))
    bad(`${field}.path`, `must be a path starting with / and without a query, got ${JSON.stringify(o.path)}`);
  if (o.path.startsWith('/__admin')) bad(`${field}.path`, 'must not be under /__admin/ (the admin API)');
  if (o.enforce !== undefined && typeof o.enforce !== 'boolean') bad(`${field}.enforce`, 'must be a boolean');
  for (const k of ['factsSchema', 'defaultFacts'] as const) {
    if (o[k] !== undefined && (typeof o[k] !== 'object' || o[k] === null || Array.isArray(o[k])))
      bad(`${field}.${k}`, 'must be an object');
  }
  const s = o.signing as Record<string, unknown> | undefined;
  if (s !== undefined) {
    if (typeof s !== 'object' || s === null) bad(`${field}.signing`, 'must be an object with a mode');
    if (s.mode === 'hmac') {
      // secrets are never echoed in the message
      if (
        !Array.isArray(s.secrets) ||
        s.secrets.length === 0 ||
        s.secrets.some((x) => typeof x !== 'string' || x === '')
      ) {
        bad(`${field}.signing.secrets`, 'must be a non-empty list of non-empty strings');
      }
    } else if (s.mode === 'jwks') {
      if (s.jwksUrl === undefined && s.jwks === undefined)
        bad(`${field}.signing`, 'in jwks mode needs jwksUrl or jwks');
      if (s.jwksUrl !== undefined && (typeof s.jwksUrl !== 'string' || !/^https?:\/\//.test(s.jwksUrl)))
        bad(`${field}.signing.jwksUrl`, 'must be an absolute http(s) URL');
      if (
        s.jwks !== undefined &&
        (typeof s.jwks !== 'object' || s.jwks === null || !Array.isArray((s.jwks as { keys?: unknown }).keys))
      )
        bad(`${field}.signing.jwks`, 'must be a JWKS document { keys: [...] }');
    } else if (s.mode !== 'none')
      bad(`${field}.signing.mode`, `must be none, hmac or jwks, got ${JSON.stringify(s.mode)}`);
  }
  return o as unknown as RouteConfig;
}
