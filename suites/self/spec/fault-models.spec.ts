/**
 * The fault models (spec/faults/<side>.yaml) against what they stand for: every clause of a side
 * has at least one row; every row has a check and the fault that proves it, or a reason; every
 * check id a row names is given to a check in the suites (that every id given is a row's is the
 * generated CheckId union's: `npm run typecheck`); every fault a row names is declared, every
 * declared fault is switched on in the implementation, and every fault of the mutation matrix proves
 * at least one row; every recipe a row names is a file the package ships, and a recipe goes with a hint.
 * That each row's fault really fails its check is the mutation matrix's own test (suites/mutants).
 */
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HOST_CHECK_IDS,
  HOST_FAULTS,
  SERVICE_CHECK_IDS,
  SERVICE_FAULTS,
  loadFaultModel,
  readSettings,
  type FaultModelRow,
} from '../../../spec/index.ts';
import { loadClauses } from '../../../reports/index.ts';
import { SIGNATURE_CASES, callbackCheckId, factsCheckId } from '../../host/harness/signature-cases.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The text of every TypeScript file under a folder of the package. */
function textOf(dir: string): string {
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const path = join(d, f);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });
  return files(`${ROOT}${dir}`)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/**
 * The check ids a suite's text gives to checks: every quoted id, and every id matching a template
 * (`data.retry-${status}`). The ids come from the fault models (spec/generated/fault-models.ts), so
 * this finds which of them some code still uses; a row whose check no code names is stale.
 */
function usedIn(text: string): (id: string) => boolean {
  const shapes = [...text.matchAll(/`([a-z]+\.[^`]*\$\{[^`]*)`/g)].map(
    (m) =>
      new RegExp(
        `^${m[1]!
          .replace(/\$\{[^}]*\}/g, '\u0000')
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\u0000/g, '.+')}$`,
      ),
  );
  return (id) => text.includes(`'${id}'`) || text.includes(`"${id}"`) || shapes.some((s) => s.test(id));
}

/** The host check ids of the signature cases' table (harness/signature-cases.ts): a case's own, and its facts id. */
const CASE_IDS = new Set<string>([
  ...SIGNATURE_CASES.filter((c) => !c.control && c.kinds.includes('callback')).map(callbackCheckId),
  ...SIGNATURE_CASES.filter((c) => !c.control && c.kinds.includes('facts')).map(factsCheckId),
]);

const SIDES = [
  {
    side: 'host' as const,
    checkIds: HOST_CHECK_IDS,
    faults: HOST_FAULTS.filter((f) => f.matrix !== false).map((f) => f.name),
    allFaults: HOST_FAULTS.map((f) => f.name),
    used: (): ((id: string) => boolean) => {
      // The host suites and the host direction's judge (judge/host), which gives the duties' checks.
      const literal = usedIn(`${textOf('suites/host')}\n${textOf('judge/host')}`);
      return (id) => CASE_IDS.has(id) || (!id.startsWith('facts-sig.') && literal(id));
    },
    switches: 'fixtures/host-receiver',
  },
  {
    side: 'service' as const,
    checkIds: SERVICE_CHECK_IDS,
    faults: SERVICE_FAULTS.map((f) => f.name),
    allFaults: SERVICE_FAULTS.map((f) => f.name),
    used: () => usedIn(textOf('suites/service')),
    switches: 'reference-service',
  },
];

const list = (rows: readonly FaultModelRow[]) => rows.map((r) => r.row).join(', ');

for (const { side, checkIds, faults, allFaults, used, switches } of SIDES) {
  test(`every ${side} clause has a row in spec/faults/${side}.yaml, and every row a check and its proof or a reason`, async () => {
    const { clauses } = await loadClauses(readSettings().clausesFile);
    const model = loadFaultModel(side);
    const ofSide = clauses.filter((c) => c.side === side && c.level !== 'UNSPECIFIED');
    const covered = new Set(model.rows.map((r) => r.clause));
    expect(
      ofSide.filter((c) => !covered.has(c.id)).map((c) => c.id),
      `${side} clauses with no row`,
    ).toEqual([]);
    const known = new Map(clauses.map((c) => [c.id, c]));
    expect(
      list(model.rows.filter((r) => known.get(r.clause)?.side !== side)),
      'rows whose clause is not a clause of this side',
    ).toBe('');
    expect(
      list(model.rows.filter((r) => (r.check === undefined) === (r.notChecked === undefined))),
      'rows with neither a check nor a reason, or both',
    ).toBe('');
  });

  test(`every fault spec/faults/${side}.yaml declares proves a row, and every row's fault is declared`, () => {
    const model = loadFaultModel(side);
    const declared = new Set<string>(allFaults);
    expect(
      list(model.rows.filter((r) => r.fault !== undefined && !declared.has(r.fault))),
      'rows naming a fault that is not declared',
    ).toBe('');
    const proving = new Set(model.rows.map((r) => r.fault));
    expect(
      faults.filter((f) => !proving.has(f)),
      'faults of the mutation matrix that prove no row',
    ).toEqual([]);
  });

  test(`every check id of spec/faults/${side}.yaml is given to a check in the ${side} suites`, () => {
    // A row whose check no code makes would let its proof pass the self-checks and fail only in the
    // matrix; removing a check leaves its row here. An id built in a template matches its shape.
    const isUsed = used();
    expect(
      checkIds.filter((id) => !isUsed(id)),
      `check ids of spec/faults/${side}.yaml that no check of suites/${side} or judge/${side} is given`,
    ).toEqual([]);
  });

  test(`every fault spec/faults/${side}.yaml declares is switched on in ${switches}`, () => {
    // A declared fault no code tests would seed nothing: its rows' proofs would be empty.
    const text = textOf(switches);
    expect(
      allFaults.filter((name) => !text.includes(`'${name}'`)),
      `faults no code of ${switches} switches on`,
    ).toEqual([]);
  });

  test(`every recipe named by spec/faults/${side}.yaml is a file of docs/recipes/, beside a hint`, () => {
    const model = loadFaultModel(side);
    expect(
      list(model.rows.filter((r) => r.recipe !== undefined && !existsSync(`${ROOT}${r.recipe}`))),
      'rows naming a recipe file that does not exist',
    ).toBe('');
    expect(
      list(model.rows.filter((r) => r.recipe !== undefined && r.hint === undefined)),
      'rows with a recipe and no hint',
    ).toBe('');
  });
}

test('every check id the signature cases give (a callback case its own, a facts case its facts-sig. id) is a row of spec/faults/host.yaml', () => {
  // callbackCheckId and factsCheckId type these ids as HostCheckId; this is what makes that true.
  const rows = new Set<string>(HOST_CHECK_IDS);
  expect([...CASE_IDS].filter((id) => !rows.has(id))).toEqual([]);
});
