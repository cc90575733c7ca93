import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { FAULTS, startReferenceService } from '../../../reference-service/index.ts';
import { call, stage, startTestHost } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

const BIN = fileURLToPath(new URL('../../../cli/bin.mjs', import.meta.url));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'reference-service', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

test('--list-faults prints one fault a line: name, clause id, sentence, tab-separated', async () => {
  const { code, stdout } = await runCli(['--list-faults']);
  expect(code).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(FAULTS.length);
  for (const [i, line] of lines.entries())
    expect(line.split('\t')).toEqual([FAULTS[i]!.name, FAULTS[i]!.clause, FAULTS[i]!.sentence]);
});

test('an unknown --fault is a usage error (exit 2)', async () => {
  expect((await runCli(['--port', '0', '--fault', 'nope'])).code).toBe(2);
});

test(
  'started standalone as a newcomer would: PUT 405, data read without Bearer 401, JWKS with two ES256 kids (DATA-5 AUTH-1 SIGN-9 SIGN-10)',
  { tag: clauseTags('DATA-5', 'AUTH-1', 'SIGN-9', 'SIGN-10') },
  async () => {
    const child = spawn(process.execPath, [BIN, 'reference-service', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed within 30 s: ${out}`)), 30_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m && out.includes('Ctrl-C')) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(out).toContain('TEST-ONLY');
      expect(out).toContain('ak_test_fixture_demo_production');
      expect(out).toContain(`${url}/__driver`);
      expect((await call(url, 'PUT', '/api/demo/endpoints/profile/data/u-1', { data: {} })).status).toBe(405);
      expect((await call(url, 'GET', '/api/demo/endpoints/profile/data/u-1')).status).toBe(401);
      const jwks = (await call(url, 'GET', '/.well-known/service/jwks.json')).json;
      expect(jwks.keys).toHaveLength(2);
      expect(jwks.keys.every((k: any) => k.kty === 'EC' && k.alg === 'ES256')).toBe(true);
      expect(jwks.keys[0].kid).not.toBe(jwks.keys[1].kid);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  },
);

test('every operation of spec/driver.openapi.yaml is served by the reference driver', async () => {
  const doc = parse(readFileSync(new URL('../../../spec/driver.openapi.yaml', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const svc = await startReferenceService();
  try {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'patch'].includes(m))) {
        const concrete = path.replace(/\{[^}]+\}/g, '1');
        const r = await call(svc.driverUrl, method.toUpperCase(), concrete, method === 'get' ? undefined : {});
        // An unknown id is 404 not-found with a message naming it, never the "no driver route" answer.
        expect(String(r.json?.message ?? ''), `${method} ${path}`).not.toContain('no driver route');
        expect(r.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
  } finally {
    await svc.close();
  }
});

test('close() ends every timer and socket while a host hangs and retries are pending', async () => {
  const s = await stage({ timeScale: 1 });
  s.host.script = (r) => (r.headers['x-service-event'] === 'onComplete' ? { hang: true } : { status: 200 });
  const id = await s.open();
  await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
  await s.driver('POST', `/conversations/${id}/complete`, {});
  await s.host.waitFor(() => s.host.callbacks('onComplete').length === 1);
  const t0 = performance.now();
  await s.svc.close();
  expect(performance.now() - t0).toBeLessThan(3000);
  await s.host.waitFor(
    () => s.host.callbacks('onComplete')[0]!.endAt !== undefined,
    3000,
    'the held request to be closed',
  );
  await s.host.close();
});

test(
  'upload decides 413 while streaming a chunked request over 30 MB, without Content-Length (UPLOAD-4)',
  { tag: clauseTags('UPLOAD-4') },
  async () => {
    const s = await stage();
    try {
      const boundary = '----ccschunked';
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${s.svc.url}/api/${s.ws.workspaceKey}/upload`,
          {
            method: 'POST',
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'x-api-key': s.ws.apiKey,
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n{"sources":["a","b"]}\r\n`);
        const chunk = Buffer.alloc(1_000_000, 97);
        let part = 0;
        const writeMore = (): void => {
          // Two files of 16 MB each: every file is under 25 MB, the request is over 30 MB.
          while (part < 32) {
            if (part === 0)
              req.write(`--${boundary}\r\nContent-Disposition: form-data; name="a"; filename="a"\r\n\r\n`);
            if (part === 16)
              req.write(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="b"; filename="b"\r\n\r\n`);
            part += 1;
            if (!req.write(chunk)) {
              req.once('drain', writeMore);
              return;
            }
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        writeMore();
      });
      expect(status).toBe(413);
    } finally {
      await s.close();
    }
  },
);

test(
  'a conversation of a sandbox without hostBaseUrl delivers to its parent host (HOOK-3)',
  { tag: clauseTags('HOOK-3') },
  async () => {
    const s = await stage();
    const other = await startTestHost();
    try {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      await s.host.waitFor(() => s.host.callbacks('onStart').length === 1);
      expect((s.host.callbacks('onStart')[0]!.json as any).workspaceKey).toBe(sb.json.workspaceKey);
      const sb2 = await s.driver('POST', '/workspaces', {
        parentWorkspaceKey: s.ws.workspaceKey,
        hostBaseUrl: other.url,
      });
      await s.open('u-1', '/profile', sb2.json.workspaceKey);
      await other.waitFor(() => other.callbacks('onStart').length === 1);
    } finally {
      await other.close();
      await s.close();
    }
  },
);

test(
  'with the driver off, /__driver is an unknown route with the framework default 404 body (ERR-1)',
  { tag: clauseTags('ERR-1') },
  async () => {
    const svc = await startReferenceService({ driver: false });
    try {
      const r = await call(svc.url, 'GET', '/__driver/capabilities');
      expect(r.status).toBe(404);
      expect(Object.keys(r.json).sort()).toEqual(['error', 'path', 'status', 'timestamp']);
    } finally {
      await svc.close();
    }
  },
);
