/** The service's in-memory state: workspaces, classes, records, conversations, upload history. */
import { CONTRACT } from '../protocol/index.ts';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
export type ClassKind = 'SETTING' | 'LIST' | 'FACTS';

export interface ClassField {
  name: string;
  type: FieldType;
  required?: boolean;
  comment?: string;
}

export interface ClassDef {
  /** With its leading slash, e.g. "/profile". */
  configEnd: string;
  kind: ClassKind;
  fields: ClassField[];
  identityField?: string;
  callback?: string;
}

export interface ToolDef {
  toolClass: string;
  path: string;
}

export type SigningConfig =
  | { mode: 'none' }
  | { mode: 'hmac'; secret: string; previousSecret?: string }
  | { mode: 'jwks' };

/** A workspace as a fixture file or the driver describes it (credentials are test-only). */
export interface WorkspaceFixture {
  workspaceKey: string;
  parentWorkspaceKey?: string;
  workspaceId?: string;
  apiKey?: string;
  bearerToken?: string;
  hostBaseUrl?: string | null;
  hookPath?: string | null;
  classes?: ClassDef[];
  tools?: ToolDef[];
  signing?: SigningConfig;
}

export interface Workspace {
  workspaceKey: string;
  workspaceId: string;
  parent?: Workspace;
  apiKey: string;
  bearerToken: string;
  hostBaseUrl: string | null;
  hookPath: string | null;
  classes: Map<string, ClassDef>;
  tools: ToolDef[];
  signing: SigningConfig;
}

export type CallbackStatus = 'PENDING' | 'DELIVERED';

export interface StoredRecord {
  serviceKey: string;
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  /** Raw stored values (bound to the class at read: ENV-2). */
  values: Record<string, unknown>;
  callbackStatus: CallbackStatus;
  /** Wall-clock ms of the last write or of completion (ENV-3). */
  completedAt: number;
  held: boolean;
}

export type ConversationState = 'open' | 'completed' | 'interrupted' | 'timed-out';

export interface Conversation {
  conversationId: number;
  workspace: Workspace;
  endUserHandle: string;
  configEnd: string;
  state: ConversationState;
  openerLanguage: string;
  /** Every instance touched in this conversation, in order of first touch. */
  touched: string[];
}

export interface FactsEntry {
  facts: Record<string, unknown>;
  /** Service-clock ms when the answer was received (cache age, FACTS-6). */
  receivedAt: number;
  fetchedAt: string;
}

export interface ServiceLogLine {
  seq: number;
  at: string;
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
  workspaceKey?: string;
  deliveryId?: string;
}

export function isSandboxKey(key: string): boolean {
  return key.startsWith(CONTRACT.sandboxPrefix); // 2.1
}

/** HOOK-3: a sandbox without its own hostBaseUrl inherits its production parent's. */
export function effectiveHostBaseUrl(ws: Workspace, inherit = true): string | null {
  if (ws.hostBaseUrl) return ws.hostBaseUrl;
  return inherit && ws.parent ? ws.parent.hostBaseUrl : null;
}

/** HOOK-2: hookPath is identical across environments: a sandbox uses its parent's. */
export function effectiveHookPath(ws: Workspace): string | null {
  return ws.parent ? ws.parent.hookPath : ws.hookPath;
}

export function classesOf(ws: Workspace): Map<string, ClassDef> {
  return ws.parent ? ws.parent.classes : ws.classes;
}

export function toolsOf(ws: Workspace): ToolDef[] {
  return ws.parent ? ws.parent.tools : ws.tools;
}
