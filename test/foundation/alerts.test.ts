import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { Histogram } from 'prom-client';
import { collectProcessMetrics, registry } from '#lib/metrics';
// The API's metrics register themselves on import; the state gauges when given a pool (never queried here).
import '#apps/api/src/plugins/metrics';
import { registerDomainGauges } from '#apps/api/src/plugins/metrics-state';

/**
 * Alerts and dashboards as code (deploy/prometheus, deploy/monitoring.yaml, deploy/grafana):
 * promtool checks the rules and runs their unit tests (one file per group, each alert shown to fire
 * and to stay quiet); the PrometheusRule carries the same groups; every expression of the rules
 * and the dashboard is valid PromQL over metrics the processes export; every alert's runbook is a
 * section of docs/operations.md. promtool is Debian's `prometheus` package (dev/test.ts and
 * .ci/run install it).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const PROM = path.join(ROOT, 'deploy', 'prometheus');
const RULES = path.join(PROM, 'rules.yml');
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';

const promtool = (...args: string[]) => spawnSync(PROMTOOL, args, { cwd: PROM, encoding: 'utf8' });
const rulesText = fs.readFileSync(RULES, 'utf8');
const groups = [...rulesText.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
const alertsOf = (group: string) => {
  const start = rulesText.indexOf(`- name: ${group}\n`);
  const next = rulesText.indexOf('\n  - name: ', start + 1);
  return [...rulesText.slice(start, next < 0 ? undefined : next).matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
};
const testFileOf = (group: string) => path.join(PROM, 'tests', `${group.replace(/^jobfair-/, '')}.test.yml`);

function tmpRules(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-rules-'));
  const file = path.join(dir, 'rules.yml');
  fs.writeFileSync(file, body);
  return file;
}

/** Metric names an expression reads (identifiers followed by `{`, `[` or a space that are not PromQL words). */
function metricNames(expr: string): string[] {
  const words = new Set([
    'sum',
    'max',
    'min',
    'avg',
    'by',
    'on',
    'and',
    'or',
    'unless',
    'rate',
    'increase',
    'histogram_quantile',
    'vector',
    'avg_over_time',
    'max_over_time',
    'le',
    'without',
    'group_left',
    'group_right',
    'count',
  ]);
  const noStrings = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, '{}');
  return [...noStrings.matchAll(/\b([a-z_][a-z0-9_]*)\b/g)]
    .map((m) => m[1])
    .filter(
      (w) =>
        !words.has(w) &&
        /_/.test(w) &&
        !/^(instance|pool|route|task_queue|namespace|activity|outcome|rate_class|status_class|state)$/.test(w),
    );
}

describe('alerts and dashboards as code', () => {
  beforeAll(() => {
    if (!fs.existsSync(PROMTOOL))
      throw new Error(`promtool not found at ${PROMTOOL}: apt-get install prometheus, or set PROMTOOL_BIN`);
  });

  it('promtool check rules passes on the rules file', () => {
    const r = promtool('check', 'rules', RULES);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it.each(groups)('%s: its promtool unit tests pass, and each alert is shown to fire', (group) => {
    const file = testFileOf(group);
    expect(fs.existsSync(file)).toBe(true);
    const r = promtool('test', 'rules', file);
    expect(`${r.stdout}${r.stderr}`).toContain('SUCCESS');
    expect(r.status).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    for (const alert of alertsOf(group)) {
      // A test where it fires (exp_alerts with labels) and one where it stays quiet (exp_alerts: []).
      expect(text).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels:`));
      expect(text).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts: \\[\\]`));
    }
  });

  it('a broken rule is caught: promtool fails on a bad expression and on a wrong expectation', () => {
    const bad = tmpRules(rulesText.replace('> 0.02', '> > 0.02'));
    expect(promtool('check', 'rules', bad).status).not.toBe(0);
    const dir = path.dirname(bad);
    fs.writeFileSync(bad, rulesText.replace('> 600\n', '> 6000\n'));
    fs.writeFileSync(
      path.join(dir, 'matching.test.yml'),
      fs.readFileSync(testFileOf('jobfair-matching'), 'utf8').replace('../rules.yml', bad),
    );
    const r = spawnSync(PROMTOOL, ['test', 'rules', path.join(dir, 'matching.test.yml')], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('JobfairTimeToMatchP95High');
  });

  it("the PrometheusRule in deploy/monitoring.yaml carries the rules file's groups as they are", () => {
    const monitoring = fs.readFileSync(path.join(ROOT, 'deploy', 'monitoring.yaml'), 'utf8');
    const doc = monitoring.split(/\n---\n/).find((d) => /^kind: PrometheusRule$/m.test(d))!;
    const spec = doc.slice(doc.indexOf('\nspec:\n') + '\nspec:\n'.length);
    const unindented = spec.replace(/^ {2}/gm, '');
    expect(unindented).toBe(rulesText.slice(rulesText.indexOf('groups:')));
    const r = promtool('check', 'rules', tmpRules(unindented));
    expect(r.status).toBe(0);
  });

  it('every expression (rules and dashboard) is valid PromQL over metrics the processes export', () => {
    registerDomainGauges({} as Knex);
    collectProcessMetrics();
    const exported = new Set(
      registry
        .getMetricsAsArray()
        .flatMap((m) => (m instanceof Histogram ? [`${m.name}_bucket`, `${m.name}_count`, `${m.name}_sum`] : [m.name])),
    );
    // The Temporal SDK's, from the worker's Runtime (useSecondsForDurations), seen by test/foundation/start.test.ts.
    for (const n of ['temporal_workflow_task_schedule_to_start_latency', 'temporal_activity_schedule_to_start_latency'])
      exported.add(`${n}_bucket`);

    const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy', 'grafana', 'jobfair.json'), 'utf8')) as {
      uid: string;
      panels: Array<{ id: number; type: string; targets?: Array<{ expr: string }> }>;
    };
    expect(dashboard.uid).toBe('jobfair');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const dashExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(dashExprs.length).toBeGreaterThan(20);
    const ruleExprs = [...rulesText.matchAll(/expr: \|\n((?: {10}.*\n)+)|expr: (.+)\n/g)].map((m) => m[1] ?? m[2]);
    expect(ruleExprs).toHaveLength(groups.flatMap(alertsOf).length);

    const unknown = [...dashExprs, ...ruleExprs].flatMap(metricNames).filter((n) => !exported.has(n));
    expect([...new Set(unknown)]).toEqual([]);
    // promtool parses each dashboard query as a recording rule.
    const asRules =
      'groups:\n  - name: dashboard\n    rules:\n' +
      dashExprs.map((e, i) => `      - record: dashboard:q${i}\n        expr: ${JSON.stringify(e)}\n`).join('');
    const r = promtool('check', 'rules', tmpRules(asRules));
    expect(r.stdout + r.stderr).toContain(`SUCCESS: ${dashExprs.length} rules found`);
  });

  it("every alert's runbook is a section of docs/operations.md", () => {
    const ops = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    const anchors = new Set(
      [...ops.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
        m[1]
          .toLowerCase()
          .replace(/[^\w\s-]/g, '')
          .trim()
          .replace(/\s+/g, '-'),
      ),
    );
    const runbooks = [...rulesText.matchAll(/runbook: docs\/operations\.md#(\S+)/g)].map((m) => m[1]);
    expect(runbooks).toHaveLength(groups.flatMap(alertsOf).length);
    expect(runbooks.filter((a) => !anchors.has(a))).toEqual([]);
  });
});
