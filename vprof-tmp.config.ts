import base from './vitest.config.js';
export default { ...base, test: { ...base.test, maxWorkers: 1, execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/rprof', '--cpu-prof-interval=1000'] } };
