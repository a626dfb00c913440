import { expect, it } from 'vitest';
import { expectStatus } from './answer.js';

it('a wrong status fails naming the failed step and the warnings, never the body the answer carried', () => {
  const partial = {
    status: 502,
    body: {
      name: 'acme',
      api_token: 'tp_secret-token-1',
      steps: [
        { name: 'dns', ok: true },
        { name: 'state', ok: false },
      ],
      failure: { step: 'state', error: 'MinIO answered 503' },
    },
  };
  const logs = ['{"level":30,"msg":"fine"}', '{"level":50,"msg":"state.ensure failed: MinIO answered 503"}'];
  let message = '';
  try {
    expectStatus(partial, 201, logs);
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toContain('answered 502');
  expect(message).toContain('steps dns:ok state:failed');
  expect(message).toContain('MinIO answered 503');
  expect(message).toContain('state.ensure failed');
  expect(message).not.toContain('"fine"');
  expect(message).not.toContain('tp_secret-token-1');
  expect(expectStatus({ status: 201, body: {} }, 201)).toEqual({ status: 201, body: {} });
});
