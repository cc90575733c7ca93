/**
 * Client of the contract's service routes (section 4.2). Every call returns a ServiceResponse,
 * checks it against spec/openapi.yaml (specCheck) and records it as evidence with a curl line,
 * credentials redacted.
 */
import { sendRaw, type StreamBody } from './http.ts';
import { curlLine } from './curl.ts';
import { buildMultipart, type MultipartPart } from './multipart.ts';
import { checkResponse, type ValidationResult } from './spec-check.ts';
import { WriteMemory } from './read-back.ts';
import {
  DEFAULT_DATA_API_FORMS,
  configEndInPath,
  dataApiPath,
  registerSecret,
  redactText,
  writeBodyOf,
  type DataApiForms,
} from '../../../spec/index.ts';

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  curl: string;
  specCheck: ValidationResult;
  method: string;
  url: string;
  operationId?: string;
  elapsedMs: number;
  /** The request body as sent, when it was text (the self tests read the declared forms back from it). */
  requestText?: string;
  /**
   * A data API request answered 404 or 405 (or a built write body answered 400), or a write it
   * built that does not read back (read-back.ts): the target field of the form it was written in,
   * in words, for the hint beside a failing check (Words.hint). The same answer may be the rule
   * under test (DATA-8, DATA-9, DATA-4), so it is only shown when a check fails.
   */
  formHint?: string;
}
/** The credentials of a workspace the client needs. */
export interface Credentials {
  workspaceKey: string;
  apiKey: string;
  bearerToken: string;
  embedAuthorization: string;
}
export interface ServiceClientOptions {
  baseUrl: string;
  /** Header carrying the API key on upload routes (UNSPEC-19): 'authorization' sends "Bearer <key>". */
  apiKeyHeader?: string;
  onResponse?: (r: ServiceResponse) => void;
  timeoutMs?: number;
  /** The data API forms the target declares (UNSPEC-8, UNSPEC-9); default: DEFAULT_DATA_API_FORMS. */
  dataApi?: DataApiForms;
  /** Told which declared forms each data API request depended on (the forms run checks its plan with it). */
  onDataForms?: (used: readonly DataFormField[]) => void;
}

/** A target field whose form a data API request depends on. */
export type DataFormField = 'dataApi.configEnd' | 'dataApi.keyedWrite' | 'dataApi.writeBody';

/** A write: the fields to store, sent in the declared write body form (UNSPEC-8). */
export interface WriteRequest {
  data: Record<string, unknown>;
}

type Body = string | Uint8Array | StreamBody | undefined;

/** configEnd as written in the data API path, in the declared form (UNSPEC-9; spec/data-api-forms.ts). */
export function configEndSegment(configEnd: string, forms: DataApiForms = DEFAULT_DATA_API_FORMS): string {
  return configEndInPath(configEnd, forms.configEnd);
}

type DataRequest = 'read' | 'read-by-key' | 'write' | 'keyed-write' | 'put' | 'put-by-key';
/** What a data API request addresses, and the fields of a write the client built. */
interface DataAt {
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey?: string;
  fields?: Record<string, unknown>;
}
/** How it is sent: headers, body, whether the client built the body, the serviceKey in the path. */
interface DataSend {
  headers: Record<string, string>;
  body?: string;
  builtBody: boolean;
  pathKey?: string;
}

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

  /** The data API path: /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}], configEnd in the declared form. */
  dataPath(ws: { workspaceKey: string }, configEnd: string, endUserHandle: string, serviceKey?: string): string {
    return dataApiPath(ws.workspaceKey, configEnd, endUserHandle, this.forms.configEnd, serviceKey);
  }

  /**
   * The hint beside a failing check of a data API answer: a 404 or 405 may mean the service has no
   * route in the form this run writes, a 400 to a built write body that it reads another body form.
   * Names the target field to check and the form this run used. A 405 to a keyed write names the
   * keyed write form only (its path was routed); a 404 may also come from the configEnd form.
   */
  #formHint(r: ServiceResponse, request: DataRequest, builtBody: boolean, configEnd: string): string | undefined {
    const f = this.forms;
    const keyed = request === 'keyed-write';
    // The route as a template, so that the same cause reads the same in every test (the run's hints list it once).
    const byKey = request === 'read-by-key' || request === 'put-by-key' || (keyed && f.keyedWrite === 'path');
    const route = `/api/{workspaceKey}/endpoints/${configEndInPath(configEnd, f.configEnd)}/data/{endUserHandle}${byKey ? '/{serviceKey}' : ''}`;
    const said = `the service answered ${r.status} to ${r.method} ${route}${keyed && f.keyedWrite === 'body' ? ` (the key in ${JSON.stringify(f.keyField)})` : ''}`;
    const keyedForm =
      f.keyedWrite === 'path'
        ? '`dataApi.keyedWrite` (this run sends a keyed write as POST .../data/{endUserHandle}/{serviceKey}; `body` puts the key in a body member named by `dataApi.keyField`)'
        : `\`dataApi.keyedWrite\` and \`dataApi.keyField\` (this run sends a keyed write as POST .../data/{endUserHandle} with the key in the body member ${JSON.stringify(f.keyField)}; \`path\` sends POST .../data/{endUserHandle}/{serviceKey})`;
    const written = (x: DataApiForms['configEnd']) => `.../endpoints/${configEndInPath(configEnd, x)}/data (${x})`;
    const others = (['without-slash', 'with-slash', 'encoded'] as const)
      .filter((x) => x !== f.configEnd)
      .map(written)
      .join(', ');
    const configEndForm = `\`dataApi.configEnd\` (this run writes ${configEnd} as ${written(f.configEnd)}; the other forms: ${others})`;
    if (r.status === 405 && keyed) return `${said}: if it has no such route, check ${keyedForm} in the target`;
    // PUT is refused with 405 on every data route (DATA-5): only a 404 may say the route is written in another form.
    if (r.status === 405 && (request === 'put' || request === 'put-by-key')) return undefined;
    if (r.status === 404 || r.status === 405)
      return `${said}: if it has no such route, check ${keyed ? `${keyedForm} and ` : ''}${configEndForm} in the target`;
    if (r.status === 400 && builtBody && (request === 'write' || keyed)) {
      const body = f.writeBody === 'data' ? 'the fields under "data", {"data": {...}}' : 'the bare field map';
      return `${said}, a well-formed write: if it reads another body, check \`dataApi.writeBody\` in the target (this run sends ${body}${keyed && f.keyedWrite === 'body' ? ` with the key in ${JSON.stringify(f.keyField)}` : ''})`;
    }
    return undefined;
  }

  /** A data API request: `at` says what it addresses, `pathKey` the serviceKey written in its path. */
  async #data(method: string, request: DataRequest, at: DataAt, send: DataSend): Promise<ServiceResponse> {
    const used: DataFormField[] = ['dataApi.configEnd'];
    if (send.builtBody) used.push('dataApi.writeBody');
    if (request === 'keyed-write') used.push('dataApi.keyedWrite');
    this.o.onDataForms?.(used);
    const path = this.dataPath(at, at.configEnd, at.endUserHandle, send.pathKey);
    const r = await this.#send(method, path, send.headers, send.body);
    const hint = this.#formHint(r, request, send.builtBody, at.configEnd) ?? this.#readBackHint(r, request, at);
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

  /** PUT, refused on every data route (DATA-5): by key, it goes to /{endUserHandle}/{serviceKey} whatever the keyed write form; the body is sent as given. */
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
