/**
 * The shapes of the service client (service-client.ts): its answers, the credentials and options it takes, and
 * what a data API request addresses and how it is sent.
 */
import type { StreamBody } from '../../../target/clients/http.ts';
import type { ValidationResult } from './spec-check.ts';
import { DEFAULT_DATA_API_FORMS, configEndInPath, type DataApiForms } from '../../../spec/index.ts';

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

export type Body = string | Uint8Array | StreamBody | undefined;

/** configEnd as written in the data API path, in the declared form (UNSPEC-9; spec/data-api-forms.ts). */
export function configEndSegment(configEnd: string, forms: DataApiForms = DEFAULT_DATA_API_FORMS): string {
  return configEndInPath(configEnd, forms.configEnd);
}

export type DataRequest = 'read' | 'read-by-key' | 'write' | 'keyed-write' | 'put' | 'put-by-key';
/** What a data API request addresses, and the fields of a write the client built. */
export interface DataAt {
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey?: string;
  fields?: Record<string, unknown>;
}
/** How it is sent: headers, body, whether the client built the body, the serviceKey in the path. */
export interface DataSend {
  headers: Record<string, string>;
  body?: string;
  builtBody: boolean;
  pathKey?: string;
}
