/**
 * `ccs-conformance reference-service`: start the reference service standalone, optionally with
 * seeded faults. Serves until SIGINT/SIGTERM. Exit codes: 0 after a clean stop or --list-faults,
 * 2 for a usage or configuration error.
 */
import { fileURLToPath } from 'node:url';
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

function parseArgs(argv: string[]): Args | string {
  const a: Args = { port: 8080, host: '127.0.0.1', timeScale: 1, faults: [], workspaces: DEFAULT_FIXTURE, driver: true, listFaults: false, help: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--port': {
        const v = value();
        const n = Number(v);
        if (v === undefined || !Number.isInteger(n) || n < 0 || n > 65535) return `--port needs an integer from 0 to 65535, got ${String(v)}`;
        a.port = n;
        break;
      }
      case '--host': {
        const v = value();
        if (!v) return '--host needs an address';
        a.host = v;
        break;
      }
      case '--time-scale': {
        const v = value();
        const n = Number(v);
        if (v === undefined || !Number.isFinite(n) || n <= 0) return `--time-scale needs a positive number, got ${String(v)}`;
        a.timeScale = n;
        break;
      }
      case '--fault': {
        const v = value();
        if (!v) return '--fault needs a fault name (see --list-faults)';
        a.faults.push(v);
        break;
      }
      case '--workspaces': {
        const v = value();
        if (!v) return '--workspaces needs a file';
        a.workspaces = v;
        break;
      }
      case '--no-driver': a.driver = false; break;
      case '--list-faults': a.listFaults = true; break;
      case '--help': case '-h': a.help = true; break;
      default: return `unknown option ${arg}`;
    }
  }
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
  const parsed = parseArgs(argv);
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
