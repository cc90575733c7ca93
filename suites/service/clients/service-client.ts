/**
 * Client of the contract's service routes (section 4.2). Every call returns a ServiceResponse,
 * checks it against spec/openapi.yaml (specCheck) and records it as evidence with a curl line,
 * credentials redacted.
 */
import { sendRaw } from '../../../target/clients/http.ts';
import { curlLine } from './curl.ts';
import { buildMultipart, type MultipartPart } from './multipart.ts';
import { checkResponse } from './spec-check.ts';
import { WriteMemory } from '../../../target/clients/data-api.ts';
import { formHint } from './form-hint.ts';
import {
  DEFAULT_DATA_API_FORMS,
  dataApiPath,
  registerSecret,
  redactText,
  writeBodyOf,
  type DataApiForms,
} from '../../../spec/index.ts';
import type {
  Body,
  Credentials,
  DataAt,
  DataFormField,
  DataRequest,
  DataSend,
  ServiceClientOptions,
  ServiceResponse,
  WriteRequest,
} from './service-client-types.ts';

export { configEndSegment } from './service-client-types.ts';
export type {
  Credentials,
  DataFormField,
  ServiceClientOptions,
  ServiceResponse,
  WriteRequest,
} from './service-client-types.ts';

export class ServiceClient {
  readonly baseUrl: string;
  readonly apiKeyHeader: string;
  readonly forms: DataApiForms;
  readonly #memory: WriteMemory;
  constructor(readonly o: ServiceClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/$/, '');
    this.apiKeyHeader = (o.apiKeyHeader ?? 'authorization').toLowerCase();
    this.forms = o.dataApi ?? { ...DEFAULT_DATA_API_FORMS };
    this.#memory = new WriteMemory(this.forms);
  }

  #apiKeyHeaders(key: string | null | undefined): Record<string, string> {
    if (key === null || key === undefined) return {};
    registerSecret(key);
    return this.apiKeyHeader === 'authorization' ? { authorization: `Bearer ${key}` } : { [this.apiKeyHeader]: key };
  }

  async #send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Body,
    describe?: string,
  ): Promise<ServiceResponse> {
    const url = this.baseUrl + path;
    const raw = await sendRaw({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(this.o.timeoutMs ? { timeoutMs: this.o.timeoutMs } : {}),
    });
    const curlBody =
      body === undefined
        ? undefined
        : typeof body === 'string' || body instanceof Uint8Array
          ? body
          : { length: body.length, description: describe ?? 'generated' };
    const curl = curlLine({
      method,
      url,
      headers,
      ...(curlBody === undefined ? {} : { body: curlBody }),
      secretHeaders: [this.apiKeyHeader],
    });
    const specCheck = await checkResponse({
      method,
      url,
      status: raw.status,
      headers: raw.headers,
      json: raw.json,
      text: raw.text,
    });
    const r: ServiceResponse = {
      status: raw.status,
      headers: raw.headers,
      text: raw.text,
      json: raw.json,
      curl,
      specCheck,
      method,
      url,
      elapsedMs: raw.elapsedMs,
    };
    if (specCheck.operationId) r.operationId = specCheck.operationId;
    if (typeof body === 'string') r.requestText = body;
    this.o.onResponse?.(r);
    return r;
  }

  #json(body: unknown, rawBody?: string): string {
    return rawBody ?? JSON.stringify(body);
  }

  embedTokens(
    ws: Credentials,
    body: unknown,
    o: { authorization?: string | null; rawBody?: string } = {},
  ): Promise<ServiceResponse> {
    const auth = o.authorization === undefined ? ws.embedAuthorization : o.authorization;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (auth !== null) {
      headers.authorization = auth;
      registerSecret(auth.replace(/^Bearer\s+/i, ''));
    }
    return this.#send(
      'POST',
      `/api/${encodeURIComponent(ws.workspaceKey)}/embed-tokens`,
      headers,
      this.#json(body, o.rawBody),
    );
  }

  upload(ws: Credentials, parts: MultipartPart[], o: { apiKey?: string | null } = {}): Promise<ServiceResponse> {
    const mp = buildMultipart(parts);
    const headers = {
      'content-type': mp.contentType,
      accept: 'application/json',
      ...this.#apiKeyHeaders(o.apiKey === undefined ? ws.apiKey : o.apiKey),
    };
    return this.#send('POST', `/api/${encodeURIComponent(ws.workspaceKey)}/upload`, headers, mp.body, mp.description);
  }

  uploadStatus(ws: Credentials, id: string, o: { apiKey?: string | null } = {}): Promise<ServiceResponse> {
    const headers = {
      accept: 'application/json',
      ...this.#apiKeyHeaders(o.apiKey === undefined ? ws.apiKey : o.apiKey),
    };
    return this.#send(
      'GET',
      `/api/${encodeURIComponent(ws.workspaceKey)}/upload/status/${encodeURIComponent(id)}`,
      headers,
      undefined,
    );
  }

  /**
   * The data API path: /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}], configEnd in the
   * declared form.
   */
  dataPath(ws: { workspaceKey: string }, configEnd: string, endUserHandle: string, serviceKey?: string): string {
    return dataApiPath(ws.workspaceKey, configEnd, endUserHandle, this.forms.configEnd, serviceKey);
  }

  /** A data API request: `at` says what it addresses, `pathKey` the serviceKey written in its path. */
  async #data(method: string, request: DataRequest, at: DataAt, send: DataSend): Promise<ServiceResponse> {
    const used: DataFormField[] = ['dataApi.configEnd'];
    if (send.builtBody) used.push('dataApi.writeBody');
    if (request === 'keyed-write') used.push('dataApi.keyedWrite');
    this.o.onDataForms?.(used);
    const path = this.dataPath(at, at.configEnd, at.endUserHandle, send.pathKey);
    const r = await this.#send(method, path, send.headers, send.body);
    const hint = formHint(this.forms, r, request, send.builtBody, at.configEnd) ?? this.#readBackHint(r, request, at);
    if (hint !== undefined) r.formHint = hint;
    return r;
  }

  /** A built write accepted is remembered; a read of what it wrote may show it went in another form (read-back.ts). */
  #readBackHint(r: ServiceResponse, request: DataRequest, at: DataAt): string | undefined {
    const scope = `${at.workspaceKey} ${at.configEnd.startsWith('/') ? '' : '/'}${at.configEnd} ${at.endUserHandle}`;
    if ((request === 'write' || request === 'keyed-write') && at.fields && r.status >= 200 && r.status < 300) {
      return this.#memory.accepted(scope, at.fields, at.serviceKey, r.json);
    }
    if (request === 'keyed-write' && r.status === 409) return this.#memory.conflicted(at.serviceKey, r.json);
    const read = request === 'read' || request === 'read-by-key';
    return read && r.status === 200 ? this.#memory.read(scope, r.json, at.serviceKey) : undefined;
  }

  #bearer(ws: Credentials, bearer: string | null | undefined): Record<string, string> {
    const token = bearer === undefined ? ws.bearerToken : bearer;
    if (token === null) return {};
    registerSecret(token);
    return { authorization: `Bearer ${token}` };
  }

  listRecords(
    ws: Credentials,
    configEnd: string,
    endUserHandle: string,
    o: { bearer?: string | null } = {},
  ): Promise<ServiceResponse> {
    const headers = { accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    const at = { workspaceKey: ws.workspaceKey, configEnd, endUserHandle };
    return this.#data('GET', 'read', at, { headers, builtBody: false });
  }

  getRecord(
    ws: Credentials,
    configEnd: string,
    endUserHandle: string,
    serviceKey: string,
    o: { bearer?: string | null } = {},
  ): Promise<ServiceResponse> {
    const headers = { accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    const at = { workspaceKey: ws.workspaceKey, configEnd, endUserHandle, serviceKey };
    return this.#data('GET', 'read-by-key', at, { headers, builtBody: false, pathKey: serviceKey });
  }

  /**
   * POST /{endUserHandle}, the single write route (DATA-4), in the declared forms (UNSPEC-8,
   * UNSPEC-9): `body.data` holds the fields, sent as {"data": {...}} or as the bare field map; a
   * keyed write (serviceKey) addresses an existing record by its key, in the path (POST
   * /{endUserHandle}/{serviceKey}) or in the body member the target names. `rawBody` is sent as
   * it is (a malformed body, DATA-7), in the declared path.
   */
  writeRecord(
    ws: Credentials,
    configEnd: string,
    endUserHandle: string,
    body: WriteRequest | undefined,
    o: { bearer?: string | null; rawBody?: string; serviceKey?: string } = {},
  ): Promise<ServiceResponse> {
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    const key = o.serviceKey;
    const pathKey = key !== undefined && this.forms.keyedWrite === 'path' ? key : undefined;
    const built = o.rawBody === undefined;
    const text = o.rawBody ?? JSON.stringify(writeBodyOf(body?.data ?? {}, this.forms, key));
    const at: DataAt = {
      workspaceKey: ws.workspaceKey,
      configEnd,
      endUserHandle,
      ...(key !== undefined ? { serviceKey: key } : {}),
      ...(built ? { fields: body?.data ?? {} } : {}),
    };
    const send = { headers, body: text, builtBody: built, ...(pathKey !== undefined ? { pathKey } : {}) };
    return this.#data('POST', key === undefined ? 'write' : 'keyed-write', at, send);
  }

  /**
   * PUT, refused on every data route (DATA-5): by key, it goes to /{endUserHandle}/{serviceKey} whatever the keyed
   * write form; the body is sent as given.
   */
  putRecord(
    ws: Credentials,
    configEnd: string,
    endUserHandle: string,
    body: unknown,
    o: { bearer?: string | null; rawBody?: string; serviceKey?: string } = {},
  ): Promise<ServiceResponse> {
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...this.#bearer(ws, o.bearer) };
    const key = o.serviceKey;
    const text = this.#json(body, o.rawBody);
    const send = { headers, body: text, builtBody: false, ...(key !== undefined ? { pathKey: key } : {}) };
    const at = { workspaceKey: ws.workspaceKey, configEnd, endUserHandle };
    return this.#data('PUT', key === undefined ? 'put' : 'put-by-key', at, send);
  }

  jwks(): Promise<ServiceResponse> {
    return this.#send('GET', '/.well-known/service/jwks.json', { accept: 'application/json' }, undefined);
  }

  raw(
    method: string,
    path: string,
    o: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
  ): Promise<ServiceResponse> {
    for (const [k, v] of Object.entries(o.headers ?? {}))
      if (k.toLowerCase() === 'authorization') registerSecret(v.replace(/^\w+\s+/, ''));
    return this.#send(method.toUpperCase(), path, o.headers ?? {}, o.body);
  }
}

export { redactText };
