import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The alert rules proven, not only parsed (issue 29 item 6): `promtool test rules` evaluates each
 * rule over series that should fire it and series that should not (docs/observability/
 * alerts.test.yml), with the summary and description an operator would read.
 */
const DIR = join(import.meta.dirname, '../../docs/observability');
const run = promisify(execFile);

describe('alert rules', () => {
  it('each fires on the series that should fire it and stays quiet on the healthy ones (promtool test rules)', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: DIR });
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('every rule has a firing case and a quiet case', () => {
    const rules = (parse(readFileSync(join(DIR, 'alerts.yml'), 'utf8')) as { groups: { rules: { alert: string }[] }[] }).groups.flatMap((g) =>
      g.rules.map((r) => r.alert),
    );
    const cases = (
      parse(readFileSync(join(DIR, 'alerts.test.yml'), 'utf8')) as { tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }
    ).tests.flatMap((t) => t.alert_rule_test);
    for (const alert of rules) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${alert} never shown to fire`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${alert} never shown to stay quiet`,
      ).toBe(true);
    }
  });
});
