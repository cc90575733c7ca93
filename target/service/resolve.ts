/**
 * Resolves what the suites run against: a target file (CCS_TARGET) or, with none, the embedded
 * reference service started in-process (timeScale from CCS_TIME_SCALE, default 0.1; faults from
 * CCS_FAULTS; data API forms when a project declares them, else its default serving). The driver's
 * capability discovery decides what runs.
 */
import { startReferenceService } from '../../reference-service/index.ts';
import { ccsError } from '../../spec/index.ts';
import { DriverClient } from '../clients/driver-client.ts';
import { registerSecret } from '../../spec/index.ts';
import { loadTargetFile, readWorkspace, type TargetWorkspace } from './load.ts';
import type { Tolerances } from './timing.ts';
import {
  readSettings,
  resolveDataApiForms,
  describeDataApiForms,
  DEFAULT_DATA_API_FORMS,
  type DataApiForms,
} from '../../spec/index.ts';
import { parseTimeScale } from './time-scale.ts';
export { DEFAULT_EMBEDDED_TIME_SCALE, parseTimeScale } from './time-scale.ts';

export interface ResolvedTarget {
  /** Human description, no secrets. */
  description: string;
  baseUrl: string;
  driverUrl: string | undefined;
  capabilities: Set<string>;
  timeScale: number;
  tolerances: Tolerances;
  /** Bytes in a contract MB (UPLOAD-3 reading: 1,000,000 unless the target says 1048576). */
  limits: { megabyte: number };
  embedded: boolean;
  organizationId?: { valid: string; invalid: string };
  /** Header that carries the API key on upload routes (UNSPEC-19); 'authorization' = Bearer. */
  apiKeyHeader: string;
  /** The service's JWKS URL (driver capabilities or the target file). */
  jwksUrl: string | undefined;
  /** Fixed workspaces from the target file (used when no driver creates them). */
  workspaces: { production: TargetWorkspace; sandbox?: TargetWorkspace } | undefined;
  /** How the mock host listens and how the service reaches it. */
  mockHost: { listenHost: string; port: number; publicUrl: string | undefined };
  /** Faults seeded into the embedded reference (CCS_FAULTS). */
  faults: string[];
  /**
   * The forms the contract leaves open about the data API (UNSPEC-8, UNSPEC-9), as the target
   * declares them (`dataApi`): every data API request of the suites is written in them.
   */
  dataApi: DataApiForms;
}

export const DEFAULT_TOLERANCES: Tolerances = { minMs: 250, relative: 0.25 };

export interface TargetSession {
  target: ResolvedTarget;
  close(): Promise<void>;
}

export function parseFaults(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function discover(
  driverUrl: string | undefined,
): Promise<{ timeScale?: number; capabilities: Set<string>; jwksUrl?: string }> {
  if (!driverUrl) return { capabilities: new Set() };
  const caps = await new DriverClient(driverUrl).capabilities();
  return { timeScale: caps.timeScale, capabilities: new Set(caps.capabilities), jwksUrl: caps.jwksUrl };
}

/**
 * @param o.realtime run at time scale 1 (the service-realtime project): the
 *   embedded reference is started with timeScale 1; a target file keeps its own scale.
 * @param o.dataApi forms for the embedded reference (a project of the data API forms run): it then
 *   serves only these forms, and the suites write in them. Without, it serves its default forms.
 */
export async function resolveTarget(
  o: { realtime?: boolean; env?: NodeJS.ProcessEnv; dataApi?: DataApiForms } = {},
): Promise<TargetSession> {
  const env = o.env ?? process.env;
  const settings = readSettings(env);
  const file = settings.target;
  if (!file) {
    const timeScale = o.realtime ? 1 : parseTimeScale(settings.timeScale);
    const faults = settings.faults;
    const svc = await startReferenceService({
      port: 0,
      timeScale,
      faults,
      ...(o.dataApi ? { dataApi: o.dataApi } : {}),
    });
    try {
      const d = await discover(svc.driverUrl);
      return {
        target: {
          description: `embedded reference service at time scale ${timeScale}${faults.length ? ` with seeded faults ${faults.join(', ')}` : ''}${o.dataApi ? ` serving only the data API forms: ${describeDataApiForms(o.dataApi)}` : ''}`,
          baseUrl: svc.url,
          driverUrl: svc.driverUrl,
          capabilities: d.capabilities,
          timeScale: d.timeScale ?? timeScale,
          tolerances: { ...DEFAULT_TOLERANCES },
          limits: { megabyte: 1_000_000 },
          embedded: true,
          apiKeyHeader: 'authorization',
          jwksUrl: d.jwksUrl,
          workspaces: undefined,
          mockHost: { listenHost: '127.0.0.1', port: 0, publicUrl: undefined },
          faults,
          dataApi: o.dataApi ?? { ...DEFAULT_DATA_API_FORMS },
        },
        close: () => svc.close(),
      };
    } catch (error) {
      await svc.close();
      throw error;
    }
  }
  const t = loadTargetFile(file);
  const name = file.split(/[\\/]/).pop() ?? 'target';
  const workspaces = t.workspaces
    ? {
        production: readWorkspace(t.workspaces.production, 'workspaces.production', name, env),
        ...(t.workspaces.sandbox
          ? { sandbox: readWorkspace(t.workspaces.sandbox, 'workspaces.sandbox', name, env) }
          : {}),
      }
    : undefined;
  for (const w of [workspaces?.production, workspaces?.sandbox]) {
    if (w) for (const s of [w.apiKey, w.bearerToken, w.embedAuthorization, w.hmacSecret]) registerSecret(s);
  }
  if (!t.service.driverUrl && !workspaces) {
    throw ccsError('TARGET_FIELD_INVALID', {
      field: 'workspaces',
      problem: `${name}: workspaces: is required when service.driverUrl is absent (no driver to create workspaces)`,
    });
  }
  const d = await discover(t.service.driverUrl);
  const result: ResolvedTarget = {
    description:
      t.description ?? `service at ${t.service.baseUrl}${t.service.driverUrl ? ' with a driver' : ' without a driver'}`,
    baseUrl: t.service.baseUrl.replace(/\/$/, ''),
    driverUrl: t.service.driverUrl,
    capabilities: d.capabilities,
    timeScale: d.timeScale ?? t.timing?.timeScale ?? 1,
    tolerances: {
      minMs: t.timing?.tolerances?.minMs ?? DEFAULT_TOLERANCES.minMs,
      relative: t.timing?.tolerances?.relative ?? DEFAULT_TOLERANCES.relative,
    },
    limits: { megabyte: t.limits?.megabyte ?? 1_000_000 },
    embedded: false,
    apiKeyHeader: (t.service.apiKeyHeader ?? 'authorization').toLowerCase(),
    jwksUrl: d.jwksUrl ?? t.signing?.jwksUrl,
    workspaces,
    mockHost: {
      listenHost: t.mockHost?.listenHost ?? '127.0.0.1',
      port: t.mockHost?.port ?? 0,
      publicUrl: t.mockHost?.publicUrl,
    },
    faults: [],
    dataApi: resolveDataApiForms(t.dataApi, name),
  };
  if (t.organizationId) result.organizationId = t.organizationId;
  return { target: result, close: async () => undefined };
}
