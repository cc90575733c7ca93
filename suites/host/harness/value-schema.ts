/**
 * The schemas the value classes are derived from (spec/openapi.yaml components, the webhooks'
 * request bodies): the string limits of endUserHandle and serviceKey (2.1), the enums of
 * callbackStatus, the integer members of the payloads (2.2), the record envelope (2.3). A generated
 * value is kept only when the schema's own validator accepts it (validate.ts of the property compiler).
 */
import { ccsError, loadSpec } from '../../../spec/index.ts';
import { inlineRefs } from '../../service/property/compile.ts';
import { violations, type Schema } from '../../service/property/validate.ts';

type Obj = Record<string, unknown>;

/** A component of spec/openapi.yaml, its $refs inlined. */
export function componentSchema(name: string): Obj {
  const spec = loadSpec();
  const s = (spec.openapi as { components?: { schemas?: Record<string, Schema> } }).components?.schemas?.[name];
  if (s === undefined || typeof s !== 'object')
    throw ccsError('HOST_VALUE_SCHEMA', { problem: `spec/openapi.yaml has no component schema ${name}` });
  return inlineRefs(s, (ref) => spec.resolveRef(ref) as Schema) as Obj;
}

/** A member of a component (ConfigBulkDeletedPayload.count), its $refs inlined. */
export function memberSchema(component: string, member: string): Obj {
  const props = componentSchema(component).properties as Record<string, Obj> | undefined;
  const s = props?.[member];
  if (s === undefined)
    throw ccsError('HOST_VALUE_SCHEMA', {
      problem: `spec/openapi.yaml: ${component} has no member ${member}`,
    });
  return s;
}

/** What the schema says of a string's length, in characters (code points, as JSON Schema counts them). */
export interface StringLimits {
  min: number;
  /** The schema's maxLength; undefined when it sets none. */
  max: number | undefined;
}

export function stringLimits(s: Obj): StringLimits {
  return {
    min: typeof s.minLength === 'number' ? s.minLength : 0,
    max: typeof s.maxLength === 'number' ? s.maxLength : undefined,
  };
}

/** The schema accepts the value (the property compiler's validator, the rules of the subset the spec uses). */
export function conforms(schema: Obj, value: unknown): boolean {
  const spec = loadSpec();
  return violations(schema, value, (ref) => spec.resolveRef(ref) as Schema).length === 0;
}

/** The enum of a schema (callbackStatus: PENDING, DELIVERED). */
export function enumOf(s: Obj): string[] {
  if (!Array.isArray(s.enum)) throw ccsError('HOST_VALUE_SCHEMA', { problem: 'schema has no enum' });
  return s.enum as string[];
}

/**
 * The integer bounds of a member: its minimum and maximum, else those a JSON number carries exactly
 * (HOST-26 reading: section 2.1 bounds conversationId on neither side; RFC 8259 section 6 and I-JSON
 * keep integers within +-(2^53 - 1) for interoperability).
 */
export function integerBounds(s: Obj): { min: number; max: number } {
  if (s.type !== 'integer') throw ccsError('HOST_VALUE_SCHEMA', { problem: 'schema is not an integer' });
  return {
    min: typeof s.minimum === 'number' ? s.minimum : -Number.MAX_SAFE_INTEGER,
    max: typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER,
  };
}
