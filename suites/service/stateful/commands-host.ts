/**
 * The host's other requests as fast-check commands: reads (a List or Setting read, a read by key),
 * the migration hold, and records seeded as a host REST write would. None fires an event (STATE-3):
 * whatever arrives meanwhile is judged a stray by the ledger.
 */
import { answered } from '../areas/errors.ts';
import { show } from '../../shared/index.ts';
import { IDENTITY, LIST, SETTING, pick, type End, type Model, type RecordState } from './model.ts';
import { readGone, readList, readLive, readSetting } from './reads.ts';
import type { Real } from './real.ts';
import { must } from './violation.ts';
import { Step, named, settle, who } from './commands-step.ts';
import { ccsError } from '../../../spec/index.ts';

export class Hold extends Step {
  constructor(
    readonly user: number,
    readonly end: End,
    readonly target: number,
    readonly held: boolean,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return this.candidates(m).length > 0;
  }
  private candidates(m: Readonly<Model>): RecordState[] {
    return m.live(this.user, this.end).filter((x) => x.key !== undefined && x.held !== this.held);
  }
  toString(): string {
    return `${this.held ? 'hold' : 'release'} ${who(this.user)}'s ${this.end} record #${this.target} ${this.held ? 'mid-migration' : 'from the migration hold'}`;
  }
  override describe(m: Readonly<Model>): string {
    return `${this.held ? 'hold' : 'release'} ${who(this.user)}'s ${named(pick(this.candidates(m), this.target))} ${this.held ? 'mid-migration' : 'from the migration hold'}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const rec = pick(this.candidates(m), this.target)!;
    r.log.note(`record #${rec.id} ${rec.key}`);
    await r.driver.migrationHold(r.ws, rec.key!, this.held);
    rec.held = this.held;
    await settle(r);
    await readLive(m, r, rec);
    // A hold withholds the record from the List read, a release brings it back (DATA-11, DATA-2).
    if (rec.end === SETTING) await readSetting(m, r, this.user);
    else await readList(m, r, this.user);
  }
}

export class ListRead extends Step {
  constructor(
    readonly user: number,
    readonly end: End,
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  toString(): string {
    return `read ${who(this.user)}'s ${this.end} (GET /{endUserHandle})`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    await settle(r);
    if (this.end === LIST) r.log.note(`${(await readList(m, r, this.user)).length} item(s)`);
    else r.log.note(`${(await readSetting(m, r, this.user)).status}`);
  }
}

export class KeyRead extends Step {
  constructor(
    readonly user: number,
    readonly which: 'live' | 'gone' | 'unknown',
    readonly target: number,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    if (this.which === 'live') return m.live(this.user).some((x) => x.key !== undefined);
    if (this.which === 'gone') return m.gone.some((g) => g.user === this.user && g.key !== undefined);
    return true;
  }
  toString(): string {
    return this.which === 'unknown'
      ? `read ${who(this.user)}'s ${LIST} by a key no record has`
      : `read ${who(this.user)}'s ${this.which} record #${this.target} by key`;
  }
  override describe(m: Readonly<Model>): string {
    if (this.which === 'unknown') return this.toString();
    const list: Array<{ id: number; end: End; key?: string }> =
      this.which === 'live'
        ? m.live(this.user).filter((x) => x.key !== undefined)
        : m.gone.filter((g) => g.user === this.user && g.key !== undefined);
    return `read ${who(this.user)}'s ${this.which === 'gone' ? 'deleted ' : ''}${named(pick(list, this.target))} by key`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    await settle(r);
    if (this.which === 'live')
      await readLive(
        m,
        r,
        pick(
          m.live(this.user).filter((x) => x.key !== undefined),
          this.target,
        )!,
      );
    else if (this.which === 'gone')
      await readGone(
        m,
        r,
        pick(
          m.gone.filter((g) => g.user === this.user && g.key !== undefined),
          this.target,
        )!,
      );
    else {
      const res = await r.svc.getRecord(r.ws, LIST, m.users[this.user]!, `sk-none-${String(m.fresh('key'))}`);
      must(r, res.status === 404, 'DATA-9', 'a GET by key of no record answers 404', {
        expected: '404',
        seen: answered(res),
      });
    }
  }
}

/** Records created as a host REST write would (the driver's seed), in numbers that make one or two bulk pages. */
export class Seed extends Step {
  constructor(
    readonly user: number,
    readonly count: number,
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  toString(): string {
    return `seed ${this.count} ${LIST} record(s) of ${who(this.user)} as host REST writes`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    // One seeded record carries a fresh label; a batch carries none (the seed gives every record the same fields).
    const label = this.count === 1 ? m.freshLabel() : undefined;
    r.hostWrites += 1;
    const atMs = Date.now();
    const { serviceKeys } = await r.driver.seed(r.ws, {
      configEnd: LIST,
      endUserHandle: m.users[this.user]!,
      count: this.count,
      ...(label ? { fields: { [IDENTITY]: label } } : {}),
    });
    if (!Array.isArray(serviceKeys) || serviceKeys.length !== this.count)
      throw ccsError('TARGET_DRIVER_ANSWER_INVALID', {
        call: 'seed',
        got: show(serviceKeys),
        expected: `${this.count} serviceKeys`,
      });
    const recs = serviceKeys.map((key) =>
      m.add({
        key,
        user: this.user,
        end: LIST,
        status: 'PENDING',
        statusBy: 'STATE-2',
        writes: [{ by: 'rest', atMs }],
        ...(label ? { label, values: new Map([[IDENTITY, { value: label, by: 'DATA-4' }]]) } : {}),
      }),
    );
    await settle(r);
    await readLive(m, r, recs[0]!);
    await readList(m, r, this.user);
    r.coverage.row('T2');
  }
}
