/**
 * Registration of the tests whose time goes to waiting (retry schedules, timeouts, quiet windows),
 * so that a run starts them first. Playwright starts tests project by project in the config's
 * order, and service-realtime comes before service: a test registered in its @realtime form runs
 * in service-realtime, at the start of the run. Each helper takes a function that calls test(), so
 * a test's location stays in its spec file.
 */
import { test } from '../fixtures.ts';
import { realtimeCopyOnly } from '../../../target/service/realtime.ts';

function atRealTime(register: () => void): void {
  test.describe('at real time', { tag: '@realtime' }, register);
}

/**
 * Retry-schedule tests, registered twice: once for the service project (which runs everything but
 * @realtime, at the target's time scale) and once tagged @realtime for the service-realtime project
 * (time scale 1). Same code; timing comes from the fixtures at either scale. When both copies would
 * run at the same scale (target/service/realtime.ts) only the @realtime one is registered.
 */
export function realTime(register: () => void): void {
  if (!realtimeCopyOnly()) register();
  atRealTime(register);
}

/**
 * Tests that wait a contract window (a quiet window, a timeout): one copy, for the service project
 * at the target's time scale. When the service project runs at time scale 1 anyway
 * (target/service/realtime.ts) that copy is registered in its @realtime form instead, to start early.
 */
export function waiting(register: () => void): void {
  if (realtimeCopyOnly()) atRealTime(register);
  else register();
}
