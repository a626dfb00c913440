import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLOOR, belowNodeFloor } from './node-floor.js';

describe('the Node floor', () => {
  it.each([
    ['v20.20.2', false],
    ['24.6.9', false],
    ['v24.7.0', true],
    ['24.21.0', true],
    ['25.0.0', true],
    ['22.99.99', false],
  ])('%s runs the service: %s', (version, runs) => {
    expect(belowNodeFloor(version) === undefined).toBe(runs);
  });

  it('names the floor and the Node it found', () => {
    expect(belowNodeFloor('v20.20.2')).toBe("Node 24.7.0 or newer is needed (node:crypto argon2 seals MinIO's admin bodies); this is Node 20.20.2");
  });

  it("is package.json's engines, and the Node running the tests is above it", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${NODE_FLOOR}`);
    expect(belowNodeFloor(process.versions.node)).toBeUndefined();
  });
});
