import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../core/backend-outcome.js';
import type { ActivityDeps } from '../deps.js';
import { stepActivities } from './step-activities.js';

/**
 * A backend step activity (activities/step-failure.ts, here the network step's fabric read
 * `network.observe-indexes`) in Temporal's mock activity context: it heartbeats every second
 * while its backend call runs, so a dead worker is noticed within the step's 5 s heartbeat
 * timeout, and stops once the call has answered or failed; a failure leaves naming only its step,
 * the backend's answer in its details; a cancellation does not cut the backend call short: the
 * step answers what the backend did (every retry or repeat of a step is an ensure).
 * Real clocks (the heartbeat reaches the activity's context through async storage, which a fake
 * timer's callback would not carry), so the cases run side by side.
 */
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The step over a fabric whose read answers (or throws) after `ms`. */
function step(ms: number, value: () => [number, string][]) {
  const deps = {
    log: pino({ level: 'silent' }),
    ports: { network: { usedIndexes: async () => (await sleep(ms), value()) } },
  } as unknown as ActivityDeps;
  const env = new MockActivityEnvironment({ activityType: 'network.observe-indexes', heartbeatTimeoutMs: 5000 }, { logger: quiet });
  const beats: number[] = [];
  const start = Date.now();
  env.on('heartbeat', () => beats.push(Date.now() - start));
  return { env, beats, run: () => env.run(stepActivities(deps)['network.observe-indexes']) };
}

describe.concurrent('a backend step activity', () => {
  it('heartbeats every second while its backend call runs, and stops when it has answered', async () => {
    const s = step(2300, () => [[1, 'acme']]);
    expect(await s.run()).toEqual([[1, 'acme']]);
    expect(s.beats).toHaveLength(2);
    expect(s.beats[0]).toBeGreaterThanOrEqual(950);
    expect(s.beats[1]! - s.beats[0]!).toBeGreaterThanOrEqual(950);
    await sleep(1300);
    expect(s.beats).toHaveLength(2);
  });

  it('stops heartbeating when its backend call fails, and leaves naming only its step', async () => {
    const s = step(1300, () => {
      throw new BackendError('proxmox', 'GET /cluster/sdn/zones -> 500 internal error', true, 500);
    });
    const failure = (await s.run().catch((err: unknown) => err)) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.message).toBe('backend step "network" failed');
    expect(failure).toMatchObject({
      type: 'BackendFailed',
      nonRetryable: false,
      details: [{ step: 'network', backend: 'proxmox', status: 500, answer: 'GET /cluster/sdn/zones -> 500 internal error' }],
    });
    expect(failure.cause?.message).toBe('proxmox: GET /cluster/sdn/zones -> 500 internal error');
    expect(s.beats).toHaveLength(1);
    await sleep(1300);
    expect(s.beats).toHaveLength(1);
  });

  it('a backend that refuses on purpose is not retried', async () => {
    const s = step(0, () => {
      throw new BackendError('proxmox', 'zone name is invalid', false, 400);
    });
    expect(await s.run().catch((err: unknown) => err)).toMatchObject({ type: 'BackendRefused', nonRetryable: true });
  });

  it('cancelled while its backend call runs, answers what the backend did and stops heartbeating', async () => {
    const s = step(2300, () => [[2, 'beta']]);
    const run = s.run();
    await sleep(500);
    s.env.cancel();
    expect(await run).toEqual([[2, 'beta']]);
    expect(s.beats).toHaveLength(2);
    await sleep(1300);
    expect(s.beats).toHaveLength(2);
  });
});
