/**
 * Client of the driver API (spec/driver.openapi.yaml): the service's conformance-run control API
 * that stands in for the chat and the dashboard. A missing capability ends the caller's step with the
 * reason (notOffered): the suites' client skips the test there, so its clauses are reported
 * not-exercised, never passed (CONTRIBUTING). No test runner is imported here: the CLI loads this client.
 */
import { ccsError, CcsError } from '../../spec/index.ts';
import type {
  DriverBulkDeleteResponse,
  DriverCallToolResponse,
  DriverCapabilities,
  DriverClassDef,
  DriverClassField,
  DriverCompleteConversationResponse,
  DriverGetConversationResponse,
  DriverGetFactsResponse,
  DriverGetLogResponse,
  DriverLogLine,
  DriverOpenConversationResponse,
  DriverRunTurnRequest,
  DriverRunTurnResponse,
  DriverSeedRecordsResponse,
  DriverWorkspace as GeneratedDriverWorkspace,
} from '../../spec/index.ts';
import { sendRaw } from './http.ts';
import { redactText } from '../../spec/index.ts';

/** The driver's shapes, generated from spec/driver.openapi.yaml. */
export type FieldDef = DriverClassField;
export type ClassDef = DriverClassDef;
export type DriverWorkspace = GeneratedDriverWorkspace;
/** Capabilities as a target answers them: it may list names this harness does not know. */
export type Capabilities = Omit<DriverCapabilities, 'capabilities' | 'driverVersion'> & {
  capabilities: string[];
  driverVersion?: string;
};
export type LogLine = DriverLogLine;
/** The part of a test workspace the driver needs (its key). */
export interface WorkspaceRef {
  workspaceKey: string;
}

export class DriverError extends CcsError {}

export class DriverClient {
  #caps: Capabilities | undefined;
  constructor(
    readonly driverUrl: string | undefined,
    readonly timeoutMs = 30_000,
  ) {}

  async #call<T>(method: string, path: string, body?: unknown, expected: number[] = [200, 201, 202]): Promise<T> {
    if (!this.driverUrl) throw ccsError('TARGET_NO_DRIVER', { problem: '(service.driverUrl): this test needs one' });
    const res = await sendRaw({
      method,
      url: this.driverUrl.replace(/\/$/, '') + path,
      timeoutMs: this.timeoutMs,
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!expected.includes(res.status)) {
      throw ccsError('TARGET_DRIVER_ERROR', {
        method,
        path,
        status: res.status,
        said: redactText(res.text.slice(0, 300)),
        body: res.json,
      });
    }
    return (res.json ?? {}) as T;
  }

  async capabilities(): Promise<Capabilities> {
    this.#caps ??= await this.#call<Capabilities>('GET', '/capabilities');
    return this.#caps;
  }
  /**
   * The round trip of GET /capabilities, asked afresh (ms): how long the service takes to answer a
   * request it answers at once, the harness's measure of how loaded it is (Timing.loadExtensionMs).
   */
  async roundTripMs(): Promise<number> {
    const started = performance.now();
    await this.#call<Capabilities>('GET', '/capabilities');
    return performance.now() - started;
  }
  /** Capabilities known from a previous discovery (the fixtures discover once per worker). */
  setCapabilities(c: Capabilities): void {
    this.#caps = c;
  }

  /** Ends the caller's step when a capability is missing (notOffered): reported not-exercised with the reason. */
  requireCapability(...names: string[]): void {
    if (!this.driverUrl) {
      this.notOffered(
        'the target has no driver (service.driverUrl): capability ' + names.join(', ') + ' not offered by the target',
      );
      return;
    }
    const have = new Set(this.#caps?.capabilities ?? []);
    const missing = names.filter((n) => !have.has(n));
    if (missing.length) this.notOffered(`capability ${missing.join(', ')} not offered by the target`);
  }

  /** What a missing capability does: here an error that names it; a test's client skips the test instead. */
  protected notOffered(reason: string): void {
    throw ccsError('TARGET_CAPABILITY_MISSING', { reason });
  }
  has(name: string): boolean {
    return (this.#caps?.capabilities ?? []).includes(name);
  }

  createWorkspace(body: object): Promise<DriverWorkspace> {
    return this.#call('POST', '/workspaces', body, [201, 200]);
  }
  /** Raw create, for tests of push rejection (FACTS-12: 422). */
  async createWorkspaceRaw(body: object): Promise<{ status: number; json: unknown }> {
    if (!this.driverUrl) throw ccsError('TARGET_NO_DRIVER', { problem: '(service.driverUrl): this test needs one' });
    const res = await sendRaw({
      method: 'POST',
      url: this.driverUrl.replace(/\/$/, '') + '/workspaces',
      timeoutMs: this.timeoutMs,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: res.json };
  }
  updateWorkspace(workspaceKey: string, patch: object): Promise<DriverWorkspace> {
    return this.#call('PATCH', `/workspaces/${encodeURIComponent(workspaceKey)}`, patch);
  }
  open(ws: WorkspaceRef, o: { endUserHandle: string; configEnd?: string }): Promise<DriverOpenConversationResponse> {
    return this.#call(
      'POST',
      `/workspaces/${encodeURIComponent(ws.workspaceKey)}/conversations`,
      { endUserHandle: o.endUserHandle, configEnd: o.configEnd ?? '/profile' },
      [201, 200],
    );
  }
  turn(conversationId: number, saves: DriverRunTurnRequest['saves']): Promise<DriverRunTurnResponse> {
    return this.#call('POST', `/conversations/${conversationId}/turns`, { saves });
  }
  complete(conversationId: number, o: { serviceKeys?: string[] } = {}): Promise<DriverCompleteConversationResponse> {
    return this.#call('POST', `/conversations/${conversationId}/complete`, o, [202, 200]);
  }
  async deleteRecord(conversationId: number, serviceKey: string): Promise<void> {
    await this.#call('POST', `/conversations/${conversationId}/delete`, { serviceKey });
  }
  bulkDelete(
    conversationId: number,
    o: { configEnd?: string; serviceKeys?: string[] } = {},
  ): Promise<DriverBulkDeleteResponse> {
    return this.#call('POST', `/conversations/${conversationId}/bulk-delete`, o);
  }
  async interrupt(conversationId: number): Promise<void> {
    await this.#call('POST', `/conversations/${conversationId}/interrupt`, {});
  }
  async idleSweep(conversationId: number): Promise<void> {
    await this.#call('POST', `/conversations/${conversationId}/idle-sweep`, {});
  }
  toolCall(conversationId: number, o: { toolClass: string; input?: object }): Promise<DriverCallToolResponse> {
    return this.#call('POST', `/conversations/${conversationId}/tool-calls`, o);
  }
  async migrationHold(ws: WorkspaceRef, serviceKey: string, held: boolean): Promise<void> {
    await this.#call(
      'POST',
      `/workspaces/${encodeURIComponent(ws.workspaceKey)}/records/${encodeURIComponent(serviceKey)}/migration-hold`,
      { held },
    );
  }
  seed(
    ws: WorkspaceRef,
    o: { configEnd: string; endUserHandle: string; count: number; fields?: object },
  ): Promise<DriverSeedRecordsResponse> {
    return this.#call('POST', `/workspaces/${encodeURIComponent(ws.workspaceKey)}/seed`, o, [201, 200]);
  }
  /**
   * Capability listen-pipe: the workspace's events go to forwardTo instead of the host POST until stopped with null
   * (HOOK-5, SIGN-15).
   */
  async listen(ws: WorkspaceRef, forwardTo: string | null): Promise<void> {
    await this.#call('POST', `/workspaces/${encodeURIComponent(ws.workspaceKey)}/listen`, { forwardTo });
  }
  /**
   * Capability outage: every contract route of the workspace answers this status until cleared with null (ERR-4,
   * ERR-5).
   */
  async outage(ws: WorkspaceRef, status: 500 | 503 | null): Promise<void> {
    await this.#call('POST', `/workspaces/${encodeURIComponent(ws.workspaceKey)}/outage`, { status });
  }
  facts(ws: WorkspaceRef, endUserHandle: string): Promise<DriverGetFactsResponse> {
    return this.#call(
      'GET',
      `/workspaces/${encodeURIComponent(ws.workspaceKey)}/users/${encodeURIComponent(endUserHandle)}/facts`,
    );
  }
  conversation(conversationId: number): Promise<DriverGetConversationResponse> {
    return this.#call('GET', `/conversations/${conversationId}`);
  }
  async advanceClock(ms: number): Promise<void> {
    await this.#call('POST', '/clock/advance', { ms: Math.round(ms) });
  }
  async log(since?: number): Promise<LogLine[]> {
    const r = await this.#call<DriverGetLogResponse>('GET', `/log${since === undefined ? '' : `?since=${since}`}`);
    return r.lines ?? [];
  }
}
