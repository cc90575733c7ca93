/** The records the harness's data API serves (section 2.3's envelope). */
import type { RecordEnvelope } from '../../../spec/index.ts';

/** Section 2.3's edges: data null, empty errors and warnings maps, a field beyond those listed. */
export function edgeEnvelope(): RecordEnvelope & { revision: number } {
  const now = new Date().toISOString().replace('Z', '');
  return { data: null, errors: {}, warnings: {}, callbackStatus: 'PENDING', completedAt: now, revision: 1 };
}

/** Section 2.3 envelope; the values are placeholders (a callback never carries them, EVT-2). */
export function envelope(serviceKey: string): RecordEnvelope {
  const now = new Date().toISOString().replace('Z', '');
  return {
    data: { label: `record ${serviceKey}` },
    errors: {},
    warnings: {},
    callbackStatus: 'DELIVERED',
    completedAt: now,
  };
}
