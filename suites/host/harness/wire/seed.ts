/**
 * The seed the wire's freedoms are drawn from (HOST-27): CCS_SEED (`--seed`) replays a run, else one
 * drawn once per worker and printed with every test that varied the wire. A form is drawn from the seed
 * and a key that names the request (the test's title and the request's place in it, or the bytes it
 * carries), not from a shared sequence: the same test with the same seed sends the same forms, whichever
 * tests ran before it.
 */
import { createHash } from 'node:crypto';
import { readSettings } from '../../../../spec/index.ts';

let drawn: number | undefined;

/** The seed of this run: CCS_SEED when set, else one per worker. */
export function wireSeed(): number {
  drawn ??= readSettings().seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  return drawn;
}

/** A deterministic source of choices for one key under the run's seed. */
export class Draw {
  private state: number;
  constructor(key: string, seed = wireSeed()) {
    this.state = createHash('sha256').update(`${seed}\u0000${key}`).digest().readUInt32LE(0) || 1;
  }

  /** 0 <= n < below (mulberry32). */
  int(below: number): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 0x1_0000_0000) % below;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.int(1_000_000) < p * 1_000_000;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
