/**
 * Types of the contract-as-data room. Others code against these names (spec/index.ts re-exports
 * them); keep them stable.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'UNSPECIFIED';
export type Side = 'service' | 'host';

/** One normative statement of the contract (spec/clauses.yaml). */
export interface Clause {
  id: string;
  section: string;
  level: Level;
  side: Side;
  text: string;
  reading?: string;
  unobservable?: string;
}

/** errors are "<instancePath> <message>", instancePath "(root)" for the value itself. */
export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

export interface Spec {
  openapi: OpenAPIV3_1.Document;
  /** spec/driver.openapi.yaml when present. */
  driver: OpenAPIV3_1.Document | undefined;
  clauses: Clause[];
  areas: Record<string, string>;
  clause(id: string): Clause | undefined;
  /**
   * 'onStart' ... 'config.bulk_deleted' (request payload), 'user.facts.fetch' (the response object), 'tool.dispatch'.
   */
  validateWebhook(name: string, body: unknown): ValidationResult;
  validateWebhookHeaders(name: string, headers: Record<string, string | undefined>): ValidationResult;
  /** exact status, else the NXX range, else default; an undocumented status is invalid. */
  validateResponse(operationId: string, status: number, body: unknown): ValidationResult;
  validateRequestBody(operationId: string, body: unknown): ValidationResult;
  /** components.schemas[name] */
  validateSchema(name: string, value: unknown): ValidationResult;
  /** components.schemas[name], $refs left as is. */
  schema(name: string): object;
  /** '#/components/schemas/X' (any local JSON pointer) -> the object it points at. */
  resolveRef(ref: string): object;
  documentedStatuses(operationId: string): number[];
  operation(operationId: string): { method: string; path: string; operation: OpenAPIV3_1.OperationObject };
}
