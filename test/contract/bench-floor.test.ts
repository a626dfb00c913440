import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createShape, floorActivities, type FloorSample } from '../../bench/floor-activities.js';
import { HISTORIES, treeRelease } from '../replay/releases.js';

interface RecordedEvent {
  eventType: string;
  activityTaskScheduledEventAttributes?: unknown;
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

/** A recorded run's local activities before its first activity, its activities, and its local activities after. */
function shapeOf(events: RecordedEvent[]) {
  const scheduled = (e: RecordedEvent) => e.activityTaskScheduledEventAttributes !== undefined;
  const first = events.findIndex(scheduled);
  return {
    localsBefore: localActivityTypes(events.slice(0, first)).length,
    activities: events.filter(scheduled).length,
    localsAfter: localActivityTypes(events.slice(first)).length,
  };
}

/**
 * The bench's fair floor (bench/fair-floor.ts) runs the service's own create workflow on a worker
 * whose activities are empty bodies, and its bare floor the same counts on the SDK's defaults. A
 * local activity the workflow calls and the floor lacks is retried until the update's deadline, and
 * every floor create answers 503: the bench then fails (or measures nothing) where the workflow
 * changed. This release's recorded creates say what a create makes now.
 */
describe("the bench's floors", () => {
  const release = join(HISTORIES, treeRelease());
  const runs = readdirSync(release)
    .filter((f) => f.startsWith('tenantCreate--'))
    .map((f) => (JSON.parse(readFileSync(join(release, f), 'utf8')) as { history: { events: RecordedEvent[] } }).history.events);
  // The floors' shape: a new tenant's create that passes at its first attempt (the recorded failed
  // attempt and the reconcile after a lost answer are other shapes).
  const firstTime = runs.filter((events) => !localActivityTypes(events).some((t) => t === 'failAttempt' || t === 'beginReconcile'));
  const sample = { prepared: { kind: 'proceed' }, finished: { tenant: {} }, steps: {}, indexes: {} } as unknown as FloorSample;

  it('fair floor answers every local activity a recorded create makes', () => {
    expect(firstTime.length).toBeGreaterThan(0);
    const floor = new Set(Object.keys(floorActivities(sample)));
    const used = new Set(firstTime.flatMap(localActivityTypes));
    expect(used.has('finishAttempt')).toBe(true);
    expect([...used].filter((type) => !floor.has(type))).toEqual([]);
  });

  it("bare floor's counts are a recorded create's: local activities before its first activity, activities, local activities after", () => {
    expect(firstTime.length).toBeGreaterThan(0);
    for (const events of firstTime) {
      const shape = shapeOf(events);
      expect(createShape(shape.activities - 1)).toEqual(shape);
    }
  });
});
