// `agentplat render` in-process: lint first (nothing on stdout on error), output formats,
// --output-dir, --show-only, --skip-crds, --api-versions.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { objectsOf } from '../helpers/objects.ts';
import { runInProcess } from '../cli/in-process.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'agentplat-render-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('agentplat render', () => {
  it('defaults to revision B, release agentplat, namespace default, YAML with # Source headers', async () => {
    const { code, stdout: out } = await runInProcess(['render']);
    expect(code).toBe(0);
    expect(out).toMatch(/^---\n# Source: agentplat\/(charts\/mcpop\/)?crds\//);
    expect(out).toContain('# Source: agentplat/templates/controller-deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: agentplat-controller\n  namespace: default\n');
    expect(out).toContain('image: ghcr.io/agentplat/controller:0.11.0');
  });

  it('a lint error writes nothing to stdout, the problem to stderr, and exits 1', async () => {
    const d = tmp();
    writeFileSync(join(d, 'bad.yaml'), 'controller:\n  replicas: many\n');
    const { code, stdout: out, stderr: err } = await runInProcess(['render', '-f', 'bad.yaml'], { cwd: d });
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('bad.yaml:2:');
    expect(err).toContain('controller.replicas');
  });

  it('a template the evaluator cannot run in extraObjects is a lint error naming the entry', async () => {
    const { code, stdout: out, stderr: err } = await runInProcess(['render', '--set-json', 'extraObjects=[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"{{ lookup }}"}}]']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('extraObjects[0]');
  });

  it('-o json prints one v1 List with the objects as items', async () => {
    const { code, stdout: out } = await runInProcess(['render', '--revision', 'A', '-o', 'json', '--skip-crds']);
    expect(code).toBe(0);
    const list = JSON.parse(out);
    expect(list.apiVersion).toBe('v1');
    expect(list.kind).toBe('List');
    expect(list.items.some((o: any) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller')).toBe(true);
    expect(list.items.some((o: any) => o.kind === 'CustomResourceDefinition')).toBe(false);
  });

  it('--show-only keeps one source (repeatable) and a name that matches nothing is a usage error', async () => {
    const one = await runInProcess(['render', '-s', 'templates/controller-service.yaml', '--show-only', 'agentplat/templates/ui-service.yaml']);
    expect(one.code).toBe(0);
    expect(objectsOf(one.stdout).map((o) => o.metadata.name)).toEqual(['agentplat-controller', 'agentplat-ui']);
    const none = await runInProcess(['render', '--show-only', 'templates/nope.yaml']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('templates/nope.yaml');
  });

  it('--output-dir writes one file per source path, like helm template --output-dir', async () => {
    const d = tmp();
    const { code, stdout: out } = await runInProcess(['render', '--output-dir', join(d, 'out'), '-n', 'apps', '--release-name', 'prod']);
    expect(code).toBe(0);
    expect(out).toBe('');
    const templates = readdirSync(join(d, 'out', 'agentplat', 'templates'));
    expect(templates).toContain('controller-deployment.yaml');
    expect(existsSync(join(d, 'out', 'agentplat', 'templates', 'rbac', 'getter-role.yaml'))).toBe(true);
    const text = readFileSync(join(d, 'out', 'agentplat', 'templates', 'postgresql.yaml'), 'utf8');
    expect(objectsOf(text).map((o) => o.kind)).toEqual(['ServiceAccount', 'PersistentVolumeClaim', 'Service', 'Deployment']);
    expect(text).toContain('namespace: apps');
  });

  it('--output-dir writes nothing when linting fails', async () => {
    const d = tmp();
    const { code } = await runInProcess(['render', '--output-dir', join(d, 'out'), '--set', 'controller.replicas=many']);
    expect(code).toBe(1);
    expect(existsSync(join(d, 'out'))).toBe(false);
  });

  it('--api-versions enables capability-gated objects (Route, ServiceMonitor)', async () => {
    const { stdout: out } = await runInProcess(['render', '-a', 'route.openshift.io/v1', '--api-versions', 'monitoring.coreos.com/v1', '--set', 'controller.metrics.enabled=true', '--set', 'controller.metrics.serviceMonitor.enabled=true', '--skip-crds']);
    expect(out).toContain('kind: Route');
    expect(out).toContain('kind: ServiceMonitor');
  });

  it('usage errors: unknown output format, bad kube version, bad release name', async () => {
    for (const argv of [['render', '-o', 'toml'], ['render', '--kube-version', 'latest'], ['render', '--release-name', 'Bad_Name'], ['render', '--revision', 'C']]) {
      const r = await runInProcess(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});
