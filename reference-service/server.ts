/** startReferenceService: the fastify app, its routes, the driver and the delivery engine. */
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { ccsError, CcsError, resolveDataApiForms, type DataApiForms } from '../spec/index.ts';
import { createClock } from './clock.ts';
import { ServiceContext } from './context.ts';
import { Deliverer } from './delivery.ts';
import { driverErrorReply, registerDriver } from './driver.ts';
import { FaultSet } from './faults.ts';
import { errorBody } from './http-errors.ts';
import type { ServiceLogLine, WorkspaceFixture } from './model.ts';
import { registerData } from './routes/data.ts';
import { registerEmbed } from './routes/embed.ts';
import { registerJwks } from './routes/jwks.ts';
import { registerUpload } from './routes/upload.ts';
import { registerOutage } from './outage.ts';
import { createKeyRing } from './signing.ts';
import { createWorkspace, DriverError } from './workspaces.ts';

export interface ReferenceServiceOptions {
  port?: number;
  host?: string;
  timeScale?: number;
  faults?: string[];
  /** Mount /__driver (default true). */
  driver?: boolean;
  workspaces?: WorkspaceFixture[];
  log?: (line: ServiceLogLine) => void;
  /**
   * Serve only these forms of the data API (UNSPEC-8, UNSPEC-9: how configEnd is written in the
   * path, the keyed write, the write body), as a service that chose them would. Without: the default
   * forms, configEnd without its slash or %2F-encoded, the key in the path or in `serviceKey`, body {"data": {...}}.
   */
  dataApi?: Partial<DataApiForms>;
}

export interface ReferenceService {
  url: string;
  /** url + '/__driver' */
  driverUrl: string;
  timeScale: number;
  faults: string[];
  /** The data API forms served, when declared at start. */
  dataApi: DataApiForms | undefined;
  close(): Promise<void>;
}

export async function startReferenceService(o: ReferenceServiceOptions = {}): Promise<ReferenceService> {
  const timeScale = o.timeScale ?? 1;
  if (!(typeof timeScale === 'number' && Number.isFinite(timeScale) && timeScale > 0)) {
    throw ccsError('REFSVC_TIME_SCALE_INVALID', { timeScale: String(o.timeScale) });
  }
  const faults = new FaultSet(o.faults ?? []); // REFSVC_FAULT_UNKNOWN before anything starts
  let dataApi: DataApiForms | undefined;
  try {
    dataApi = o.dataApi ? resolveDataApiForms(o.dataApi, 'reference service') : undefined;
  } catch (error) {
    throw ccsError('REFSVC_DATA_API_FORMS_INVALID', {
      problem: (error as Error).message,
      field: (error as CcsError).details?.field,
    });
  }
  const ctx = new ServiceContext(createClock(timeScale), faults, await createKeyRing(), o.log);
  ctx.deliverer = new Deliverer(ctx);
  for (const w of o.workspaces ?? []) {
    try {
      createWorkspace(ctx, w);
    } catch (error) {
      if (error instanceof DriverError)
        throw ccsError('REFSVC_FIXTURE_INVALID', {
          workspaceKey: w.workspaceKey,
          problem: `${w.workspaceKey}: ${error.message}`,
        });
      throw error;
    }
  }

  // maxParamLength: handles are up to 255 characters, serviceKeys are UUID-based.
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 1024 }, bodyLimit: 1_048_576 });
  await app.register(multipart, {
    limits: { fileSize: 31_000_000, files: 10_000, fields: 1_000, parts: 11_000 },
    throwFileSizeLimit: true,
  });

  // ERR-1: every error of the contract's routes is the framework default body; driver errors keep the driver's shape.
  const driverOn = o.driver !== false;
  const isDriver = (url: string): boolean =>
    driverOn && (url === '/__driver' || url.startsWith('/__driver/') || url.startsWith('/__driver?'));
  app.setErrorHandler((error, req, reply) => {
    if (isDriver(req.url)) return driverErrorReply(error, reply);
    const raw = (error as { statusCode?: number }).statusCode;
    // DATA-7 broken on purpose by malformed-body-500: a body that does not parse is an unhandled error.
    const unparsed =
      faults.has('malformed-body-500') && /^FST_ERR_CTP/.test(String((error as { code?: string }).code ?? ''));
    const status = unparsed ? 500 : typeof raw === 'number' && raw >= 400 && raw < 600 ? raw : 500;
    return reply
      .code(status)
      .type('application/json')
      .send(errorBody(status, req.url, faults));
  });
  app.setNotFoundHandler((req, reply) => {
    if (isDriver(req.url))
      return reply
        .code(404)
        .send({ error: 'not-found', message: `no driver route ${req.method} ${req.url.split('?')[0]}` });
    return reply
      .code(404)
      .type('application/json')
      .send(errorBody(404, req.url, faults));
  });

  if (driverOn) registerOutage(app, ctx); // before every route: an outage answers first
  registerJwks(app, ctx);
  registerEmbed(app, ctx);
  registerUpload(app, ctx);
  registerData(app, ctx, dataApi);
  let url = '';
  if (driverOn) registerDriver(app, ctx, () => url);

  const address = await app.listen({ port: o.port ?? 0, host: o.host ?? '127.0.0.1', backlog: 1024 });
  url = address.replace('[::1]', '127.0.0.1');
  let closing: Promise<void> | undefined;
  return {
    url,
    driverUrl: `${url}/__driver`,
    timeScale,
    faults: faults.list(),
    dataApi,
    close() {
      // Pending deliveries are abandoned: every timer and outbound socket ends now.
      closing ??= (async () => {
        ctx.close();
        await app.close();
      })();
      return closing;
    },
  };
}
