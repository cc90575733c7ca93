/** The service's in-memory state: workspaces, classes, records, conversations, upload history. */
import type {
  DriverClassDef,
  DriverClassField,
  DriverLogLine,
  DriverSigning,
  DriverWorkspaceCreate,
} from '../spec/index.ts';
import { CONTRACT } from '../protocol/index.ts';

/** The driver's class and signing shapes, generated from spec/driver.openapi.yaml. */
export type FieldType = DriverClassField['type'];
export type ClassKind = DriverClassDef['kind'];
export type ClassField = DriverClassField;
export type ClassDef = DriverClassDef;
export type ToolDef = NonNullable<DriverWorkspaceCreate['tools']>[number];
export type SigningConfig = DriverSigning;

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

/** Section 3: one definition, generated from spec/openapi.yaml. */
export type { CallbackStatus } from '../protocol/index.ts';
import type { CallbackStatus } from '../protocol/index.ts';

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
  /** What some seeded faults read to break a rule only in combination (faults.ts); the contract needs none of it. */
  trail?: RecordTrail;
}

/** A record's history as the combination faults of faults.ts read it. */
export interface RecordTrail {
  /** Saved through the chat at least once. */
  chatTouched?: boolean;
  /** The conversation whose chat save created it. */
  createdIn?: number;
  /** A draft whose last conversation closed without completing. */
  closedDraft?: boolean;
  /** Held once and not written since. */
  wasHeld?: boolean;
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
  /** Keys deleted through the chat in this conversation (read by seeded faults only). */
  chatDeleted?: string[];
}

export interface FactsEntry {
  facts: Record<string, unknown>;
  /** Service-clock ms when the answer was received (cache age, FACTS-6). */
  receivedAt: number;
  fetchedAt: string;
}

/** A line of the service-side log the driver exposes (spec/driver.openapi.yaml). */
export type ServiceLogLine = DriverLogLine;

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

/** A payload as sent: a contract shape, or one a seeded fault broke on purpose. */
export type Payload = Record<string, unknown>;
