/**
 * The fault models (spec/faults/<side>.yaml) against what they stand for: every clause of a side
 * has at least one row; every row has a check and the fault that proves it, or a reason; every
 * check a row names is one the suites make, and every check the suites make is named by a row;
 * every fault a row names exists, and every fault of the mutation matrix proves at least one row;
 * every recipe a row names is a file the package ships, and a recipe goes with a hint.
 * That each row's fault really fails its check is the mutation matrix's own test (suites/mutants).
 */
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFaultModel, readSettings, type FaultModelRow } from '../../../spec/index.ts';
import { loadClauses } from '../../../reports/index.ts';
import { HOST_FAULTS } from '../../../fixtures/host-receiver/index.ts';
import { HOST_CHECK_IDS, HOST_WRITTEN_CHECK_IDS } from '../../host/check-ids.ts';
import { FAULTS } from '../../../reference-service/index.ts';
import { SERVICE_CHECK_IDS, SERVICE_WRITTEN_CHECK_IDS } from '../../service/check-ids.ts';

const SIDES = [
  {
    side: 'host' as const,
    checkIds: HOST_CHECK_IDS,
    written: HOST_WRITTEN_CHECK_IDS,
    faults: HOST_FAULTS.filter((f) => f.matrix !== false).map((f) => f.name),
  },
  {
    side: 'service' as const,
    checkIds: SERVICE_CHECK_IDS,
    written: SERVICE_WRITTEN_CHECK_IDS,
    faults: FAULTS.map((f) => f.name),
  },
];

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const list = (rows: readonly FaultModelRow[]) => rows.map((r) => r.row).join(', ');

/** The text of every TypeScript file of a suite folder but its check-ids list. */
function suiteText(dir: string): string {
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const path = join(d, f);
      return statSync(path).isDirectory()
        ? files(path)
        : path.endsWith('.ts') && !path.endsWith('check-ids.ts')
          ? [path]
          : [];
    });
  return files(dir)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

for (const { side, checkIds, written, faults } of SIDES) {
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

  test(`the checks and faults named by spec/faults/${side}.yaml are the ones the ${side} suites make and seed`, () => {
    const model = loadFaultModel(side);
    const ids = new Set(checkIds);
    expect(
      list(model.rows.filter((r) => r.check !== undefined && !ids.has(r.check))),
      'rows naming a check no suite makes',
    ).toBe('');
    const named = new Set(model.rows.map((r) => r.check));
    expect(
      checkIds.filter((id) => !named.has(id)),
      'checks no row names',
    ).toEqual([]);
    const seeded = new Set(faults);
    expect(
      list(model.rows.filter((r) => r.fault !== undefined && !seeded.has(r.fault))),
      'rows naming a fault that is not seeded',
    ).toBe('');
    const proving = new Set(model.rows.map((r) => r.fault));
    expect(
      faults.filter((f) => !proving.has(f)),
      'seeded faults that prove no row',
    ).toEqual([]);
  });

  test(`every check id the ${side} list writes out is given to a check in the ${side} suites`, () => {
    // A list that names an id no check carries would let a row's proof pass the self-checks and
    // fail only in the matrix. An id built in a template (`data.retry-${status}`) matches its shape.
    const text = suiteText(`${ROOT}suites/${side}`);
    const shapes = [...text.matchAll(/`([a-z]+\.[^`]*\$\{[^`]*)`/g)].map(
      (m) =>
        new RegExp(
          `^${m[1]!
            .replace(/\$\{[^}]*\}/g, '\u0000')
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\u0000/g, '.+')}$`,
        ),
    );
    const absent = written.filter(
      (id) => !text.includes(`'${id}'`) && !text.includes(`"${id}"`) && !shapes.some((s) => s.test(id)),
    );
    expect(absent, `check ids listed in suites/${side}/check-ids.ts that no check of suites/${side} is given`).toEqual(
      [],
    );
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
