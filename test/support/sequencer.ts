import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files start first, in this order, whatever the runner's cache holds: a fresh clone
 * has no durations on record and vitest then starts the largest files first by bytes, which left
 * the crash suite (minutes, mostly waiting on its kills) to start late and run alone at the end.
 * The rest keep the base order (the longest on record first, else the largest).
 */
const LONGEST = [
  'test/reliability/races.test.ts',
  'test/reliability/crashes.test.ts',
  'test/e2e/object-life.test.ts',
  'test/e2e/lost-answers.test.ts',
  'test/e2e/workload-slow-clone.test.ts',
  'test/e2e/tenant-faults.test.ts',
  'test/reliability/contract-fuzz.test.ts',
  'test/reliability/temporal-restart.test.ts',
  'test/e2e/tenant-delete-lost-answer.test.ts',
  'test/e2e/device-addresses.test.ts',
  'test/e2e/lab-restart.test.ts',
  'test/e2e/run-model.test.ts',
  'test/e2e/release-upgrade.test.ts',
  'test/integration/check-backends.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((path) => f.moduleId.endsWith(path));
      return i < 0 ? LONGEST.length : i;
    };
    return [...base].sort((a, b) => rank(a) - rank(b));
  }
}
