/**
 * HOST-15 on one answer: a 2xx to a correctly signed facts GET is the facts themselves (section 4.1
 * "Response: a flat JSON object whose fields match the FACTS class (no list, no envelope, no data
 * wrapper)"; rule 4: a response that is not a JSON object is dropped). Judged on every such answer the
 * harness sees, whichever test sent the GET (judge-duties.ts): a 204, an empty body or a body that is not
 * a JSON object is no facts answer.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { HostCheckId } from '../../spec/index.ts';
import type { SendOutcome } from './exchange.ts';

/** Members that would make the answer an envelope rather than the facts themselves. */
const WRAPPERS = ['data', 'facts', 'result', 'results', 'items', 'payload'];

export interface ShapeVerdict {
  id: Extract<HostCheckId, `facts.${string}`>;
  rule: string;
  expected: string;
  /** undefined: it held; else what was seen. */
  seen?: string;
}

const validators = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: Record<string, unknown> | undefined): ValidateFunction | undefined {
  if (schema === undefined) return undefined;
  let v = validators.get(schema);
  if (v === undefined) {
    v = new Ajv({ allErrors: true, strict: false }).compile(schema);
    validators.set(schema, v);
  }
  return v;
}

function parsed(o: SendOutcome): unknown {
  try {
    return JSON.parse(o.body ?? '');
  } catch {
    return undefined;
  }
}

const bodyInWords = (o: SendOutcome): string =>
  o.body === undefined || o.body === '' ? `${o.status} with no body` : `${o.status}: ${o.body.slice(0, 200)}`;

/** The checks of HOST-15 on one 2xx answer, in order; a check whose condition needs the one before is left out. */
export function factsShape(o: SendOutcome, schema: Record<string, unknown> | undefined): ShapeVerdict[] {
  const body = parsed(o);
  const flat = typeof body === 'object' && body !== null && !Array.isArray(body);
  const out: ShapeVerdict[] = [
    {
      id: 'facts.flat-object',
      rule: 'a 2xx to the facts GET is a flat JSON object (no list, not empty)',
      expected: 'a JSON object',
      ...(flat ? {} : { seen: bodyInWords(o) }),
    },
  ];
  if (!flat) return out;
  const declared = new Set(Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {}));
  const wrappers = Object.keys(body as object).filter((k) => WRAPPERS.includes(k) && !declared.has(k));
  out.push({
    id: 'facts.no-envelope',
    rule: 'the facts are not wrapped in an envelope member',
    expected: 'no member named data, facts, result, results, items or payload that the class does not declare',
    ...(wrappers.length === 0 ? {} : { seen: `members ${JSON.stringify(wrappers)}` }),
  });
  const validate = validatorOf(schema);
  if (validate === undefined || wrappers.length > 0) return out;
  const ok = validate(body) as boolean;
  // A member the class does not declare is named: its name tells a Go struct's untagged field (DisplayName).
  const errors = (validate.errors ?? [])
    .map((e) => {
      const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
      return `${e.instancePath || '(top)'} ${e.message ?? ''}${typeof extra === 'string' ? ` (${extra})` : ''}`;
    })
    .join('; ');
  out.push({
    id: 'facts.matches-class',
    rule: 'every member of the facts answer is a field of the FACTS class, of its type (or null)',
    expected: 'a match of the FACTS class',
    ...(ok ? {} : { seen: errors.slice(0, 400) }),
  });
  return out;
}
