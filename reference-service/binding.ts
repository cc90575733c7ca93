/** The stored record envelope of 2.3: bind raw stored values into the host class (ENV-1..5). */
import type { RecordEnvelope } from '../spec/index.ts';
import { contractTimestamp } from './clock.ts';
import type { FaultSet } from './faults.ts';
import { typeFits } from './facts.ts';
import type { ClassDef, StoredRecord } from './model.ts';

/** The envelope of spec/openapi.yaml (RecordEnvelope); completedAt is null only under a seeded fault. */
export type Envelope = Pick<RecordEnvelope, 'data' | 'errors' | 'callbackStatus'> & {
  warnings?: RecordEnvelope['warnings'];
  completedAt: RecordEnvelope['completedAt'] | null;
};

/** Sets a dotted field path ("address.city") in a nested object. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (let i = 0; i < parts.length - 1; i += 1) {
    const key = parts[i]!;
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

export function bindRecord(cls: ClassDef, r: StoredRecord, faults: FaultSet): Envelope {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const warnings: Record<string, string> = {};
  const declared = new Set<string>();
  for (const fd of cls.fields) {
    declared.add(fd.name);
    const v = r.values[fd.name];
    if (v === undefined || v === null) {
      data[fd.name] = null;
      if (fd.required) warnings[fd.name] = 'required field not provided yet';
    } else if (!typeFits(fd.type, v)) {
      // ENV-2: a field that could not be populated is null, with the reason in errors (unbound-field-raw-value breaks
      // it).
      data[fd.name] = faults.has('unbound-field-raw-value') ? v : null;
      errors[fd.name] = `expected ${fd.type}, got ${Array.isArray(v) ? 'array' : typeof v}`;
    } else {
      data[fd.name] = v;
    }
  }
  for (const name of Object.keys(r.values)) {
    if (!declared.has(name)) {
      data[name] = null;
      errors[name] = 'not a field of the class';
    }
  }
  return {
    data,
    errors,
    // ENV-1 broken on purpose by envelope-without-warnings.
    ...(faults.has('envelope-without-warnings') ? {} : { warnings }),
    callbackStatus: r.callbackStatus,
    completedAt:
      faults.has('draft-completed-at-null') && r.callbackStatus === 'PENDING' ? null : contractTimestamp(r.completedAt),
  };
}

export function binds(env: Envelope): boolean {
  return Object.keys(env.errors).length === 0;
}
