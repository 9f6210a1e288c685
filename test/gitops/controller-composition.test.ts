// What Flux's chartutil and Argo CD's repo-server do that a plain reading gets wrong, found by
// holding agentplat to the controllers' own code (test/cluster/gitops-oracles.test.ts): a Flux
// targetPath value written into a map spec.values shares wins over spec.values, and an Argo CD Git
// source is of the chart its Chart.yaml names, at the version that file gives.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

const folder = (files: Record<string, string>) => tempFiles('agentplat-gitops-compose-', files);

async function computed(files: Record<string, string>, file: string): Promise<Record<string, any>> {
  const r = await runInProcess(['values', '--computed', '-o', 'json', '-f', file], { cwd: folder(files) });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
}

const HR = (valuesFrom: string, values: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: apps
spec:
  chart:
    spec:
      chart: agentplat
      version: 0.11.0
  valuesFrom:
${valuesFrom}  values:
${values}`;
const CM = (name: string, data: string) => `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
${data}`;

describe('a Flux targetPath and spec.values, composed as chartutil composes them', () => {
  it('a targetPath value inside a map only spec.values has is written into spec.values and wins over it', async () => {
    const v = await computed({
      'hr.yaml': HR('    - kind: ConfigMap\n      name: t\n      valuesKey: level\n      targetPath: controller.loglevel\n', '    controller:\n      loglevel: error\n') + CM('t', '  level: info\n'),
    }, 'hr.yaml');
    expect(v.controller.loglevel).toBe('info');
  });

  it('and it still wins when a later reference sets the same key: spec.values, which now holds it, is merged last', async () => {
    const v = await computed({
      'hr.yaml': HR(
        '    - kind: ConfigMap\n      name: t\n      valuesKey: flag\n      targetPath: controller.mcpEgressPlaintext\n    - kind: ConfigMap\n      name: later\n',
        '    controller:\n      replicas: 2\n',
      ) + CM('t', '  flag: "true"\n') + CM('later', '  values.yaml: |\n    controller:\n      mcpEgressPlaintext: false\n'),
    }, 'hr.yaml');
    expect(v.controller.mcpEgressPlaintext).toBe(true);
  });

  it('where an earlier reference made the map, or at the top level, spec.values wins over the targetPath', async () => {
    const copied = await computed({
      'hr.yaml': HR(
        '    - kind: ConfigMap\n      name: a\n    - kind: ConfigMap\n      name: t\n      valuesKey: level\n      targetPath: controller.loglevel\n',
        '    controller:\n      loglevel: error\n',
      ) + CM('a', '  values.yaml: |\n    controller:\n      replicas: 2\n') + CM('t', '  level: info\n'),
    }, 'hr.yaml');
    expect(copied.controller.loglevel).toBe('error');
    const top = await computed({
      'hr.yaml': HR('    - kind: ConfigMap\n      name: t\n      valuesKey: r\n      targetPath: registry\n', '    registry: s.example\n') + CM('t', '  r: t.example\n'),
    }, 'hr.yaml');
    expect(top.registry).toBe('s.example');
  });
});

const APP = (path: string, targetRevision = 'main') => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: platform
  namespace: argocd
spec:
  destination:
    namespace: agents
  source:
    repoURL: https://git.example.com/platform.git
    targetRevision: ${targetRevision}
    path: ${path}
    helm:
      parameters:
        - name: controller.replicas
          value: "3"
`;

describe('an Argo CD Git source is of the chart its Chart.yaml names', () => {
  it('a chart folder of another name whose Chart.yaml names agentplat is read, at the Chart.yaml version (targetRevision is a Git ref)', async () => {
    const files = { 'app.yaml': APP('chart'), 'chart/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.10.0\n' };
    const r = await runInProcess(['values', '--computed', '--show-origin', '-f', 'app.yaml'], { cwd: folder(files) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^controller\.replicas +3 /m);
    expect(r.stderr).not.toContain('skipped');
    // The version is the Chart.yaml's: one agentplat does not know is refused there, whatever targetRevision says.
    const old = await runInProcess(['values', '--computed', '-f', 'app.yaml'], { cwd: folder({ ...files, 'app.yaml': APP('chart', '0.11.0'), 'chart/Chart.yaml': 'name: agentplat\nversion: 0.9.0\n' }) });
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('chart/Chart.yaml: Application argocd/platform: chart version "0.9.0" matches no version of agentplat agentplat knows');
  });

  it('a folder named agentplat whose Chart.yaml names another chart is skipped, naming that chart and its Chart.yaml', async () => {
    const r = await runInProcess(['values', '--computed', '-f', 'app.yaml'], { cwd: folder({ 'app.yaml': APP('charts/agentplat'), 'charts/agentplat/Chart.yaml': 'name: podinfo\nversion: 6.0.0\n' }) });
    expect(r.stderr).toContain('app.yaml: Application argocd/platform is of chart "podinfo" (charts/agentplat/Chart.yaml), not agentplat: skipped');
  });

  it('a path with no Chart.yaml (a plugin or plain manifests) is skipped, saying it holds no chart, not that it is a chart of its folder name', async () => {
    const r = await runInProcess(['values', '--computed', '-f', 'app.yaml'], { cwd: folder({ 'app.yaml': APP('envs/prod') }) });
    expect(r.stderr).toContain('app.yaml: Application argocd/platform reads envs/prod, which holds no Chart.yaml under the current directory');
    expect(r.stderr).toContain('(no Helm chart), not agentplat: skipped');
    expect(r.stderr).not.toContain('chart "prod"');
  });
});

describe('a key is judged by the HelmRelease without it, as the controller composes it', () => {
  // Flux merges spec.values in before a targetPath write (above): the layer of that write carries
  // spec.values along. Taking a key out of spec.values must take it out of what that layer carries.
  const files = {
    'hr.yaml': HR(
      '    - kind: ConfigMap\n      name: base\n    - kind: ConfigMap\n      name: t\n      valuesKey: level\n      targetPath: controller.loglevel\n',
      '    ui:\n      replicas: 5\n    controller:\n      replicas: 1\n',
    ) + CM('base', '  values.yaml: |\n    ui:\n      replicas: 2\n') + CM('t', '  level: debug\n'),
  };

  it('a spec.values key a targetPath write carries along is not called the default when removing it changes the render', async () => {
    const dir = folder(files);
    const shown = await runInProcess(['values', '--computed', '--show-origin', '-f', 'hr.yaml'], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^ui\.replicas +5 +hr\.yaml:\d+:\d+ spec\.values *$/m);
    const lint = await runInProcess(['lint', '--format', 'json', 'hr.yaml'], { cwd: dir });
    const rules = (JSON.parse(lint.stdout) as { files: { problems: { rule: string; path: string }[] }[] }).files.flatMap((f) => f.problems).map((p) => `${p.rule} ${p.path}`);
    expect(rules).not.toContain('values/same-as-default ui.replicas');
    expect(rules).not.toContain('values/no-effect ui.replicas');
    // The key that does repeat the default (controller.replicas: 1) is still named.
    expect(rules).toContain('values/same-as-default controller.replicas');
  });
});
