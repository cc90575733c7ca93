/**
 * A minimal reader of HTTP/1.1 responses for the pipelined load generator (pipelined.ts): one
 * connection's byte stream in, whole responses counted out, whatever way the stream was cut into
 * chunks (a response split over chunks, or many in one). Reads the status line and Content-Length
 * and skips the body; a response it cannot delimit that way (chunked, or read until close) is an
 * error, never a guess, so the generator counts every request answered exactly once.
 */

export class ResponseStream {
  /** responses completed so far: 2xx, and any other status */
  ok = 0;
  non2xx = 0;
  /** bytes of a head not yet ended by its blank line */
  private head: Buffer | undefined;
  /** the status of the response whose body is being skipped, and the body bytes still to skip */
  private status = 0;
  private bodyLeft = 0;

  get responses(): number {
    return this.ok + this.non2xx;
  }

  /** True when no response is half read (a connection may end only then). */
  get between(): boolean {
    return this.head === undefined && this.bodyLeft === 0;
  }

  /** Reads a chunk; returns how many responses it completed. Throws on a response it cannot delimit. */
  feed(chunk: Buffer): number {
    const before = this.responses;
    let data = chunk;
    if (this.head) {
      data = Buffer.concat([this.head, chunk]);
      this.head = undefined;
    }
    let at = 0;
    while (at < data.length) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, data.length - at);
        this.bodyLeft -= take;
        at += take;
        if (this.bodyLeft === 0) this.complete();
        continue;
      }
      const end = data.indexOf('\r\n\r\n', at, 'latin1');
      if (end < 0) {
        this.head = Buffer.from(data.subarray(at));
        break;
      }
      const length = this.readHead(data.toString('latin1', at, end));
      at = end + 4;
      if (length === 0) this.complete();
      else this.bodyLeft = length;
    }
    return this.responses - before;
  }

  private complete(): void {
    if (this.status >= 200 && this.status < 300) this.ok++;
    else this.non2xx++;
  }

  /** The status of a head and the length of its body. */
  private readHead(head: string): number {
    const status = /^HTTP\/1\.[01] (\d{3})[ \r]/.exec(head.slice(0, 16) + '\r');
    if (!status) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(head.slice(0, 40))}`);
    this.status = Number(status[1]);
    // no request sends Expect: an interim answer is not the answer it would be counted as
    if (this.status < 200) throw new Error(`an interim ${this.status} response, never asked for`);
    if (/\r\ntransfer-encoding:/i.test(head)) throw new Error('a chunked response: this reader needs Content-Length');
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    if (length) return Number(length[1]);
    // RFC 9112 6.3: these statuses never have a body; any other without a length is read until close
    if (this.status === 204 || this.status === 304) return 0;
    throw new Error(`a ${this.status} response without Content-Length: it cannot be delimited on a kept connection`);
  }
}
