/**
 * The pipelined generator's response reader checked before it counts a figure: a known stream of three
 * responses (2xx with a body, 204 without one, 503 with a body and another header) cut into three chunks
 * at every pair of places, and a byte at a time, must give the same counts; a chunked response must be
 * refused. The suites may not import the bench (suites/self/layout.spec.ts), so the bench checks its own
 * reader on every run (a fifth of a second).
 */
import { ResponseStream } from './responses.ts';

const STREAM = Buffer.from(
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}' +
    'HTTP/1.1 204 No Content\r\nDate: Thu, 26 Nov 2026 00:00:00 GMT\r\n\r\n' +
    'HTTP/1.1 503 Service Unavailable\r\ncontent-length: 5\r\nX-Note: y\r\n\r\nbusy!',
  'latin1',
);

function counts(chunks: Buffer[]): string {
  const r = new ResponseStream();
  let got = 0;
  for (const c of chunks) got += r.feed(c);
  return `${got} ${r.ok} ${r.non2xx} ${r.between}`;
}

/** Undefined when the reader counts right, else what went wrong. */
export function checkResponseReader(): string | undefined {
  const want = '3 2 1 true';
  const whole = counts([STREAM]);
  if (whole !== want) return `one chunk: ${whole}, want ${want}`;
  for (let i = 0; i <= STREAM.length; i++)
    for (let j = i; j <= STREAM.length; j++) {
      const got = counts([STREAM.subarray(0, i), STREAM.subarray(i, j), STREAM.subarray(j)]);
      if (got !== want) return `cut at ${i} and ${j}: ${got}, want ${want}`;
    }
  const bytes = counts([...STREAM].map((b) => Buffer.from([b])));
  if (bytes !== want) return `a byte at a time: ${bytes}, want ${want}`;
  const half = counts([STREAM.subarray(0, STREAM.length - 2)]);
  if (half !== '2 2 0 false') return `a cut body: ${half}, want 2 2 0 false`;
  try {
    counts([Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n')]);
    return 'a chunked response was counted';
  } catch {
    return undefined;
  }
}
