/**
 * The hint the service client (service-client.ts) puts beside a failing check of a data API answer (Words.hint):
 * the target field of the form the request was written in (UNSPEC-8, UNSPEC-9).
 */
import { configEndInPath, type DataApiForms } from '../../../spec/index.ts';
import type { DataRequest, ServiceResponse } from './service-client-types.ts';

/**
 * The hint beside a failing check of a data API answer: a 404 or 405 may mean the service has no
 * route in the form this run writes, a 400 to a built write body that it reads another body form.
 * Names the target field to check and the form this run used. A 405 to a keyed write names the
 * keyed write form only (its path was routed); a 404 may also come from the configEnd form.
 */
export function formHint(
  f: DataApiForms,
  r: ServiceResponse,
  request: DataRequest,
  builtBody: boolean,
  configEnd: string,
): string | undefined {
  const keyed = request === 'keyed-write';
  // The route as a template, so that the same cause reads the same in every test (the run's hints list it once).
  const byKey = request === 'read-by-key' || request === 'put-by-key' || (keyed && f.keyedWrite === 'path');
  const route = `/api/{workspaceKey}/endpoints/${configEndInPath(configEnd, f.configEnd)}/data/{endUserHandle}${byKey ? '/{serviceKey}' : ''}`;
  const said = `the service answered ${r.status} to ${r.method} ${route}${keyed && f.keyedWrite === 'body' ? ` (the key in ${JSON.stringify(f.keyField)})` : ''}`;
  const keyedForm =
    f.keyedWrite === 'path'
      ? '`dataApi.keyedWrite` (this run sends a keyed write as POST .../data/{endUserHandle}/{serviceKey}; `body` puts the key in a body member named by `dataApi.keyField`)'
      : `\`dataApi.keyedWrite\` and \`dataApi.keyField\` (this run sends a keyed write as POST .../data/{endUserHandle} with the key in the body member ${JSON.stringify(f.keyField)}; \`path\` sends POST .../data/{endUserHandle}/{serviceKey})`;
  const written = (x: DataApiForms['configEnd']) => `.../endpoints/${configEndInPath(configEnd, x)}/data (${x})`;
  const others = (['without-slash', 'with-slash', 'encoded'] as const)
    .filter((x) => x !== f.configEnd)
    .map(written)
    .join(', ');
  const configEndForm = `\`dataApi.configEnd\` (this run writes ${configEnd} as ${written(f.configEnd)}; the other forms: ${others})`;
  if (r.status === 405 && keyed) return `${said}: if it has no such route, check ${keyedForm} in the target`;
  // PUT is refused with 405 on every data route (DATA-5): only a 404 may say the route is written in another form.
  if (r.status === 405 && (request === 'put' || request === 'put-by-key')) return undefined;
  if (r.status === 404 || r.status === 405)
    return `${said}: if it has no such route, check ${keyed ? `${keyedForm} and ` : ''}${configEndForm} in the target`;
  if (r.status === 400 && builtBody && (request === 'write' || keyed)) {
    const body = f.writeBody === 'data' ? 'the fields under "data", {"data": {...}}' : 'the bare field map';
    return `${said}, a well-formed write: if it reads another body, check \`dataApi.writeBody\` in the target (this run sends ${body}${keyed && f.keyedWrite === 'body' ? ` with the key in ${JSON.stringify(f.keyField)}` : ''})`;
  }
  return undefined;
}
