/**
 * `ccs-conformance reference-service`: start the reference service standalone, optionally with
 * seeded faults. Serves until SIGINT/SIGTERM. Exit codes: 0 after a clean stop or --list-faults,
 * 2 for a usage or configuration error.
 */
import { fileURLToPath } from 'node:url';
import { bool, list, parseArgs, str, type FlagSpec } from '../args.ts';
import {
  FAULTS,
  loadWorkspaceFixture,
  startReferenceService,
  type WorkspaceFixture,
} from '../../reference-service/index.ts';
import {
  CONFIG_END_FORMS,
  KEYED_WRITE_FORMS,
  WRITE_BODY_FORMS,
  describeDataApiForms,
  type DataApiForms,
} from '../../spec/index.ts';

const DEFAULT_FIXTURE = fileURLToPath(new URL('../../fixtures/workspaces/default.yaml', import.meta.url));

const USAGE = `Usage: ccs-conformance reference-service [options]

Options:
  --port N            port to listen on (default 8080; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --time-scale X      multiply every contract timer by X (e.g. 0.1; default 1)
  --fault NAME        switch on a seeded fault (repeatable; see --list-faults)
  --workspaces FILE   workspace fixture (YAML; default fixtures/workspaces/default.yaml)
  --no-driver         do not mount the driver API under /__driver
  --configend-form F  serve configEnd in the data API path only as F: without-slash (/endpoints/profile/...),
                      with-slash (/endpoints//profile/...) or encoded (/endpoints/%2Fprofile/...)
  --keyed-write F     serve a keyed write only as F: path (POST .../data/{endUserHandle}/{serviceKey})
                      or body (POST .../data/{endUserHandle}, the key in the member --key-field names)
  --key-field NAME    the body member of a keyed write's serviceKey with --keyed-write body (default serviceKey)
  --write-body F      serve only the write body F: data ({"data": {...}}) or bare (the field map)
                      With none of these four, the default forms are served: configEnd without its slash or
                      %2F-encoded, the key in the path or in "serviceKey", the body {"data": {...}}.
                      With any, only the declared forms (the others at the target file's defaults).
  --list-faults       print the seeded faults (name, clause id, sentence; tab-separated) and exit
  --help              this text`;

interface Args {
  port: number;
  host: string;
  timeScale: number;
  faults: string[];
  workspaces: string;
  driver: boolean;
  dataApi: Partial<DataApiForms> | undefined;
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
  { name: 'configend-form', kind: 'string', value: 'F', help: 'configEnd form of the data API path served' },
  { name: 'keyed-write', kind: 'string', value: 'F', help: 'keyed write form served' },
  { name: 'key-field', kind: 'string', value: 'NAME', help: "body member of a keyed write's key" },
  { name: 'write-body', kind: 'string', value: 'F', help: 'write body form served' },
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
  const a: Args = {
    port: 8080,
    host: '127.0.0.1',
    timeScale: 1,
    faults: list(p, 'fault'),
    workspaces: str(p, 'workspaces') ?? DEFAULT_FIXTURE,
    driver: !bool(p, 'no-driver'),
    dataApi: undefined,
    listFaults: bool(p, 'list-faults'),
    help: bool(p, 'help'),
  };
  const port = str(p, 'port');
  if (port !== undefined) {
    const n = Number(port);
    if (port.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)
      return `--port needs an integer from 0 to 65535, got ${port}`;
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
    if (scale.trim() === '' || !Number.isFinite(n) || n <= 0)
      return `--time-scale needs a positive number, got ${scale}`;
    a.timeScale = n;
  }
  if (a.faults.some((f) => !f)) return '--fault needs a fault name (see --list-faults)';
  // UNSPEC-8, UNSPEC-9: the data API forms served, named like the target file's dataApi fields.
  const forms: Partial<DataApiForms> = {};
  const configEnd = str(p, 'configend-form');
  if (configEnd !== undefined) {
    if (!(CONFIG_END_FORMS as readonly string[]).includes(configEnd))
      return `--configend-form needs one of ${CONFIG_END_FORMS.join(', ')}, got ${configEnd}`;
    forms.configEnd = configEnd as DataApiForms['configEnd'];
  }
  const keyed = str(p, 'keyed-write');
  if (keyed !== undefined) {
    if (!(KEYED_WRITE_FORMS as readonly string[]).includes(keyed))
      return `--keyed-write needs one of ${KEYED_WRITE_FORMS.join(', ')}, got ${keyed}`;
    forms.keyedWrite = keyed as DataApiForms['keyedWrite'];
  }
  const keyField = str(p, 'key-field');
  if (keyField !== undefined) {
    if (!keyField) return '--key-field needs a body member name';
    forms.keyField = keyField;
  }
  const body = str(p, 'write-body');
  if (body !== undefined) {
    if (!(WRITE_BODY_FORMS as readonly string[]).includes(body))
      return `--write-body needs one of ${WRITE_BODY_FORMS.join(', ')}, got ${body}`;
    forms.writeBody = body as DataApiForms['writeBody'];
  }
  if (Object.keys(forms).length > 0) a.dataApi = forms;
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
    service = await startReferenceService({
      port: parsed.port,
      host: parsed.host,
      timeScale: parsed.timeScale,
      faults: parsed.faults,
      driver: parsed.driver,
      workspaces,
      ...(parsed.dataApi ? { dataApi: parsed.dataApi } : {}),
    });
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
    `  Data API forms: ${service.dataApi ? `only ${describeDataApiForms(service.dataApi)}` : 'the defaults (configEnd without its slash or %2F-encoded; the key in the path or in "serviceKey"; body {"data": {...}})'}`,
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
