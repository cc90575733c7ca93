/**
 * The fault models (spec/faults/<side>.yaml) as TypeScript: the check ids their rows name and the
 * faults they declare, as string-literal unions and as values. The models are the registry: a check
 * is given one of these ids (suites/shared/checks.ts), a seeded-fault switch tests one of these names
 * (reference-service/faults.ts, fixtures/host-receiver/faults.ts), so a mistyped id or name, or a
 * fault a row names and nothing declares, fails `npm run typecheck`.
 */
import { loadFaultModel, type SeededFault } from '../fault-model.ts';
import type { Side } from '../types.ts';

const quote = (s: string): string => `'${s}'`;

function union(name: string, doc: string, values: readonly string[]): string {
  return `/** ${doc} */\nexport type ${name} =\n${values.map((v) => `  | ${quote(v)}`).join('\n')};\n`;
}

function list(name: string, type: string, doc: string, values: readonly string[]): string {
  return `/** ${doc} */\nexport const ${name}: readonly ${type}[] = [\n${values.map((v) => `  ${quote(v)},`).join('\n')}\n];\n`;
}

function fault(f: SeededFault): string {
  const also = f.also ? ` also: [${f.also.map(quote).join(', ')}],` : '';
  const matrix = f.matrix === false ? ' matrix: false,' : '';
  return `  { name: ${quote(f.name)}, clause: ${quote(f.clause)},${also}${matrix} sentence: ${JSON.stringify(f.sentence)} },`;
}

function side(s: Side, Pascal: string, UPPER: string): string {
  const model = loadFaultModel(s);
  const checks = [...new Set(model.rows.flatMap((r) => (r.check === undefined ? [] : [r.check])))];
  const faults = model.faults.map((f) => f.name);
  return [
    union(
      `${Pascal}CheckId`,
      `Every check id the rows of spec/faults/${s}.yaml name (check(clause, rule, { id })).`,
      checks,
    ),
    list(`${UPPER}_CHECK_IDS`, `${Pascal}CheckId`, 'The same ids as values, in row order.', checks),
    union(`${Pascal}FaultName`, `Every fault spec/faults/${s}.yaml declares.`, faults),
    `/** The faults of spec/faults/${s}.yaml, in their order there. */\n` +
      `export const ${UPPER}_FAULTS: readonly SeededFaultOf<${Pascal}FaultName>[] = [\n${model.faults.map(fault).join('\n')}\n];\n`,
  ].join('\n');
}

/** The text of spec/generated/fault-models.ts (after its header). */
export function faultModelTypes(): string {
  return [
    "import type { ClauseId } from './clauses.ts';",
    '',
    '/** A fault the model declares, its clauses typed. */',
    'export interface SeededFaultOf<Name extends string> {',
    '  readonly name: Name;',
    '  /** The clause it breaks. */',
    '  readonly clause: ClauseId;',
    '  /** Further clauses it breaks by its nature (the matrix counts them as its own). */',
    '  readonly also?: readonly ClauseId[];',
    '  /** false: it breaks everything at once and stays out of the mutation matrix. */',
    '  readonly matrix?: false;',
    '  /** What it does wrong, in one sentence. */',
    '  readonly sentence: string;',
    '}',
    '',
    side('service', 'Service', 'SERVICE'),
    side('host', 'Host', 'HOST'),
  ].join('\n');
}
