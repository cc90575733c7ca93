/**
 * Clause ids are checked, not trusted: a test tag, a check or an evidence `clause` naming no clause of the
 * list is a bug in the test and fails the run (the clause reporter returns status failed). Citing a
 * clause the contract marks "not shown" (UNSPECIFIED) is only a warning: it is never asserted.
 */
import type { ClauseInput, Evidence, TestRecord } from './model.ts';

export interface ClauseIdProblems {
  /** One line per unknown id: the test (file:line and title) and the id. */
  errors: string[];
  warnings: string[];
}

function evidenceClauses(evidence: Evidence[]): string[] {
  const out: string[] = [];
  for (const e of evidence) {
    if (e.clause !== undefined) out.push(String(e.clause));
    if (Array.isArray(e.items))
      out.push(...evidenceClauses(e.items.filter((i): i is Evidence => !!i && typeof i === 'object')));
  }
  return out;
}

export function checkClauseIds(tests: TestRecord[], clauses: ClauseInput[]): ClauseIdProblems {
  const levels = new Map(clauses.map((c) => [c.id, c.level]));
  const errors = new Set<string>();
  const warnings = new Set<string>();
  for (const t of tests) {
    const where = `${t.file}:${t.line} "${t.title}"`;
    for (const id of t.clauses) {
      if (!levels.has(id)) errors.add(`${where} has the tag @${id}, which names no clause of spec/clauses.yaml`);
      else if (levels.get(id) === 'UNSPECIFIED')
        warnings.add(`${where} cites ${id}, which the contract marks "not shown" (never asserted)`);
    }
    // A check names clauses of its own test's tags: the tags are how a run (--grep, the mutation
    // matrix) selects the tests of a clause, so a check outside them would never be selected.
    for (const id of new Set(t.checks.flatMap((c) => c.clauses))) {
      if (!levels.has(id))
        errors.add(`${where} made a check of ${JSON.stringify(id)}, which names no clause of spec/clauses.yaml`);
      else if (!t.clauses.includes(id)) errors.add(`${where} made a check of ${id}, which is not among its tags`);
    }
    for (const id of evidenceClauses(t.evidence)) {
      if (!levels.has(id))
        errors.add(
          `${where} attached evidence for clause ${JSON.stringify(id)}, which names no clause of spec/clauses.yaml`,
        );
    }
  }
  return { errors: [...errors], warnings: [...warnings] };
}
