/**
 * Which rows of section 3's transition table, which mixed situations and which section 6 event
 * sequences the model-based test's sequences exercised. A step marks a row only after the
 * callbacks it expects arrived and its read-backs held, so a row counts on what the run saw. A row
 * whose trigger leaves a decision to the service (transitions.ts `decision`) counts only the steps
 * where the service decided; those where the harness named it are kept apart and shown, not counted.
 */
import { EVENT_SEQUENCES, MIXED, TRANSITIONS, rowByShort, type DecidedBy } from './transitions.ts';
import { ccsError } from '../../../spec/index.ts';

/** How a trail writes the event of a trigger the harness scoped itself. */
const NAMED = 'named:';

export class Coverage {
  readonly hits = new Map<string, number>();
  /** Rows with a decision, exercised with the harness naming it: shown beside the count, not in it. */
  readonly named = new Map<string, number>();
  /** Each conversation's events in order, by sequence and conversation id. */
  private readonly trails = new Map<string, string[]>();

  /** A step exercised the row (T1..T8, C1..C3, M1..M4); by: who decided, for a row with a decision. */
  row(short: string, by?: DecidedBy): void {
    const row = rowByShort(short);
    if (row.decision !== undefined && by === undefined)
      throw ccsError('MODEL_ROW_DECIDER_MISSING', { row: short, decision: row.decision });
    const into = row.decision !== undefined && by === 'harness' ? this.named : this.hits;
    into.set(row.id, (into.get(row.id) ?? 0) + 1);
  }

  /** An event of a conversation arrived as its step expected (sequence tag keeps lanes apart). */
  event(sequence: string, conversationId: number, event: string, by: DecidedBy = 'service'): void {
    const k = `${sequence}/${conversationId}`;
    const trail = this.trails.get(k) ?? [];
    const word = by === 'harness' ? `${NAMED}${event}` : event;
    if (trail[trail.length - 1] !== word) trail.push(word);
    this.trails.set(k, trail);
  }

  /**
   * The event sequences reached: a conversation's trail (repeats collapsed) matched against section 6's.
   * A sequence with a decision counts where the service decided (named: where only the harness's naming
   * made it); one without, whoever scoped the triggers.
   */
  sequencesHit(): { hits: Map<string, number>; named: Map<string, number> } {
    const hits = new Map<string, number>();
    const named = new Map<string, number>();
    const add = (m: Map<string, number>, id: string) => m.set(id, (m.get(id) ?? 0) + 1);
    for (const trail of this.trails.values()) {
      const words = trail.join(' ');
      const plain = words.split(NAMED).join('');
      for (const s of EVENT_SEQUENCES) {
        if (s.decision === undefined ? s.pattern.test(plain) : s.pattern.test(words)) add(hits, s.id);
        else if (s.decision !== undefined && s.pattern.test(plain)) add(named, s.id);
      }
    }
    return { hits, named };
  }
}

export interface CoverageSummary {
  /** "section 3 transitions: 11/11 exercised" and its siblings, one a line. */
  lines: string[];
  /** Rows a target's driver could reach that no sequence reached. */
  missed: string[];
  /** Rows left out for a capability the target lacks, with the reason. */
  excluded: string[];
  complete: boolean;
  /** "transition coverage: 22/22 reachable rows exercised (100%)", and the rows not reached below 100%. */
  headline: string;
  /** Every row by its whole id, one a line: how often the run exercised it, or why it was left out. */
  rows: string[];
}

/** The coverage in words: per table, exercised of reachable, the rows missed named, the excluded with why. */
export function summarize(c: Coverage, capabilities: Iterable<string>): CoverageSummary {
  const have = new Set(capabilities);
  const seq = c.sequencesHit();
  const tables = [
    { name: 'section 3 transitions', rows: TRANSITIONS, hits: c.hits, named: c.named },
    { name: 'mixed-scope triggers', rows: MIXED, hits: c.hits, named: c.named },
    { name: 'section 6 event sequences', rows: EVENT_SEQUENCES, hits: seq.hits, named: seq.named },
  ];
  const lines: string[] = [];
  const missed: string[] = [];
  const excluded: string[] = [];
  const rows: string[] = [];
  let reached = 0;
  let reachableAll = 0;
  for (const t of tables) {
    const lacking = (r: { capabilities: readonly string[] }) => r.capabilities.filter((x) => !have.has(x));
    const reachable = t.rows.filter((r) => lacking(r).length === 0);
    const out = t.rows.filter((r) => lacking(r).length > 0);
    const notHit = reachable.filter((r) => (t.hits.get(r.id) ?? 0) === 0);
    missed.push(...notHit.map((r) => r.id));
    excluded.push(...out.map((r) => `${r.id} (capability ${lacking(r).join(', ')} not offered by the target)`));
    // Steps where the harness named what the service decides: beside the count, never in it.
    const named = (r: { id: string }) => t.named.get(r.id) ?? 0;
    const besides = (r: { id: string }) => (named(r) > 0 ? ` (+${named(r)} named)` : '');
    const counts = reachable
      .filter((r) => !notHit.includes(r))
      .map((r) => `${r.id.split(' ')[0]} ${t.hits.get(r.id)}${besides(r)}`);
    let line = `${t.name}: ${reachable.length - notHit.length}/${reachable.length} exercised`;
    if (counts.length > 0) line += ` (${counts.join(', ')})`;
    if (notHit.length > 0) line += `; not reached: ${notHit.map((r) => r.id).join('; ')}`;
    const why = (r: { id: string; capabilities: readonly string[] }) => `${r.id} (capability ${lacking(r).join(', ')})`;
    if (out.length > 0) line += `; left out: ${out.map(why).join('; ')}`;
    lines.push(line);
    reached += reachable.length - notHit.length;
    reachableAll += reachable.length;
    const decided = (r: { decision?: string }) =>
      r.decision === undefined ? '' : ` where the service decided ${r.decision}`;
    const namedToo = (r: { id: string; decision?: string }) =>
      named(r) > 0 ? `; ${named(r)} more with ${r.decision} named by the harness, not counted` : '';
    for (const r of t.rows)
      rows.push(
        out.includes(r)
          ? `${r.id}: left out (capability ${lacking(r).join(', ')} not offered by the target)`
          : `${r.id}: ${t.hits.get(r.id) ?? 0}${notHit.includes(r) ? ' (NOT REACHED)' : ''}${decided(r)}${namedToo(r)}`,
      );
  }
  const percent = reachableAll === 0 ? 100 : Math.floor((100 * reached) / reachableAll);
  let headline = `transition coverage: ${reached}/${reachableAll} reachable rows exercised (${percent}%)`;
  if (missed.length > 0) headline += `; not reached: ${missed.join('; ')}`;
  return { lines, missed, excluded, complete: missed.length === 0, headline, rows };
}
