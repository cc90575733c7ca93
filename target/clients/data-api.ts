/**
 * What the data API client wrote, to say which declared form to check when a write it built does
 * not read back (UNSPEC-8, UNSPEC-9: the write body and the keyed write's form are the target's
 * declaration). A service that reads another write body accepts the write and stores something
 * else: the fields under a field named `data` (it took {"data": {...}} as the field map), or none
 * of them. A service that looks for a keyed write's key under another body member does not find it
 * and writes another record. Neither answers 404, 405 or 400, so only a later read shows it.
 *
 * The hint is only written beside a failing check, and says "if": the same read may show a real
 * defect (DATA-4, DATA-13), whose check still fails on its own clause. Once a read has shown a
 * value this client wrote, the body form is proven to be the service's, and no body hint follows.
 */
import type { DataApiForms } from '../../spec/index.ts';

interface Written {
  fields: Record<string, unknown>;
  /** The key it addressed (a keyed write) or the one its answer named. */
  key?: string;
  /** A keyed write whose key went in the body member keyField. */
  keyInBody: boolean;
  /** Its answer named another serviceKey than the one it addressed. */
  keyMissed: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The data objects of a read's answer: one envelope or a List's array of them. */
function datasOf(json: unknown): Json[] {
  const envelopes = Array.isArray(json) ? json : [json];
  return envelopes.map((e) => (isObject(e) ? e.data : undefined)).filter(isObject);
}

/** Some field this write set reads back with the value written. */
const showsAny = (w: Written, datas: Json[]): boolean =>
  datas.some((d) => Object.entries(w.fields).some(([f, v]) => same(d[f], v)));
/**
 * Every field this write set reads back with the value written, in one record: what proves a form
 * (one field alone may hold the value it had before the write).
 */
const showsAll = (w: Written, datas: Json[]): boolean =>
  datas.some((d) => Object.entries(w.fields).every(([f, v]) => same(d[f], v)));

export class WriteMemory {
  readonly #writes = new Map<string, Written[]>();
  #bodyProven = false;
  #keyFieldProven = false;

  constructor(private readonly forms: DataApiForms) {}

  /** Words naming the write body form this run sends, for a hint. */
  #bodyWords(): string {
    return this.forms.writeBody === 'data' ? 'the fields under "data", {"data": {...}}' : 'the bare field map {...}';
  }

  #keyFieldHint(what: string): string {
    return (
      `${what}: if the service did not find the key in the body member ${JSON.stringify(this.forms.keyField)}, ` +
      'check `dataApi.keyField` in the target (the body member a keyed write carries its serviceKey in; ' +
      '`dataApi.keyedWrite` path puts it in the path instead)'
    );
  }

  /** `what` was seen; without it, the hint alone (after another one). */
  #writeBodyHint(what: string): string {
    return (
      `${what ? `${what}: ` : ''}if the service reads another write body, check \`dataApi.writeBody\` in the target ` +
      `(this run sends ${this.#bodyWords()}; the other form is ${
        this.forms.writeBody === 'data' ? 'the bare field map {...}' : '{"data": {...}}'
      })`
    );
  }

  /**
   * A write the client built was answered 2xx: remembered for the reads that follow. Returns the
   * hint for the write itself when a keyed write in the body was answered with another serviceKey
   * (the service made or wrote another record: it did not find the key where this run put it).
   */
  accepted(scope: string, fields: Json, sentKey: string | undefined, answer: unknown): string | undefined {
    const named = isObject(answer) && typeof answer.serviceKey === 'string' ? answer.serviceKey : undefined;
    const keyInBody = sentKey !== undefined && this.forms.keyedWrite === 'body';
    const key = sentKey ?? named;
    const list = this.#writes.get(scope) ?? [];
    const keyMissed = keyInBody && named !== undefined && named !== sentKey;
    list.push({ fields: { ...fields }, keyInBody, keyMissed, ...(key !== undefined ? { key } : {}) });
    this.#writes.set(scope, list.slice(-8));
    if (keyMissed) {
      return this.#keyFieldHint(`a keyed write of serviceKey ${sentKey} was answered with serviceKey ${named}`);
    }
    return undefined;
  }

  /**
   * A keyed write in the body answered 409 IDENTITY_CONFLICT naming the very record it addressed as
   * the holder (DATA-12): the service took it for a new record, so it did not find the key.
   */
  conflicted(sentKey: string | undefined, answer: unknown): string | undefined {
    if (sentKey === undefined || this.forms.keyedWrite !== 'body' || !isObject(answer)) return undefined;
    if (answer.existingKey !== sentKey) return undefined;
    return this.#keyFieldHint(`a keyed write of serviceKey ${sentKey} was refused as a second record beside it`);
  }

  /** A 200 read of this scope (by key when serviceKey is given): the hint when what was written does not read back. */
  read(scope: string, json: unknown, serviceKey?: string): string | undefined {
    const writes = this.#writes.get(scope);
    if (!writes || writes.length === 0) return undefined;
    const datas = datasOf(json);
    const relevant = serviceKey === undefined ? writes : writes.filter((w) => w.key === serviceKey);
    const last = relevant[relevant.length - 1];
    const wrapped =
      this.forms.writeBody === 'data' &&
      datas.some((d) => isObject(d.data) && writes.some((w) => showsAny(w, [d.data as Json])));
    // What this read proves before it is judged: a write reads back whole, so its body form is the
    // service's, and, read by its key, so is the key member of a keyed write.
    for (const w of relevant) {
      if (!showsAll(w, datas)) continue;
      this.#bodyProven = true;
      if (w.keyInBody && serviceKey !== undefined) this.#keyFieldProven = true;
    }
    if (wrapped) {
      return this.#writeBodyHint(
        'a read shows the fields this run wrote under a field named "data" ' +
          '(the service took {"data": {...}} as the field map)',
      );
    }
    if (last === undefined || showsAll(last, datas)) return undefined;
    if (last.keyInBody && (last.keyMissed || !this.#keyFieldProven)) {
      const what =
        `a read${serviceKey === undefined ? '' : ` by key of ${serviceKey}`} does not show what ` +
        `the keyed write of ${last.key} sent`;
      // Its body form may be the other cause, unless a write has read back whole.
      return this.#keyFieldHint(what) + (this.#bodyProven ? '' : `; or ${this.#writeBodyHint('')}`);
    }
    if (this.#bodyProven) return undefined;
    return this.#writeBodyHint('a read does not show the values of the write accepted before it');
  }
}
