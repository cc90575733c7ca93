/**
 * `ccs-conformance reference-service`: start the reference service standalone, optionally with
 * seeded faults. Serves until SIGINT/SIGTERM. Exit codes: 0 after a clean stop or --list-faults,
 * 2 for a usage or configuration error.
 */
import { fileURLToPath } from 'node:url';
import { bool, list, parseArgs, str, type FlagSpec } from '../args.ts';
import { FAULTS, loadWorkspaceFixture, startReferenceService, type WorkspaceFixture } from '../../reference-service/index.ts';

const DEFAULT_FIXTURE = fileURLToPath(new URL('../../fixtures/workspaces/default.yaml', import.meta.url));

const USAGE = `Usage: ccs-conformance reference-service [options]

Options:
  --port N            port to listen on (default 8080; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --time-scale X      multiply every contract timer by X (e.g. 0.1; default 1)
  --fault NAME        switch on a seeded fault (repeatable; see --list-faults)
  --workspaces FILE   workspace fixture (YAML; default fixtures/workspaces/default.yaml)
  --no-driver         do not mount the driver API under /__driver
  --list-faults       print the seeded faults (name, clause id, sentence; tab-separated) and exit
  --help              this text`;

interface Args {
  port: number;
  host: string;
  timeScale: number;
  faults: string[];
  workspaces: string;
  driver: boolean;
  listFaults: boolean;
  help: boolean;
}

const REFERENCE_SERVICE_FLAGS: FlagSpec[] = [
  { name: 'port', kind: 'string', value: 'N', help: 'port to listen on' },
  { name: 'host', kind: 'string', value: 'H', help: 'address to bind' },
  { name: 'time-scale', kind: 'string', value: 'X', help: 'multiply every contract timer by X' },
  { name: 'fault', kind: 'list', value: 'NAME', help: 'switch on a seeded fault' },
  { name: 'workspaces', kind: 'string', value: 'FILE', help: 'workspace fixture' },
  { name: 'no-driver', kind: 'boolean', help: 'no driver API' },
  { name: 'list-faults', kind: 'boolean', help: 'print the seeded faults' },
  { name: 'help', kind: 'boolean', short: 'h', help: 'this text' },
];

function parseFlags(argv: string[]): Args | string {
  let p: ReturnType<typeof parseArgs>;
  try {
    p = parseArgs(argv, REFERENCE_SERVICE_FLAGS);
  } catch (error) {
    return (error as Error).message;
  }
  const a: Args = { port: 8080, host: '127.0.0.1', timeScale: 1, faults: list(p, 'fault'), workspaces: str(p, 'workspaces') ?? DEFAULT_FIXTURE, driver: !bool(p, 'no-driver'), listFaults: bool(p, 'list-faults'), help: bool(p, 'help') };
  const port = str(p, 'port');
  if (port !== undefined) {
    const n = Number(port);
    if (port.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) return `--port needs an integer from 0 to 65535, got ${port}`;
    a.port = n;
  }
  const host = str(p, 'host');
  if (host !== undefined) {
    if (!host) return '--host needs an address';
    a.host = host;
  }
  const scale = str(p, 'time-scale');
  if (scale !== undefined) {
    const n = Number(scale);
    if (scale.trim() === '' || !Number.isFinite(n) || n <= 0) return `--time-scale needs a positive number, got ${scale}`;
    a.timeScale = n;
  }
  if (a.faults.some((f) => !f)) return '--fault needs a fault name (see --list-faults)';
  if (!a.workspaces) return '--workspaces needs a file';
  return a;
}

export function faultLines(): string[] {
  return FAULTS.map((f) => `${f.name}\t${f.clause}\t${f.sentence}`);
}

function describe(workspaces: WorkspaceFixture[]): string[] {
  const lines = ['Workspaces (TEST-ONLY fixture credentials, valid only against this reference service):'];
  for (const w of workspaces) {
    lines.push(`  ${w.workspaceKey}${w.parentWorkspaceKey ? ` (sandbox of ${w.parentWorkspaceKey})` : ''}`);
    if (w.apiKey) lines.push(`    API key (X-Api-Key or Authorization: Bearer): ${w.apiKey}`);
    if (w.apiKey) lines.push(`    embed-tokens Authorization: Bearer ${w.apiKey}`);
    if (w.bearerToken) lines.push(`    data API Authorization: Bearer ${w.bearerToken}`);
  }
  return lines;
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`ccs-conformance reference-service: ${parsed}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.listFaults) {
    process.stdout.write(`${faultLines().join('\n')}\n`);
    return 0;
  }
  let workspaces: WorkspaceFixture[];
  let service;
  try {
    workspaces = loadWorkspaceFixture(parsed.workspaces);
    service = await startReferenceService({ port: parsed.port, host: parsed.host, timeScale: parsed.timeScale, faults: parsed.faults, driver: parsed.driver, workspaces });
  } catch (error) {
    process.stderr.write(`ccs-conformance reference-service: ${(error as Error).message}\n`);
    return 2;
  }
  const out = [
    `Reference service listening on ${service.url}`,
    `  JWKS: ${service.url}/.well-known/service/jwks.json`,
    parsed.driver ? `  Driver API: ${service.driverUrl}` : '  Driver API: off (--no-driver)',
    `  Time scale: ${service.timeScale}`,
    `  Seeded faults: ${service.faults.length ? service.faults.join(', ') : 'none'}`,
    ...describe(workspaces),
    'Set hostBaseUrl with PATCH /__driver/workspaces/{workspaceKey} to receive callbacks. Ctrl-C stops.',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await service.close();
  return 0;
}
