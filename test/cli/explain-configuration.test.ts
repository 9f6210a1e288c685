// `explain KEY -f … --set …` (issue 35): the key in the user's configuration, from the read record
// of the render of those values: what reads it and the objects that part makes, what keeps it
// unread, lint's verdict on what the values set of it, and what that setting changes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './binary.ts';
import { runInProcess } from './in-process.ts';

const PROXY = join(ROOT, 'fixtures', 'subcharts', 'authproxy-production.values.yaml');

async function explain(args: string[]) {
  const r = await runInProcess(['explain', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('explain with values: the key in that configuration', () => {
  it('a key whose objects need an API the render did not declare says so, with the -a to add; with -a the render reads it', async () => {
    const on = ['--set', 'controller.metrics.enabled=true', '--set', 'controller.metrics.serviceMonitor.enabled=true'];
    const without = await explain(['controller.metrics.serviceMonitor.labels', '-r', 'B', ...on]);
    const section = without.slice(without.indexOf('IN THIS CONFIGURATION:'));
    expect(section).toContain('  its objects render only when the cluster serves monitoring.coreos.com/v1, which this render did not declare: with -a monitoring.coreos.com/v1 it feeds these 2 objects:\n');
    expect(section).toMatch(/^ {4}ServiceMonitor default\/agentplat-controller-metrics {3}agentplat\/templates\/controller-servicemonitor\.yaml$/m);
    const declared = await explain(['controller.metrics.serviceMonitor.labels', '-r', 'B', ...on, '-a', 'monitoring.coreos.com/v1']);
    const inside = declared.slice(declared.indexOf('IN THIS CONFIGURATION:'));
    expect(inside).toMatch(/^IN THIS CONFIGURATION: {2}\(revision B, -a monitoring\.coreos\.com\/v1 --set /);
    expect(inside).toMatch(/^ {2}read by metrics, for these 2 objects/m);
    expect(inside).toMatch(/^ {4}ServiceMonitor default\/agentplat-controller-metrics /m);
    expect(inside).not.toContain('which this render did not declare');
  });

  it('-a takes what render takes: a bad API version is a usage error (exit 2)', async () => {
    const r = await runInProcess(['explain', 'controller.replicas', '-a', 'not an api']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--api-versions: "not an api" is not an API version');
  });

  it('a key nothing reads in the configuration: the switch that keeps it unread, and lint\'s values/no-effect verdict on the value set', async () => {
    const out = await explain(['ui.httpRoute.hostnames', '-r', 'B', '--set', 'ui.httpRoute.hostnames={a.example.com}']);
    const section = out.slice(out.indexOf('IN THIS CONFIGURATION:'));
    expect(section).toMatch(/^IN THIS CONFIGURATION: {2}\(revision B, --set ui\.httpRoute\.hostnames=\{a\.example\.com\}\)\n/);
    expect(section).toContain('  nothing this configuration renders reads it: `ui.httpRoute.enabled` is false, so nothing renders from it\n');
    expect(section).toContain('  the values set `ui.httpRoute.hostnames`: it has no effect: `ui.httpRoute.enabled` is false, so nothing renders from it  [values/no-effect]\n');
    expect(section).toContain('  without what the values set of it, the output is the same\n');
  });

  it('a key the configuration reads: the part that reads it and its objects, and the object and field the value set changes', async () => {
    const out = await explain(['authproxy.image.registry', '-f', PROXY]);
    const section = out.slice(out.indexOf('IN THIS CONFIGURATION:'));
    // The proxy records its reads per object: the registry is read for its Deployment alone.
    expect(section).toMatch(/\n {2}read by authproxy, for this object \(the key feeds one or more of them\):\n {4}Deployment /);
    expect(section).toContain('    Deployment default/agentplat-authproxy   agentplat/charts/authproxy/templates/deployment.yaml\n');
    expect(section).toContain('  the values set `authproxy.image.registry`: it changes the output\n');
    expect(section).toMatch(/ {4}Deployment default\/agentplat-authproxy: spec\.template\.spec\.containers\[name=authproxy\]\.image {3}/);
    // Only the objects it changes: the proxy's Service is made by the same part and does not change.
    expect(section.slice(section.indexOf('these objects change'))).not.toContain('Service default/agentplat-authproxy');
  });

  it('without values, explain has no configuration section; -o json carries the configuration when values are given', async () => {
    expect(await explain(['controller.replicas', '-r', 'B'])).not.toContain('IN THIS CONFIGURATION');
    const json = JSON.parse(await explain(['controller.replicas', '-r', 'B', '--set', 'controller.replicas=1', '-o', 'json'])) as { configuration?: { revision: string; readBy: string[]; set: { key: string; effect: boolean; rule?: string }[] } };
    expect(json.configuration).toMatchObject({ revision: 'B', set: [{ key: 'controller.replicas', effect: false, rule: 'values/same-as-default' }] });
    expect(json.configuration!.readBy).toContain('controller');
  });

  it('values with an error: reported as lint reports them, exit 1, nothing explained', async () => {
    const r = await runInProcess(['explain', 'controller.replicas', '-r', 'B', '--set', 'controller.replicas=many']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('controller.replicas');
  });
});
