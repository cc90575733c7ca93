/**
 * Which copies of a retry-schedule test a run registers. Such a test exists twice: a plain copy for
 * the service project (at the target's time scale) and an @realtime copy for the service-realtime
 * project (time scale 1 for the embedded reference; a target file keeps its own scale there).
 */
import { readSettings } from '../../spec/index.ts';

/**
 * True when both copies would run at the same time scale, so the plain copy would only repeat the
 * @realtime one: the embedded reference at CCS_TIME_SCALE=1, or any target file. The run then
 * registers the @realtime copy alone, which the service-realtime project starts first (its waits
 * are the longest of the run). The mutation matrix runs no @realtime test, so it keeps the plain copy.
 */
export function realtimeCopyOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  const s = readSettings(env);
  if (s.matrixPlan) return false;
  return !!s.target || Number(s.timeScale) === 1;
}

/**
 * Workers of a service run when none are asked for. The run waits on contract windows far more than
 * it computes, so it takes more workers than cores: at time scale 1 (every waiting test in
 * service-realtime: 20 tests, 17 to 52 s each, 369 s in all) 8 for those plus one for the rest. With 7
 * the tests' order left two workers 59 s of waiting and the run took 66-72 s, 1.2-1.3x the 55 s floor the
 * contract forces; with 8 they hold 46 s on average, so the 52 s schedule is the path: 60-62 s on two cores.
 * At a small time scale 3 for the five retry schedules at real time (52 s, 25 + 5 s, 15 + 5 s) plus 2 for
 * the service project.
 */
export function defaultRunWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return realtimeCopyOnly(env) ? 9 : 5;
}

/** The service-realtime project's share of the workers: all but one at time scale 1, else 3. */
export function realtimeProjectWorkers(totalWorkers: number, env: NodeJS.ProcessEnv = process.env): number {
  return realtimeCopyOnly(env) ? Math.max(1, totalWorkers - 1) : Math.min(3, totalWorkers);
}
