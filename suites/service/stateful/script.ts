/**
 * The replayable script of one sequence: each step as it ran (the command in words, what the
 * service answered) with a curl line per request it made, driver calls and data API requests
 * alike. The runner keeps the script of the last failing run, which is the shrunk counterexample.
 */
import type { DriverClient } from '../fixtures.ts';
import type { ServiceResponse } from '../clients/service-client.ts';
import { curlLine } from '../clients/curl.ts';

export interface ScriptStep {
  n: number;
  text: string;
  outcome: string[];
  requests: string[];
}

export class StepLog {
  readonly steps: ScriptStep[] = [];
  readonly setup: string[] = [];

  begin(text: string): ScriptStep {
    const s: ScriptStep = { n: this.steps.length + 1, text, outcome: [], requests: [] };
    this.steps.push(s);
    return s;
  }

  /** A request of the current step (or of the setup, before the first step). */
  request(curl: string): void {
    const s = this.steps[this.steps.length - 1];
    if (s) s.requests.push(curl);
    else this.setup.push(curl);
  }

  note(text: string): void {
    this.steps[this.steps.length - 1]?.outcome.push(text);
  }

  /** The script in words, one step a paragraph, each request a curl line under it. */
  render(o: { maxRequestsPerStep?: number } = {}): string {
    const max = o.maxRequestsPerStep ?? 12;
    const lines: string[] = [];
    for (const c of this.setup) lines.push(`   setup: ${c}`);
    for (const s of this.steps) {
      lines.push(`${String(s.n).padStart(2)}. ${s.text}${s.outcome.length ? ` -> ${s.outcome.join('; ')}` : ''}`);
      for (const c of s.requests.slice(0, max)) lines.push(`      ${c}`);
      if (s.requests.length > max) lines.push(`      ... ${s.requests.length - max} more request(s)`);
    }
    return lines.join('\n');
  }
}

/** Every data API answer of a sequence goes into its script. */
export function logResponse(log: StepLog): (r: ServiceResponse) => void {
  return (r) => log.request(`${r.curl}  # ${r.status}`);
}

/** The driver calls a sequence makes, each written into the script as a curl line before it is sent. */
export class RecordingDriver {
  constructor(
    private readonly d: DriverClient,
    private readonly log: StepLog,
  ) {}

  private say(method: string, path: string, body?: unknown): void {
    const url = `${(this.d.driverUrl ?? '').replace(/\/$/, '')}${path}`;
    this.log.request(
      curlLine({
        method,
        url,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    );
  }

  open(ws: { workspaceKey: string }, endUserHandle: string, configEnd: string) {
    this.say('POST', `/workspaces/${encodeURIComponent(ws.workspaceKey)}/conversations`, { endUserHandle, configEnd });
    return this.d.open(ws, { endUserHandle, configEnd });
  }
  turn(conversationId: number, saves: Parameters<DriverClient['turn']>[1]) {
    this.say('POST', `/conversations/${conversationId}/turns`, { saves });
    return this.d.turn(conversationId, saves);
  }
  /** serviceKeys undefined: the driver's default, every instance the conversation touched (the service decides). */
  complete(conversationId: number, serviceKeys?: string[]) {
    const body = serviceKeys === undefined ? {} : { serviceKeys };
    this.say('POST', `/conversations/${conversationId}/complete`, body);
    return this.d.complete(conversationId, body);
  }
  deleteRecord(conversationId: number, serviceKey: string) {
    this.say('POST', `/conversations/${conversationId}/delete`, { serviceKey });
    return this.d.deleteRecord(conversationId, serviceKey);
  }
  /** A member left out takes the driver's default: the conversation's configEnd, all of the user's records there. */
  bulkDelete(conversationId: number, o: { configEnd?: string; serviceKeys?: string[] }) {
    this.say('POST', `/conversations/${conversationId}/bulk-delete`, o);
    return this.d.bulkDelete(conversationId, o);
  }
  interrupt(conversationId: number) {
    this.say('POST', `/conversations/${conversationId}/interrupt`, {});
    return this.d.interrupt(conversationId);
  }
  idleSweep(conversationId: number) {
    this.say('POST', `/conversations/${conversationId}/idle-sweep`, {});
    return this.d.idleSweep(conversationId);
  }
  migrationHold(ws: { workspaceKey: string }, serviceKey: string, held: boolean) {
    this.say(
      'POST',
      `/workspaces/${encodeURIComponent(ws.workspaceKey)}/records/${encodeURIComponent(serviceKey)}/migration-hold`,
      { held },
    );
    return this.d.migrationHold(ws, serviceKey, held);
  }
  seed(ws: { workspaceKey: string }, o: { configEnd: string; endUserHandle: string; count: number; fields?: object }) {
    this.say('POST', `/workspaces/${encodeURIComponent(ws.workspaceKey)}/seed`, o);
    return this.d.seed(ws, o);
  }
}
