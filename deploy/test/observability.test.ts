import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { parser as PromqlParser } from '@prometheus-io/lezer-promql' with { 'resolution-mode': 'import' };
import { METRIC, ServiceMetrics } from '../../libs/metrics/src';
import { readYamlDocuments } from './support/kustomize';
import { ROOT } from './support/service-config';

let parser: typeof PromqlParser;
beforeAll(async () => {
  // The package is an ES module by type: a CommonJS file reaches it through import(), which
  // jest turns into a require of its CommonJS build.
  ({ parser } = await import('@prometheus-io/lezer-promql'));
});

const [rulesFile] = readYamlDocuments(join(ROOT, 'deploy', 'prometheus', 'alerts.rules.yaml'));
const [prometheusRule] = readYamlDocuments(
  join(ROOT, 'deploy', 'kubernetes', 'components', 'monitoring', 'prometheus-rule.yaml'),
);
const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy', 'grafana', 'postbus-dashboard.json'), 'utf8'));
// What each alert means and what to do: the runbook's Alerts section.
const runbook = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
const alerts: { alert: string; expr: string; labels: Record<string, string>; annotations: Record<string, string> }[] =
  rulesFile.groups.flatMap((g: { rules: unknown[] }) => g.rules);
const queries: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
  (p.targets ?? []).map((t) => t.expr),
);

/** The series names a PromQL expression selects; throws on a syntax error. */
function selectedMetrics(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  let broken: string | undefined;
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) broken ??= expr.slice(Math.max(0, node.from - 10), node.to + 10);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
        names.push(expr.slice(node.from, node.to));
    },
  });
  if (broken !== undefined) throw new Error(`PromQL syntax error near "${broken}" in ${expr}`);
  return names;
}

/** What the services export: Postbus metrics (with the series a histogram adds) and prom-client's process metrics. */
async function exportedSeries(): Promise<Set<string>> {
  const registry = new ServiceMetrics('probe').registry;
  const series = new Set<string>(['up']);
  for (const m of await registry.getMetricsAsJSON()) {
    series.add(m.name);
    if (String(m.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) series.add(`${m.name}${suffix}`);
  }
  return series;
}

test('when the services start, then every metric named in libs/metrics is registered', async () => {
  const series = await exportedSeries();
  for (const name of Object.values(METRIC)) expect([name, series.has(name)]).toEqual([name, true]);
});

test('when Prometheus loads the alert rules, then each parses, selects only series the services export, and has a severity, a summary and a runbook entry', async () => {
  const series = await exportedSeries();
  expect(alerts.length).toBeGreaterThanOrEqual(10);
  for (const rule of alerts) {
    const used = selectedMetrics(rule.expr);
    expect(used.length).toBeGreaterThan(0);
    for (const name of used) expect([rule.alert, name, series.has(name)]).toEqual([rule.alert, name, true]);
    expect(['critical', 'warning', 'info']).toContain(rule.labels.severity);
    expect(rule.annotations.summary).toBeTruthy();
    expect(rule.annotations.description).toBeTruthy();
    expect([rule.alert, runbook.includes(`**${rule.alert}**`)]).toEqual([rule.alert, true]);
  }
  expect(new Set(alerts.map((a) => a.alert)).size).toBe(alerts.length);
  expect(() => selectedMetrics('sum(rate(postbus_event_retries_total[5m])')).toThrow(/syntax error/);
});

test('when the rules are installed through the Prometheus Operator, then the PrometheusRule holds exactly the same groups as the rule file', () => {
  expect(prometheusRule.spec.groups).toEqual(rulesFile.groups);
});

test('when Grafana loads the dashboard, then every query parses and selects exported series, and together the panels show every Postbus metric', async () => {
  const series = await exportedSeries();
  const used = new Set<string>();
  for (const q of queries) {
    for (const name of selectedMetrics(q.replaceAll('$__rate_interval', '5m'))) {
      expect([name, series.has(name)]).toEqual([name, true]);
      used.add(name.replace(/_(bucket|sum|count)$/, ''));
    }
  }
  for (const name of Object.values(METRIC)) expect([name, used.has(name)]).toEqual([name, true]);
});

test('when Grafana lays the dashboard out, then panel ids are unique, panels fit the 24-column grid, and queries use the chosen data source', () => {
  const ids = dashboard.panels.map((p: { id: number }) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const p of dashboard.panels) {
    expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
    if (p.type !== 'row') expect(p.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
  }
  expect(dashboard.templating.list.map((v: { name: string }) => v.name)).toEqual(['datasource', 'service']);
  expect(dashboard.uid).toBe('postbus-overview');
});
