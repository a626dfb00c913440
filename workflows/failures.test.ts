import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { failureOf } from './failures.js';

/** A step's last attempt, as the workflow meets it: an ActivityFailure whose cause is what ended the attempt. */
const lastAttempt = (cause: Error) =>
  new ActivityFailure('activity failed', 'broker.ensure-account', '7', RetryState.MAXIMUM_ATTEMPTS_REACHED, undefined, cause);

describe('failureOf: what a 502 body and a read show of a failed step', () => {
  const cases = [
    {
      why: "the step's own failure: the backend's answer, and its product and status",
      err: lastAttempt(
        ApplicationFailure.create({
          message: 'backend step "broker" failed',
          type: 'BackendFailed',
          details: [{ step: 'broker', backend: 'mosquitto', answer: 'no answer within 2 s' }],
        }),
      ),
      type: 'BackendFailed',
      want: { step: 'broker', activity: 'broker.ensure-account', reason: 'BackendFailed', backend: 'mosquitto', answer: 'no answer within 2 s' },
    },
    {
      why: 'an attempt Temporal cut when its heartbeat was late: which timeout, not an unknown reason',
      err: lastAttempt(new TimeoutFailure('activity Heartbeat timeout', undefined, 'HEARTBEAT')),
      type: undefined,
      want: { step: 'broker', activity: 'broker.ensure-account', reason: 'Timeout', answer: "no answer within the attempt's heartbeat timeout" },
    },
    {
      why: 'an attempt past its start-to-close bound',
      err: lastAttempt(new TimeoutFailure('activity StartToClose timeout', undefined, 'START_TO_CLOSE')),
      type: undefined,
      want: { step: 'broker', activity: 'broker.ensure-account', reason: 'Timeout', answer: "no answer within the attempt's start-to-close timeout" },
    },
    {
      why: 'a failure of no known kind: unknown, with no made-up answer',
      err: lastAttempt(new Error('odd')),
      type: undefined,
      want: { step: 'broker', activity: 'broker.ensure-account', reason: 'unknown' },
    },
  ];
  it.each(cases)('$why', ({ err, type, want }) => {
    expect(failureOf(err, 'broker', 'broker.ensure-account', type)).toEqual(want);
  });
});
