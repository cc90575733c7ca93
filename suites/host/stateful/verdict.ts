/**
 * The end of one sequence, judged by the host direction's one judge (DESIGN "One judge per direction"): the
 * duties its exchanges leave (judge/host/duties.ts, judge-duties.ts: every key of an acknowledged genuine
 * onComplete read, a redelivery not handled again, a bad copy refused, each facts answer a facts answer) and
 * the rules of every data API request its users' reads made (judge/host/read-rules.ts: 409 and 503 retried
 * with a back-off, 400 and 401 never retried), and the evidence its scripted answers give HOST-21 and HOST-22
 * when the receiver keeps them (read-evidence.ts). The sequence's exchanges are taken out of the test's ledger
 * scope into a scope of their own, so each sequence (each shrink candidate) is judged alone and the test's
 * end judges none of them again.
 */
import type { ClauseId } from '../../../spec/index.ts';
import { judgeDuties, readViolations } from '../../../judge/host/index.ts';
import { HostStepViolation } from './violation.ts';
import { judgeScriptedReads } from './read-evidence.ts';
import type { World } from './world.ts';

/**
 * Ends a sequence, judged or not (a step failed): its holds released (a hold never outlives its sequence), its
 * exchanges moved to the sequence's own scope. Returns the scope.
 */
export async function closeSequence(w: World, testId: string): Promise<string> {
  await w.release();
  const scope = `${testId}#model-${w.tag}`;
  const mine = new Set(w.handles);
  for (const e of w.h.observer.ledger.exchanges) if (e.testId === testId && mine.has(e.endUserHandle)) e.testId = scope;
  return scope;
}

/** Judges the sequence of w, run in the test testId; throws the first failure (duties first). */
export async function judgeSequence(w: World, testId: string, tagged: ReadonlySet<ClauseId>): Promise<void> {
  const { h } = w;
  const scope = await closeSequence(w, testId);
  const mine = new Set(w.handles);
  const options = {
    dataReadMs: h.target.timeouts.dataReadMs,
    ...(h.target.factsSchema ? { factsSchema: h.target.factsSchema } : {}),
  };
  const inProcess = h.service.controlUrl === undefined;
  const tags = new Set<string>(tagged);
  const verdicts = await judgeDuties(h.observer.ledger, h.service, scope, tags, options, inProcess);
  for (const v of verdicts) {
    if (!v.ok) throw new HostStepViolation(v.clause, v.id, `the judge: ${v.rule}`, v.expected, v.seen);
    w.tally.add(v.clause);
  }
  await h.service.sync();
  const reads = h.service.reads.filter((r) => r.seq > w.startSeq && mine.has(r.endUserHandle));
  for (const r of reads) {
    const found = readViolations(r, testId, h.service.reads, h.observer.ledger).filter((v) => tagged.has(v.clause));
    const v = found[0];
    if (v !== undefined)
      throw new HostStepViolation(v.clause, v.id, `the judge: ${v.rule}`, v.expected, v.request + (v.note ?? ''));
  }
  await judgeScriptedReads(w, testId, tagged);
}
