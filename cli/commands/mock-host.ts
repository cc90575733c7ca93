/**
 * `ccs-conformance mock-host`: the scriptable mock host as a standalone server. Prints one line
 * per request as it arrives and as it completes, serves until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { parseArgs, type FlagSpec, type Parsed } from '../args.ts';
import {
  MockHost,
  parseScripts,
  printRequestLines,
  type MockHostOptions,
  type RouteConfig,
  type SigningConfig,
} from '../../mock-host/index.ts';
import { ccsError, isCcsError } from '../../spec/index.ts';
import { SIGNING_FLAGS, signingFlags, type SigningFlags } from './signing-flags.ts';

const HELP = `Usage: ccs-conformance mock-host [options]

A host application for a service under test: records every callback byte for byte, verifies
signatures, answers as scripted, and explains each request. Journal: GET /__admin/journal.

Options:
  --port N                 port to listen on (default 0: any free port; the URL is printed)
  --host ADDR              address to listen on (default 127.0.0.1)
  --hook-path PATH         lifecycle callback route (repeatable; default /hooks when no route given)
  --tool-path PATH         tool dispatch route (repeatable)
  --facts-path PATH        user-facts GET route (repeatable)
  --signing MODE           none, hmac or jwks: the mode the workspaces sign in (default: what the flags below
                           imply; with neither, the presence of the signature header is not judged)
  --hmac-secret-file [WS=]F  HMAC mode: file holding one secret, for every workspace or bound to workspace
                           WS (repeatable: a rotation, either accepted; another workspace)
  --jwks-url URL           JWKS mode: the service's /.well-known/service/jwks.json
  --script FILE            response scripts (JSON or YAML)
  --enforce                answer 401 when signature verification fails
  --forward-to URL         relay each request (same method, path, headers, body bytes) to a local app
  --time-scale X           the service's time scale: the inspector scales the contract's windows by it
  --max-entries N          keep at most N journal entries (default: all)
  --body-limit BYTES       largest body accepted (default 1048576; larger ones get 413)
  --quiet                  print only the start line
  -h, --help               this text

Inspector: a live page at /__admin/ui (events: GET /__admin/events; replay: POST /__admin/replay/:id).
Admin API: GET /__admin/journal[?path=&event=&deliveryId=&kind=&since=], GET /__admin/journal.jsonl,
GET /__admin/deliveries, POST|DELETE /__admin/scripts, POST /__admin/reset, POST /__admin/routes.
`;

function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw ccsError('CLI_FLAG_INVALID', { flag: name, rule: `an integer >= ${min}`, got: `"${v}"` });
  return n;
}

export const MOCK_HOST_FLAGS: FlagSpec[] = [
  { name: 'port', kind: 'string', value: 'N', help: 'port to listen on' },
  { name: 'host', kind: 'string', value: 'H', help: 'address to bind' },
  { name: 'hook-path', kind: 'list', value: 'PATH', help: 'a lifecycle callback route' },
  { name: 'tool-path', kind: 'list', value: 'PATH', help: 'a tool dispatch route' },
  { name: 'facts-path', kind: 'list', value: 'PATH', help: 'a user-facts route' },
  ...SIGNING_FLAGS,
  { name: 'script', kind: 'string', value: 'FILE', help: 'response scripts (JSON or YAML)' },
  { name: 'enforce', kind: 'boolean', help: 'answer 401 to a bad signature' },
  { name: 'forward-to', kind: 'string', value: 'URL', help: 'relay every request to this app' },
  { name: 'max-entries', kind: 'string', value: 'N', help: 'journal bound' },
  {
    name: 'time-scale',
    kind: 'string',
    value: 'X',
    help: 'the service time scale: the inspector scales the contract windows by it',
  },
  { name: 'body-limit', kind: 'string', value: 'BYTES', help: 'largest body accepted' },
  { name: 'quiet', kind: 'boolean', help: 'no line per request' },
  { name: 'help', kind: 'boolean', short: 'h', help: 'this text' },
];

/**
 * The mock host's options from its flags (shared with `observe`, which starts the same host).
 * Throws a CcsError of the CLI room whose message is the usage problem (a bad script: the mock host's
 * MOCKHOST_SCRIPT_INVALID); reads the secret and script files named.
 */
export function mockHostOptions(values: Parsed['flags'], flags: SigningFlags = signingFlags(values)): MockHostOptions {
  // no signing mode declared or implied: the workspace's mode is unknown, so presence of the header is not judged
  const { signing } = flags;
  const routes: RouteConfig[] = [];
  for (const p of (values['hook-path'] as string[] | undefined) ?? []) routes.push({ kind: 'lifecycle', path: p });
  for (const p of (values['tool-path'] as string[] | undefined) ?? []) routes.push({ kind: 'tool', path: p });
  for (const p of (values['facts-path'] as string[] | undefined) ?? []) routes.push({ kind: 'facts', path: p });
  if (routes.length === 0) routes.push({ kind: 'lifecycle', path: '/hooks' });
  const options: MockHostOptions = { routes, enforce: values.enforce === true, ...(signing ? { signing } : {}) };
  const port = int('port', values.port as string | undefined, 0);
  if (port !== undefined) {
    if (port > 65535) throw ccsError('CLI_FLAG_INVALID', { flag: 'port', rule: 'at most 65535', got: port });
    options.port = port;
  }
  if (typeof values.host === 'string') options.host = values.host;
  const maxEntries = int('max-entries', values['max-entries'] as string | undefined, 1);
  if (maxEntries !== undefined) options.maxEntries = maxEntries;
  if (typeof values['time-scale'] === 'string') {
    const scale = Number(values['time-scale']);
    if (!Number.isFinite(scale) || scale <= 0) {
      throw ccsError('CLI_FLAG_INVALID', {
        flag: 'time-scale',
        rule: 'a number > 0',
        got: `"${values['time-scale']}"`,
      });
    }
    options.timeScale = scale;
  }
  const bodyLimit = int('body-limit', values['body-limit'] as string | undefined, 1);
  if (bodyLimit !== undefined) options.bodyLimit = bodyLimit;
  if (typeof values['forward-to'] === 'string') {
    if (!/^https?:\/\/[^/]+/.test(values['forward-to'])) {
      const got = `"${values['forward-to']}"`;
      throw ccsError('CLI_FLAG_INVALID', { flag: 'forward-to', rule: 'an absolute http URL', got });
    }
    options.forwardTo = values['forward-to'];
  }
  if (typeof values.script === 'string') {
    let text: string;
    try {
      text = readFileSync(values.script, 'utf8');
    } catch (error) {
      const errno = (error as NodeJS.ErrnoException).code ?? 'error';
      throw ccsError('CLI_FILE_UNREADABLE', { flag: 'script', file: values.script, errno });
    }
    options.scripts = parseScripts(text);
  }
  return options;
}

export async function run(argv: string[]): Promise<number> {
  let values: Parsed['flags'];
  try {
    ({ flags: values } = parseArgs(argv, MOCK_HOST_FLAGS));
  } catch (error) {
    process.stderr.write(`ccs-conformance mock-host: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  let options: MockHostOptions;
  try {
    options = mockHostOptions(values);
  } catch (error) {
    // a flag's problem (a code of the CLI room) is the usage line itself; another room's error names its code
    const msg =
      isCcsError(error) && !error.code.startsWith('CLI_')
        ? `${error.code}: ${error.message}`
        : (error as Error).message;
    process.stderr.write(`ccs-conformance mock-host: ${msg}\n`);
    return 2;
  }
  // This process is only the mock host, and its journal is the bulk of the heap. Under load V8's
  // allocation-site pretenuring put short-lived request objects into the old generation in most
  // saturated runs of npm run bench:mock-host (young collections 2.5 times as long); the flag is
  // read at each collection, so it takes effect when set here. An embedded MockHost leaves the
  // flags of its process alone: that process is the user's.
  setFlagsFromString('--no-allocation-site-pretenuring');
  let host: MockHost;
  try {
    host = await MockHost.start(options);
  } catch (error) {
    process.stderr.write(`ccs-conformance mock-host: cannot start: ${(error as Error).message}\n`);
    return 2;
  }
  const routeText = host
    .listRoutes()
    .map((r) => `${r.kind} ${r.path}`)
    .join(', ');
  const signingMode = options.signing?.mode ?? 'not configured, signatures recorded but not verified';
  process.stdout.write(
    `mock host listening on ${host.url} (routes: ${routeText}; signing: ${signingMode}${options.enforce ? ', enforced' : ''}${options.forwardTo ? `; forwarding to ${options.forwardTo}` : ''})\n`,
  );
  process.stdout.write(`journal: ${host.url}/__admin/journal\n`);
  process.stdout.write(`inspector: ${host.url}/__admin/ui\n`);
  // written off the request path, gathered per turn of the event loop
  const stopLines = values.quiet ? () => undefined : printRequestLines(host.journal, process.stdout);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await host.close();
  stopLines();
  process.stdout.write(`mock host stopped after ${host.journal.entries().length + host.journal.dropped} request(s)\n`);
  return 0;
}
