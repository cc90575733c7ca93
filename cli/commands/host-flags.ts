/**
 * The flags of `ccs-conformance host`: their help, the checks of their combinations, the target file
 * written from them, and the ones each printed rerun line repeats (host.ts runs the suites).
 */
import { resolve } from 'node:path';
import { HOST_FAULTS } from '../../suites/host/index.ts';
import {
  type FlagSpec,
  type Parsed,
  HELP_FLAG,
  helpText,
  REPORT_DIR_FLAG,
  REQUIRE_FULL_FLAG,
  str,
  usageError,
  VERBOSE_FLAG,
} from '../args.ts';

/** Default port of the service side for a host target when neither flag nor file fixes one. */
export const DEFAULT_SERVICE_PORT = 4470;

/**
 * Workers when neither --workers nor CCS_WORKERS says, for the reference receiver and a target
 * alike: the tests are independent (fresh conversations, handles and keys each; a target's
 * service side is served once and shared), and a receiver that never answers costs each failed
 * test one 10 s wait plus a worker restart, so tests in flight at once set the run's length.
 * They mostly wait, so more workers than cores pay off, but each costs about 1 s of CPU to start, which a healthy
 * run pays too (its length is set by HOST-22's 11 s no-retry window plus that start). 9 holds the 27 host tests in
 * three rounds of 10 s waits against a receiver that never answers. Measured on 2 cores: the reference receiver
 * that never answers 37 s with 14 workers, 47 s with 12, 61 to 71 s with 6; a healthy receiver about 16 s with 6
 * and 19 s with 14 on a quiet machine, so 14 would leave the healthy run's 20 s bar a second's margin.
 */
export const HOST_WORKERS = 9;

export const HOST_FLAGS: FlagSpec[] = [
  {
    name: 'target',
    kind: 'string',
    value: 'FILE',
    help: 'host target file (YAML); default: the reference host receiver',
  },
  {
    name: 'base-url',
    kind: 'string',
    value: 'URL',
    help: 'instead of a file: hostBaseUrl of the receiver, e.g. http://127.0.0.1:3000',
  },
  {
    name: 'hook-path',
    kind: 'string',
    value: 'PATH',
    help: 'with --base-url: hookPath of the callback receiver (default /hooks/ccs)',
  },
  {
    name: 'facts-path',
    kind: 'string',
    value: 'PATH',
    help: 'with --base-url: callback path of the FACTS class (facts tests skipped without it)',
  },
  {
    name: 'facts-schema',
    kind: 'string',
    value: 'FILE',
    help: 'with --base-url: JSON Schema (JSON or YAML) of the facts object',
  },
  { name: 'signing', kind: 'string', value: 'MODE', help: 'with --base-url: hmac, jwks or none (default hmac)' },
  {
    name: 'secret-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the HMAC secret',
  },
  {
    name: 'previous-secret-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the previous HMAC secret (rotation)',
  },
  {
    name: 'bearer-token-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the Bearer token the receiver sends to the data API',
  },
  {
    name: 'service-port',
    kind: 'string',
    value: 'N',
    help: `port of the harness's data API and JWKS (default ${DEFAULT_SERVICE_PORT} for a target, random for the reference)`,
  },
  { name: 'fault', kind: 'string', value: 'NAME', help: 'run the reference receiver as one of its faulty variants' },
  {
    name: 'grep',
    kind: 'list',
    value: 'CLAUSE-ID',
    help: 'run only the tests citing this clause, e.g. HOST-8, or whose title matches a text (repeatable)',
  },
  {
    name: 'seed',
    kind: 'string',
    value: 'N',
    help: 'fast-check seed of the generated payloads and value classes (replays a failure)',
  },
  {
    name: 'runs',
    kind: 'string',
    value: 'N',
    help: 'sequences of the model-based test (default 16, about 3 s); more explore deeper (CCS_HOST_MODEL_RUNS)',
  },
  { name: 'workers', kind: 'string', value: 'N', help: `Playwright workers (default ${HOST_WORKERS})` },
  {
    name: 'no-preflight',
    kind: 'boolean',
    help: 'with --target/--base-url: skip the check that the receiver accepts connections',
  },
  REQUIRE_FULL_FLAG,
  REPORT_DIR_FLAG,
  VERBOSE_FLAG,
  HELP_FLAG,
];

export const HOST_HELP = helpText(
  'ccs-conformance host [--target FILE | --base-url URL ...] [options]',
  'Runs the host conformance suites: signed callbacks and facts GETs to your receiver, and a data API and JWKS for it to read.',
  HOST_FLAGS,
  [
    `Faulty variants of the reference receiver: ${HOST_FAULTS.map((f) => f.name).join(', ')}.`,
    'Exit codes: 0 every MUST clause passed; 1 a MUST clause failed, or --require-full a MUST clause that passed',
    "only partly; 2 usage or target file error, or nothing listens at the receiver's hostBaseUrl or servicePort",
    'cannot be served (preflight; no clause is run).',
    'A failed SHOULD only warns; a clause that passed only partly (a test citing it skipped) is a note.',
  ],
);

/** A target built from flags: secrets stay in the environment, the file holds their names only. */
export function targetFromFlags(p: Parsed): Record<string, unknown> {
  const signingMode = str(p, 'signing') ?? 'hmac';
  const signing: Record<string, unknown> = { mode: signingMode };
  if (str(p, 'secret-env')) signing.secretEnv = str(p, 'secret-env');
  if (str(p, 'previous-secret-env')) signing.previousSecretEnv = str(p, 'previous-secret-env');
  const target: Record<string, unknown> = {
    hostBaseUrl: str(p, 'base-url'),
    hookPath: str(p, 'hook-path') ?? '/hooks/ccs',
    signing,
    dataApi: { bearerTokenEnv: str(p, 'bearer-token-env') ?? 'CCS_HOST_BEARER_TOKEN' },
  };
  if (str(p, 'facts-path')) target.factsPath = str(p, 'facts-path');
  const schemaFile = str(p, 'facts-schema');
  if (schemaFile) target.factsClass = { schemaFile: resolve(schemaFile) };
  return target;
}

/** The flags that chose the receiver, repeated in each printed rerun line (never a secret: only names of variables). */
const RECEIVER_FLAGS = [
  'base-url',
  'hook-path',
  'facts-path',
  'facts-schema',
  'signing',
  'secret-env',
  'previous-secret-env',
  'bearer-token-env',
  'service-port',
  'fault',
];

export function reproArgs(p: Parsed): string[] {
  const args: string[] = [];
  const target = str(p, 'target');
  if (target) args.push('--target', target);
  for (const f of RECEIVER_FLAGS) {
    const v = str(p, f);
    if (v !== undefined) args.push(`--${f}`, v);
  }
  return args;
}

/** The flag combinations `host` refuses (exit 2): a target and flags, a fault for a target, an unknown fault. */
export function checkReceiverFlags(p: Parsed): void {
  const fault = str(p, 'fault');
  const targetArg = str(p, 'target');
  const baseUrl = str(p, 'base-url');
  if (targetArg && baseUrl) throw usageError('give either --target FILE or --base-url, not both');
  if ((targetArg || baseUrl) && fault)
    throw usageError('--fault applies to the reference host receiver only; drop --target/--base-url or --fault');
  if (fault && !HOST_FAULTS.some((f) => f.name === fault))
    throw usageError(
      `--fault ${fault}: not a faulty variant of the reference receiver (known: ${HOST_FAULTS.map((f) => f.name).join(', ')})`,
    );
  if (!baseUrl)
    for (const f of [
      'hook-path',
      'facts-path',
      'facts-schema',
      'signing',
      'secret-env',
      'previous-secret-env',
      'bearer-token-env',
    ]) {
      if (str(p, f) !== undefined) throw usageError(`--${f} goes with --base-url (a target file holds it otherwise)`);
    }
}
