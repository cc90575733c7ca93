/**
 * The mock host as its admin API and its inspector page see it: server.ts's MockHost implements it and
 * registers them, so admin.ts and ui/* name this and never server.ts.
 */
import type { JournalStore } from './journal.ts';
import type { ResponseScript } from './scripts/definitions.ts';
import type { RouteConfig } from './types.ts';

export interface AdminHost {
  readonly journal: JournalStore;
  readonly url: string;
  readonly forwardTo: string | undefined;
  readonly timeScale: number | undefined;
  addRoute(r: RouteConfig): void;
  removeRoute(path: string): void;
  listRoutes(): RouteConfig[];
  script(s: ResponseScript | ResponseScript[]): void;
  scripts(): ResponseScript[];
  clearScripts(): void;
  reset(): void;
  close(): Promise<void>;
}
