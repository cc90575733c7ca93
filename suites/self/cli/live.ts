/**
 * Live endpoints for the CLI's preflight tests: free ports chosen at run time (another run may
 * share the machine), a listener that answers 404 to everything, and the embedded reference
 * service started the way a user starts it (`ccs-conformance reference-service`) in a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { ROOT } from './helpers.ts';

/** A port nothing listens on: bound on 0, then closed. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Live {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * An HTTP server that answers every request alike: 404 by default (a service whose driver is not at
 * that path), or e.g. 200 with an HTML page (a driver URL that names some other web server).
 */
export function answeringServer(status = 404, body = 'not found', type = 'text/plain'): Promise<Live> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** `ccs-conformance reference-service --port 0 --time-scale X` in a child; resolves once it prints its URL. */
export function startReferenceChild(timeScale = 0.1, deadlineMs = 30_000): Promise<Live> {
  const args = [join(ROOT, 'cli', 'bin.mjs'), 'reference-service', '--port', '0', '--time-scale', String(timeScale)];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        done();
        return;
      }
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`reference-service printed no URL within ${deadlineMs} ms: ${out}`));
    }, deadlineMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reference-service exited ${code}: ${out}`));
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && out.includes('Ctrl-C')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url: m[1]!, port: Number(new URL(m[1]!).port), close: stop });
      }
    });
  });
}
