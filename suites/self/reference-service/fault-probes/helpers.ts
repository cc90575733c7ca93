/** Helpers shared by the probes of the seeded faults (one probe per fault, faults.spec.ts). */
import { verifyCallback } from '../../../../protocol/index.ts';
import type { ServiceFaultName } from '../../../../spec/index.ts';
import type { Received, Stage } from '../host.ts';

export const SECRET = 'test-only-hmac-secret-faults';
export type Probe = { timeScale?: number; workspace?: Record<string, unknown>; run: (s: Stage) => Promise<void> };
/** Probes of some faults: a key that is no seeded fault fails to typecheck, and faults.spec.ts needs every one. */
export type Probes = { readonly [name in ServiceFaultName]?: Probe };

export const bearer = (s: Stage) => ({ authorization: `Bearer ${s.ws.bearerToken}` });
export const dataPath = (s: Stage, tail: string) => `/api/${s.ws.workspaceKey}/endpoints/${tail}`;
export const byEvent = (s: Stage, e: string) => s.host.callbacks(e);
export const first = async (s: Stage, e: string, n = 1): Promise<Received> => {
  await s.host.waitFor(() => byEvent(s, e).length >= n, 10_000, `${n} ${e}`);
  return byEvent(s, e)[n - 1]!;
};
export const waitMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** open /contacts, one turn saving two new instances (one with two fields), complete. */
export async function lifecycle(s: Stage): Promise<{ id: number; keys: string[] }> {
  const id = await s.open('u-1', '/contacts');
  const t = await s.driver('POST', `/conversations/${id}/turns`, {
    saves: [{ fields: { email: 'a@x.io', name: 'A' } }, { fields: { email: 'b@x.io' } }],
  });
  await s.driver('POST', `/conversations/${id}/complete`, {});
  await first(s, 'onComplete');
  return { id, keys: t.json.serviceKeys };
}

export async function completeWith(
  s: Stage,
  script: (r: Received) => { status?: number; hang?: boolean },
): Promise<number> {
  s.host.script = (r) => (r.headers['x-service-event'] === 'onComplete' ? script(r) : { status: 200 });
  const id = await s.open();
  await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
  await s.driver('POST', `/conversations/${id}/complete`, {});
  return id;
}

export async function logEvents(
  s: Stage,
  until: (lines: Array<{ event: string; deliveryId?: string }>) => boolean,
  ms = 8000,
): Promise<Array<{ event: string; deliveryId?: string }>> {
  const deadline = performance.now() + ms;
  let lines: Array<{ event: string; deliveryId?: string }> = [];
  while (performance.now() < deadline) {
    lines = (await s.driver('GET', '/log')).json.lines;
    if (until(lines)) break;
    await waitMs(20);
  }
  return lines;
}

export async function hmacVerdict(s: Stage, r: Received, secret = SECRET): Promise<string> {
  return (await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'hmac', secrets: [secret] } }))
    .verdict;
}

export async function facts(s: Stage): Promise<any> {
  return (await s.driver('GET', `/workspaces/${s.ws.workspaceKey}/users/u-1/facts`)).json;
}

export async function factsAnswered(s: Stage, n: number): Promise<void> {
  await s.host.waitFor(
    (all) => all.filter((r) => r.method === 'GET' && r.endAt !== undefined).length >= n,
    5000,
    `${n} facts answers`,
  );
  await waitMs(100);
}

export function multipart(parts: Array<{ name: string; filename?: string; body: string | Buffer }>): {
  body: Buffer;
  type: string;
} {
  const boundary = '----ccsfaults';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
