/**
 * Everything a host suite needs, started once per Playwright worker: the service side (data API
 * + JWKS, or a view of the one shared by every worker of a target run), the signing keys, and the
 * receiver(s) under test. With CCS_HOST_TARGET the receiver
 * is the host team's, in the one signing mode of its target file; without it, the reference
 * receiver (fixtures/host-receiver) runs in-process twice, once per signing mode, so every
 * signature clause is exercised in both modes (CCS_HOST_FAULT picks a faulty variant).
 */
import { randomBytes } from 'node:crypto';
import { signatureFor, type SignerConfig } from '../../../protocol/index.ts';
import {
  startHostReceiver,
  DEFAULT_FACTS,
  type HostReceiver,
  type HostReceiverVariant,
} from '../../../fixtures/host-receiver/index.ts';
import { ccsError, registerSecret } from '../../../spec/index.ts';
import {
  classToSchema,
  DEFAULT_TIMEOUTS,
  defaultNoRetryWindowMs,
  loadHostTarget,
  type HostSandbox,
  type HostTarget,
} from '../../../target/host/target.ts';
import { startServiceSide } from './service-side.ts';
import { connectServiceSide } from './remote-service-side.ts';
import { observe, type Observer } from './observer.ts';
import type { Mode } from './modes.ts';
import { readSettings } from '../../../spec/index.ts';
import { newRunKeys, newSigningKey, publishedJwks } from './run-keys.ts';
import type { RunKeys, ServiceSide, SigningKey } from '../../../judge/host/index.ts';

export { newSigningKey, type SigningKey };

export type { Mode };

export interface ModeEndpoint {
  mode: Mode;
  hookUrl: string;
  hookPath: string;
  factsUrl?: string;
  factsPath?: string;
  /** HMAC: the current and (optional) previous secret the receiver was configured with. */
  secret?: string;
  previousSecret?: string;
  /** JWKS: the key the harness signs with (its public half is in the served JWKS). */
  key?: SigningKey;
  /** JWKS: a second key the served JWKS publishes under another kid, and a key it never publishes. */
  decoy?: SigningKey;
  stranger?: SigningKey;
  /** The signer config of a correct service in this mode. */
  signer: SignerConfig;
  /**
   * A sandbox workspace the target declares (2.1 "sb-"): its callbacks reach the same hook (4.1), signed with
   * its own secret (5.2 "Secrets: per workspace and per environment") or its own kid in the same document.
   */
  sandbox?: { workspaceKey: string; signer: SignerConfig; secret?: string; key?: SigningKey };
}

export interface HostHarness {
  target: HostTarget;
  reference: boolean;
  fault?: string;
  service: ServiceSide;
  /**
   * The one judge: keeps the ledger of every exchange the harness sends and judges it, and every request the
   * receiver made to the service side, at the end of each test (observer.ts).
   */
  observer: Observer;
  endpoints: Partial<Record<Mode, ModeEndpoint>>;
  sign(ep: ModeEndpoint, payload: string | Uint8Array, t?: number, signer?: SignerConfig): Promise<string | undefined>;
  newKey(): Promise<SigningKey>;
  close(): Promise<void>;
}

/** The reference receiver's FACTS class, in the fixture class format. */
export const REFERENCE_FACTS_CLASS = {
  fields: [
    { name: 'displayName', type: 'string', comment: 'How the user likes to be addressed' },
    { name: 'plan', type: 'string', comment: 'Subscription plan of the account' },
    { name: 'preferredLanguages', type: 'string[]', comment: 'Language names in English, most preferred first' },
  ],
};

/** The reference receiver's read deadline (HOST-13): its reads come within milliseconds of the acknowledgement. */
const REFERENCE_DATA_READ_MS = 4_000;

export interface HostHarnessOptions {
  /** A correct variant of the reference receiver (fixtures/host-receiver: a self test runs the judge against it). */
  variant?: HostReceiverVariant;
}

export async function startHostHarness(
  env: NodeJS.ProcessEnv = process.env,
  o: HostHarnessOptions = {},
): Promise<HostHarness> {
  const settings = readSettings(env);
  const file = settings.hostTarget;
  const portFromEnv = settings.servicePort === undefined ? undefined : Number(settings.servicePort);
  if (portFromEnv !== undefined && !(Number.isInteger(portFromEnv) && portFromEnv >= 0 && portFromEnv <= 65535)) {
    throw ccsError('TARGET_FIELD_INVALID', {
      field: 'CCS_SERVICE_PORT',
      problem: `CCS_SERVICE_PORT must be a port number (got '${settings.servicePort}')`,
    });
  }
  let keys: RunKeys | undefined;
  const closers: Array<() => Promise<void>> = [];
  const endpoints: Partial<Record<Mode, ModeEndpoint>> = {};
  let target: HostTarget;
  let service: ServiceSide;
  const fault = file ? undefined : settings.hostFault;

  if (file) {
    target = loadHostTarget(file, env);
    // One service side per run on the port the receiver was configured with, shared by every
    // worker (cli/commands/host.ts); without it (a bare Playwright run) this worker serves its own.
    if (settings.serviceControl) {
      registerSecret(new URL(settings.serviceControl).pathname.split('/').pop() ?? '');
      service = await connectServiceSide(settings.serviceControl);
      keys = await service.runKeys();
    } else {
      service = await startServiceSide({
        port: portFromEnv ?? target.servicePort ?? 0,
        workspaceKey: target.workspaceKey,
        ...(target.sandbox ? { sandboxWorkspaceKey: target.sandbox.workspaceKey } : {}),
        bearerToken: target.bearerToken,
      });
    }
    closers.push(() => service.close());
    keys ??= await newRunKeys(target.sandbox !== undefined);
    const s = target.signing;
    endpoints[s.mode] = endpoint(
      s.mode,
      target.hostBaseUrl,
      target.hookPath,
      target.factsPath,
      s.mode === 'hmac' ? s : undefined,
      keys,
      target.sandbox,
    );
  } else {
    // Test-only secrets, random per run: they never leave this process.
    const bearerToken = randomBytes(16).toString('hex');
    const hmac = { secret: randomBytes(24).toString('hex'), previousSecret: randomBytes(24).toString('hex') };
    // A sandbox of the reference's workspace (2.1), with its own HMAC secret (5.2), at the same hook (4.1).
    const sandbox = { workspaceKey: 'sb-host-ref', secret: randomBytes(24).toString('hex') };
    target = {
      description: fault ? `reference host receiver with fault ${fault}` : 'reference host receiver',
      hostBaseUrl: 'http://127.0.0.1',
      hookPath: '/hooks/ccs',
      factsPath: '/facts',
      factsSchema: classToSchema(REFERENCE_FACTS_CLASS, 'factsClass'),
      signing: { mode: 'hmac', ...hmac },
      workspaceKey: 'ws-host-ref',
      workspaceId: 'ws-host-ref',
      sandbox,
      configEnd: '/settings',
      // The reference reads within milliseconds: a shorter read deadline than a host team's default
      // keeps the mutation matrix's faulty readers quick to judge, and changes no verdict of it.
      // HOST-22's window stays the one a host team's default read deadline gives.
      bearerToken,
      timeouts: {
        ...DEFAULT_TIMEOUTS,
        dataReadMs: REFERENCE_DATA_READ_MS,
        noRetryWindowMs: defaultNoRetryWindowMs(DEFAULT_TIMEOUTS.dataReadMs),
      },
    };
    service = await startServiceSide({
      port: portFromEnv ?? 0,
      workspaceKey: target.workspaceKey,
      sandboxWorkspaceKey: sandbox.workspaceKey,
      bearerToken,
    });
    closers.push(() => service.close());
    keys = await newRunKeys(true);
    const dataApi = {
      baseUrl: service.url,
      workspaceKey: target.workspaceKey,
      sandboxWorkspaceKey: sandbox.workspaceKey,
      bearerToken,
    };
    const start = (signing: Parameters<typeof startHostReceiver>[0]['signing']): Promise<HostReceiver> =>
      startHostReceiver({
        signing,
        dataApi,
        facts: { ...DEFAULT_FACTS },
        ...(fault ? { fault } : {}),
        ...(o.variant ? { variant: o.variant } : {}),
      });
    const [h, j] = await Promise.all([
      start({ mode: 'hmac', ...hmac, sandboxSecret: sandbox.secret }),
      start({ mode: 'jwks', jwksUrl: service.jwksUrl }),
    ]);
    closers.push(
      () => h.close(),
      () => j.close(),
    );
    endpoints.hmac = endpoint('hmac', h.url, h.hookPath, h.factsPath, hmac, keys, sandbox);
    endpoints.jwks = endpoint('jwks', j.url, j.hookPath, j.factsPath, undefined, keys, sandbox);
  }
  // The document publishes the key and a decoy under another kid (HOST-7 step 2: the key of the
  // JWS's own kid, never another published one), and a declared sandbox's own key (5.2 "Environments":
  // a different kid, the same document); a shared service side published them at its start.
  if (!service.controlUrl) await service.setJwks(publishedJwks(keys));
  // Evidence and messages of this process are scrubbed of the target's credentials (spec/redact.ts).
  registerSecret(target.bearerToken);
  if (target.signing.mode === 'hmac') {
    registerSecret(target.signing.secret);
    registerSecret(target.signing.previousSecret);
    registerSecret(target.sandbox?.secret);
  }

  return {
    target,
    reference: !file,
    ...(fault ? { fault } : {}),
    service,
    observer: observe(service, {
      dataReadMs: target.timeouts.dataReadMs,
      ...(target.factsSchema ? { factsSchema: target.factsSchema } : {}),
    }),
    endpoints,
    sign: (ep, payload, t, signer) =>
      signatureFor({ config: signer ?? ep.signer, payload, ...(t === undefined ? {} : { t }) }),
    newKey: newSigningKey,
    close: async () => {
      for (const c of closers.reverse()) await c().catch(() => undefined);
    },
  };
}

function endpoint(
  mode: Mode,
  base: string,
  hookPath: string,
  factsPath: string | undefined,
  hmac: { secret: string; previousSecret?: string } | undefined,
  keys: RunKeys,
  sandbox?: HostSandbox,
): ModeEndpoint {
  const { key, sandbox: sandboxKey, ...published } = keys;
  const root = base.replace(/\/+$/, '');
  const signer: SignerConfig =
    mode === 'hmac'
      ? { mode: 'hmac', secret: hmac?.secret ?? '' }
      : mode === 'jwks'
        ? { mode: 'jwks', privateKey: key.privateKey, kid: key.kid }
        : { mode: 'none' };
  return {
    mode,
    hookUrl: root + hookPath,
    hookPath,
    ...(factsPath !== undefined ? { factsUrl: root + factsPath, factsPath } : {}),
    ...(hmac !== undefined
      ? { secret: hmac.secret, ...(hmac.previousSecret !== undefined ? { previousSecret: hmac.previousSecret } : {}) }
      : {}),
    ...(mode === 'jwks' ? { key, ...published } : {}),
    signer,
    ...(sandbox !== undefined ? { sandbox: sandboxEndpoint(mode, sandbox, sandboxKey) } : {}),
  };
}

/** A sandbox's signer: its own secret (HMAC), its own key under its own kid (JWKS), or none (5.2). */
function sandboxEndpoint(mode: Mode, sandbox: HostSandbox, key: SigningKey | undefined): ModeEndpoint['sandbox'] {
  const { workspaceKey, secret } = sandbox;
  if (mode === 'hmac') return { workspaceKey, secret: secret ?? '', signer: { mode: 'hmac', secret: secret ?? '' } };
  if (mode === 'jwks' && key !== undefined)
    return { workspaceKey, key, signer: { mode: 'jwks', privateKey: key.privateKey, kid: key.kid } };
  if (mode === 'jwks')
    throw ccsError('HOST_HARNESS_DEFECT', { problem: 'the run keys hold no key of the declared sandbox' });
  return { workspaceKey, signer: { mode: 'none' } };
}
