import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { floorActivities, type FloorSample } from '../../bench/floor-activities.js';
import { HISTORIES, treeRelease } from '../replay/releases.js';

interface RecordedEvent {
  eventType: string;
  markerRecordedEventAttributes?: { markerName?: string; details?: { data?: { payloads?: { data: string }[] } } };
}

/** The local activity types a recorded history ran, from Core's markers. */
function localActivityTypes(events: RecordedEvent[]): string[] {
  return events
    .filter((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED' && e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => {
      const payload = e.markerRecordedEventAttributes!.details!.data!.payloads![0]!.data;
      return (JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { activity_type: string }).activity_type;
    });
}

/**
 * The bench's fair floor (bench/fair-floor.ts) runs the service's own create workflow on a worker
 * whose activities are empty bodies. A local activity the workflow calls and the floor lacks is
 * retried until the update's deadline, and every floor create answers 503: the bench then fails
 * (or measures nothing) where the workflow changed. This release's recorded creates say which
 * local activities a create makes now.
 */
describe("the bench's fair floor", () => {
  const creates = readdirSync(join(HISTORIES, treeRelease())).filter((f) => f.startsWith('tenantCreate--'));
  const sample = { prepared: { kind: 'proceed' }, finished: { tenant: {} }, steps: {}, indexes: {} } as unknown as FloorSample;

  it('answers every local activity a recorded create makes', () => {
    expect(creates.length).toBeGreaterThan(0);
    const floor = new Set(Object.keys(floorActivities(sample)));
    const runs = creates.map((f) =>
      localActivityTypes((JSON.parse(readFileSync(join(HISTORIES, treeRelease(), f), 'utf8')) as { history: { events: RecordedEvent[] } }).history.events),
    );
    // The floor's shape: a new tenant's create that passes at its first attempt (the recorded
    // failed attempt and the reconcile after a lost answer are other shapes).
    const firstTime = runs.filter((types) => !types.includes('failAttempt') && !types.includes('beginReconcile'));
    expect(firstTime.length).toBeGreaterThan(0);
    const used = new Set(firstTime.flat());
    expect(used.has('finishAttempt')).toBe(true);
    expect([...used].filter((type) => !floor.has(type))).toEqual([]);
  });
});
