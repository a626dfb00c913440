import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { tracedBundlePath } from '../../apps/worker/workflow-interceptor-modules.js';
import { workerTelemetryOptions } from '../../apps/worker/telemetry.js';
import { dataConverter } from '../../temporal/data-converter.js';
import * as workflows from '../../workflows/index.js';
import { RECORDING_CODEC_KEY } from '../replay/codec-key.js';
import { HISTORIES, replayedReleases, treeRelease } from '../replay/releases.js';

/**
 * The current workflow code replays every recorded history of the releases it still replays
 * (test/replay/histories/<release>/, written by `npm run histories:record`; the release rule in
 * docs/decisions.md says which, test/contract/release-rule.test.ts holds the folders to it): its own
 * release's, since a worker replays a run it no longer caches, and, for 0.15, the first versioned
 * release, 0.14's, whose runs move to it. A change that breaks them (a command added, removed or
 * reordered without a patch, a marker no code reads) fails here. The code replayed is the bundle
 * that ships (apps/worker/workflow-bundles.ts, as the image's WORKFLOW_BUNDLE), built once by the
 * test run's global setup.
 */
const recorded = replayedReleases().flatMap((release) =>
  readdirSync(join(HISTORIES, release))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ release, ...(JSON.parse(readFileSync(join(HISTORIES, release, f), 'utf8')) as { workflowId: string; type: string; history: unknown }) })),
);

describe('recorded workflow histories', () => {
  it('of this release cover every workflow type the worker registers', () => {
    expect(new Set(recorded.filter((r) => r.release === treeRelease()).map((r) => r.type))).toEqual(new Set(Object.keys(workflows)));
  });

  // Tracing on or off picks the worker's bundle (apps/worker/workflow-interceptor-modules.ts): a run
  // started by either must replay on the other, so both replay every history.
  it.each([false, true])('replay against the shipped workflow bundle without a nondeterminism error (tracing %s)', { timeout: 120_000 }, async (tracing) => {
    const bundle = inject('workflowBundle');
    const results = [];
    const histories = recorded.map((r) => ({ workflowId: r.workflowId, history: r.history }));
    for await (const result of Worker.runReplayHistories(
      {
        workflowBundle: { codePath: tracing ? tracedBundlePath(bundle) : bundle },
        // The sinks the worker registers (the traced bundle's span exporter, the sweep's metrics), as it ships.
        sinks: workerTelemetryOptions(undefined, { fromSource: false }).sinks,
        dataConverter: dataConverter(Buffer.from(RECORDING_CODEC_KEY, 'base64')),
      },
      histories,
    )) {
      results.push({ workflowId: result.workflowId, error: result.error ? String(result.error) : undefined });
    }
    expect(results).toHaveLength(recorded.length);
    expect(results.filter((r) => r.error)).toEqual([]);
  });
});
