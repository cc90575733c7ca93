/**
 * The embedded reference's time scale, apart from the target resolver so that the CLI can check a
 * flag without loading the reference service.
 */
import { ccsError } from '../../spec/index.ts';

export const DEFAULT_EMBEDDED_TIME_SCALE = 0.1;

/**
 * The embedded reference's time scale from `raw` (CCS_TIME_SCALE, or the CLI's --time-scale named
 * by `field`): a number in (0, 1]. Above 1 the contract's durations would stretch, not shrink.
 */
export function parseTimeScale(raw: string | undefined, field = 'CCS_TIME_SCALE'): number {
  if (raw === undefined || raw === '') return DEFAULT_EMBEDDED_TIME_SCALE;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1)
    throw ccsError('TARGET_FIELD_INVALID', {
      field,
      problem: `${field}: must be a number in (0, 1], got ${JSON.stringify(raw)}`,
    });
  return n;
}
