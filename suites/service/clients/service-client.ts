/**
 * Client of the contract's service routes (section 4.2). Every call returns a ServiceResponse,
 * checks it against spec/openapi.yaml (specCheck) and records it as evidence with a curl line,
 * credentials redacted.
 */
import { sendRaw, type StreamBody } from './http.ts';
import { curlLine } from './curl.ts';
import { buildMultipart, type MultipartPart } from './multipart.ts';
import { checkResponse, type ValidationResult } from './spec-check.ts';
import { registerSecret, redactText } from '../../../spec/index.ts';

export interface ServiceResponse {
  status: number; headers: Record<string, string>; text: string; json: unknown; curl: string;
  specCheck: ValidationResult;
  method: string; url: string; operationId?: string; elapsedMs: number;
}
/** The credentials of a workspace the client needs. */
export interface Credentials { workspaceKey: string; apiKey: string; bearerToken: string; embedAuthorization: string }
export interface ServiceClientOptions {
  baseUrl: string;
  /** Header carrying the API key on upload routes (UNSPEC-19): 'authorization' sends "Bearer <key>". */
  apiKeyHeader?: string;
  onResponse?: (r: ServiceResponse) => void;
  timeoutMs?: number;
}

type Body = string | Uint8Array | StreamBody | undefined;

/** configEnd in the data API path: written without its leading slash (UNSPEC-9 is not shown; see dataPath). */
export function configEndSegment(configEnd: string): string {
  return configEnd.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}

export class ServiceClient {
  readonly baseUrl: string;
  readonly apiKeyHeader: string;
  constructor(readonly o: ServiceClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/$/, '');
    this.apiKeyHeader = (o.apiKeyHeader ?? 'authorization').toLowerCase();
  }

  #apiKeyHeaders(key: string | null | undefined): Record<string, string> {
    if (key === null || key === undefined) return {};
    registerSecret(key);
    return this.apiKeyHeader === 'authorization' ? { authorization: `Bearer ${key}` } : { [this.apiKeyHeader]: key };
  }

  async #send(method: string, path: string, headers: Record<string, string>, body: Body, describe?: string): Promise<ServiceResponse> {
    const url = this.baseUrl + path;
    const raw = await sendRaw({ method, url, headers, ...(body === undefined ? {} : { body }), ...(this.o.timeoutMs ? { timeoutMs: this.o.timeoutMs } : {}) });
    const curlBody = body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : { length: body.length, description: describe ?? 'generated' };
    const curl = curlLine({ method, url, headers, ...(curlBody === undefined ? {} : { body: curlBody }), secretHeaders: [this.apiKeyHeader] });
    const specCheck = await checkResponse({ method, url, status: raw.status, headers: raw.headers, json: raw.json, text: raw.text });
    const r: ServiceResponse = { status: raw.status, headers: raw.headers, text: raw.text, json: raw.json, curl, specCheck, method, url, elapsedMs: raw.elapsedMs };
    if (specCheck.operationId) r.operationId = specCheck.operationId;
    this.o.onResponse?.(r);
    return r;
  }

  #json(body: unknown, rawBody?: string): string {
    return rawBody ?? JSON.stringify(body);
  }

  embedTokens(ws: Credentials, body: unknown, o: { authorization?: string | null; rawBody?: string } = {}): Promise<ServiceResponse> {
    const auth = o.authorization === undefined ? ws.embedAuthorization : o.authorization;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (auth !== null) { headers.authorization = auth; registerSecret(auth.replace(/^Bearer\s+/i, '')); }
    return this.#send('POST', `/api/${encodeURIComponent(ws.workspaceKey)}/embed-tokens`, headers, this.#json(body, o.rawBody));
  }

  upload(ws: Credentials, parts: MultipartPart[], o: { apiKey?: string | null } = {}): Promise<ServiceResponse> {
    const mp = buildMultipart(parts);
    const headers = { 'content-type': mp.contentType, accept: 'application/json', ...this.#apiKeyHeaders(o.apiKey === undefined ? ws.apiKey : o.apiKey) };
    return this.#send('POST', `/api/${encodeURIComponent(ws.workspaceKey)}/upload`, headers, mp.body, mp.description);
  }

  uploadStatus(ws: Credentials, id: string, o: { apiKey?: string | null } = {}): Promise<ServiceResponse> {
    const headers = { accept: 'application/json', ...this.#apiKeyHeaders(o.apiKey === undefined ? ws.apiKey : o.apiKey) };
    return this.#send('GET', `/api/${encodeURIComponent(ws.workspaceKey)}/upload/status/${encodeURIComponent(id)}`, headers, undefined);
  }

  /** The data API path: /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}]. */
  dataPath(ws: { workspaceKey: string }, configEnd: string, endUserHandle: string, serviceKey?: string): string {
    const tail = serviceKey === undefined ? '' : `/${encodeURIComponent(serviceKey)}`;
    return `/api/${encodeURIComponent(ws.workspaceKey)}/endpoints/${configEndSegment(configEnd)}/data/${encodeURIComponent(endUserHandle)}${tail}`;
  }

  #bearer(ws: Credentials, bearer: string | null | undefined): Record<string, string> {
    const token = bearer === undefined ? ws.bearerToken : bearer;
    if (token === null) return {};
    registerSecret(token);
    return { authorization: `Bearer ${token}` };
  }

  listRecords(ws: Credentials, configEnd: string, endUserHandle: string, o: { bearer?: string | null } = {}): Promise<ServiceResponse> {
    return this.#send('GET', this.dataPath(ws, configEnd, endUserHandle), { accept: 'application/json', ...this.#bearer(ws, o.bearer) }, undefined);
  }

  getRecord(ws: Credentials, configEnd: string, endUserHandle: string, serviceKey: string, o: { bearer?: string | null } = {}): Promise<ServiceResponse> {
    return this.#send('GET', this.dataPath(ws, configEnd, endUserHandle, serviceKey), { accept: 'application/json', ...this.#bearer(ws, o.bearer) }, undefined);
  }

  /**
   * POST /{endUserHandle}, the single write route (DATA-4). A keyed write addresses an existing
   * record by serviceKey: sent as POST /{endUserHandle}/{serviceKey} (the exact form is not
   * shown, UNSPEC-9; spec/openapi.yaml records the form the harness uses).
   */
  writeRecord(ws: Credentials, configEnd: string, endUserHandle: string, body: unknown, o: { bearer?: string | null; rawBody?: string; serviceKey?: string } = {}): Promise<ServiceResponse> {
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    return this.#send('POST', this.dataPath(ws, configEnd, endUserHandle, o.serviceKey), headers, this.#json(body, o.rawBody));
  }

  putRecord(ws: Credentials, configEnd: string, endUserHandle: string, body: unknown, o: { bearer?: string | null; rawBody?: string; serviceKey?: string } = {}): Promise<ServiceResponse> {
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    return this.#send('PUT', this.dataPath(ws, configEnd, endUserHandle, o.serviceKey), headers, this.#json(body, o.rawBody));
  }

  jwks(): Promise<ServiceResponse> {
    return this.#send('GET', '/.well-known/service/jwks.json', { accept: 'application/json' }, undefined);
  }

  raw(method: string, path: string, o: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<ServiceResponse> {
    for (const [k, v] of Object.entries(o.headers ?? {})) if (k.toLowerCase() === 'authorization') registerSecret(v.replace(/^\w+\s+/, ''));
    return this.#send(method.toUpperCase(), path, o.headers ?? {}, o.body);
  }
}

export { redactText };
