/**
 * The parts of a clause the judge decides only in part: what the rest needs is the driver's, never in the
 * callbacks. Each such clause the traffic spoke of keeps a not-exercised note, so its verdict from traffic
 * reads "passed (partly)" (reports/exercised.ts) and a driven run's test decides the rest.
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { DRIVER_PART_RULE } from '../../spec/index.ts';
import type { RefusalWindow } from './retries.ts';
import type { Verdicts } from './verdicts.ts';

export function driverParts(callbacks: readonly JournalEntry[], refusals: readonly RefusalWindow[], v: Verdicts): void {
  if (callbacks.some((e) => e.event === 'onComplete'))
    v.notExercised(
      'EVT-6',
      'that an onComplete names every instance the completion finalizes needs the instances the user completed, ' +
        'which the driver names: traffic shows only that no instance its conversation deleted is named',
      DRIVER_PART_RULE,
    );
  if (refusals.length > 0)
    v.notExercised(
      'DELIV-8',
      'an attempt refused at connect never reaches the host: the back-off after it is not in the journal',
      DRIVER_PART_RULE,
    );
  if (callbacks.some((e) => e.signature.mode === 'jwks'))
    v.notExercised(
      'SIGN-9',
      'that callbacks name the new kid after a JWKS rotation needs the rotation, which the driver makes: ' +
        'traffic shows the document and the kid each JWS names',
      DRIVER_PART_RULE,
    );
}
