import { describe, expect, it } from 'vitest';
import { hostHeaderProblem } from './node-errors.js';

/** RFC 9112 3.2: the Host field lines a request may carry, by HTTP version. */
describe('hostHeaderProblem', () => {
  it.each([
    ['HTTP/1.1 with one Host', 1, ['Host', 'x'], undefined],
    ['HTTP/1.1 without Host', 1, ['Accept', '*/*'], 'missing Host header'],
    ['HTTP/1.0 without Host (a health check)', 0, [], undefined],
    ['HTTP/1.1 with two Hosts', 1, ['Host', 'a', 'Host', 'b'], 'more than one Host header'],
    ['the same Host twice, in other cases', 1, ['Host', 'x', 'host', 'x'], 'more than one Host header'],
    ['HTTP/1.0 with two Hosts', 0, ['HOST', 'a', 'Host', 'b'], 'more than one Host header'],
    ['a Host value that says host is not a Host line', 1, ['X-Forwarded-Host', 'host', 'Host', 'x'], undefined],
  ] as const)('%s', (_case, minor, rawHeaders, problem) => {
    expect(hostHeaderProblem({ httpVersionMajor: 1, httpVersionMinor: minor, rawHeaders: [...rawHeaders] })).toBe(problem);
  });
});
