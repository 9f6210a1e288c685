// `agentplat migrate` of a Flux HelmRelease or an Argo CD Application (issue 36): the object is
// written back with its inline values migrated as a values file is and its chart version moved
// to revision B's line, every other byte of the file as it was; values it reads from elsewhere
// are named as decisions, with the change to make there. Run in-process in folders each test writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { tempFiles } from '../helpers/temp-dir.ts';
import { versionOnLine } from '../../src/gitops/versions.ts';

const folder = (files: Record<string, string>) => tempFiles('agentplat-gitops-migrate-', files);

const fluxRelease = (apiVersion: string, version: string, values: string, extra = '') => `# prod's release of the chart
apiVersion: ${apiVersion}
kind: HelmRelease
metadata:
  name: agentplat
  namespace: flux-system
spec:
  interval: 10m   # as Flux likes it
  chart:
    spec:
      chart: agentplat
      version: ${version}
      sourceRef: {kind: HelmRepository, name: agentplat}
${extra}  values:
${values}  install:
    crds: Create
`;

// Revision A's values: the auth mode's old name and the telemetry group A had.
const A_VALUES = '    # two for upgrades\n    controller:\n      replicas: 2\n      auth:\n        mode: unsecure\n    otel:\n      tracing:\n        enabled: false\n';
const B_VALUES = '    # two for upgrades\n    controller:\n      replicas: 2\n      auth:\n        mode: insecure\n    otel:\n      traces:\n        enabled: false\n';

/** `lint` of a migrated object in revision B: its last line and exit code. */
async function lintB(cwd: string, file: string) {
  const r = await runInProcess(['lint', '-r', 'B', '--no-effects', file], { cwd });
  return { summary: r.stdout.trimEnd().split('\n').at(-1), code: r.code, stdout: r.stdout };
}

describe('migrate -f a Flux HelmRelease', () => {
  for (const apiVersion of ['helm.toolkit.fluxcd.io/v2', 'helm.toolkit.fluxcd.io/v2beta2']) {
    it(`${apiVersion}: spec.values migrated, the chart version moved to 0.11.x, every other byte kept; the result lints clean in revision B`, async () => {
      const input = fluxRelease(apiVersion, '0.10.x', A_VALUES);
      const dir = folder({ 'helmrelease.yaml': input });
      const r = await runInProcess(['migrate', '-f', 'helmrelease.yaml'], { cwd: dir });
      expect(r.stderr).not.toContain('decide:');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(fluxRelease(apiVersion, '0.11.x', B_VALUES));
      expect(r.stderr).toContain('helmrelease.yaml:12:16: spec.chart.spec.version: "0.10.x" → "0.11.x" — revision B is chart 0.11.x');
      expect(r.stderr).toContain('helmrelease.yaml:19:9: controller.auth.mode: unsecure → insecure');
      writeFileSync(join(dir, 'migrated.yaml'), r.stdout);
      const lint = await lintB(dir, 'migrated.yaml');
      expect(lint.summary).toMatch(/^1 file, 0 errors, 0 warnings/);
      expect(lint.code).toBe(0);
    });
  }

  it('--in-place writes the object back; a second run finds it revision B already and changes nothing', async () => {
    const dir = folder({ 'helmrelease.yaml': fluxRelease('helm.toolkit.fluxcd.io/v2', '"0.10.3"', A_VALUES) });
    const first = await runInProcess(['migrate', '-i', 'helmrelease.yaml'], { cwd: dir });
    expect(first.code).toBe(0);
    const once = readFileSync(join(dir, 'helmrelease.yaml'), 'utf8');
    // An exact version becomes the chart version of revision B, its quotes kept.
    expect(once).toBe(fluxRelease('helm.toolkit.fluxcd.io/v2', '"0.11.0"', B_VALUES));
    const second = await runInProcess(['migrate', '-i', 'helmrelease.yaml'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain("note: already revision B: HelmRelease flux-system/agentplat's chart version (helmrelease.yaml:12:16 spec.chart.spec.version \"0.11.0\") is revision B and its values need no change; nothing changed");
    expect(second.stderr).toContain('0 changes, 0 decisions left for you');
    expect(readFileSync(join(dir, 'helmrelease.yaml'), 'utf8')).toBe(once);
  });

  it('a multi-document file: the ConfigMap its valuesFrom names in the same file is migrated in its block; the other documents stay byte for byte', async () => {
    const repo = '---\n# where the chart comes from\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: agentplat, namespace: flux-system}\nspec:\n    url: https://charts.example.com   # odd indentation, kept\n';
    const cm = '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: overrides\n  namespace: flux-system\ndata:\n  values.yaml: |\n    # from the ConfigMap\n    controller:\n      auth:\n        mode: unsecure\n';
    const hr = fluxRelease('helm.toolkit.fluxcd.io/v2', '0.10.x', '    ui:\n      replicas: 1\n', '  valuesFrom:\n  - kind: ConfigMap\n    name: overrides\n');
    const dir = folder({ 'release.yaml': repo + hr.replace(/^# prod's release of the chart\n/, '---\n') + cm });
    const r = await runInProcess(['migrate', 'release.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    const expected = repo + hr.replace(/^# prod's release of the chart\n/, '---\n').replace('version: 0.10.x', 'version: 0.11.x') + cm.replace('mode: unsecure', 'mode: insecure');
    expect(r.stdout).toBe(expected);
    expect(r.stderr).toMatch(/^release\.yaml:\d+:9: controller\.auth\.mode: unsecure → insecure/m);
  });

  it('a valuesFrom ConfigMap in another file that needs migration: a decision at its line, with the migrated text to write there; that file is not written', async () => {
    const other = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: overrides\n  namespace: flux-system\ndata:\n  values.yaml: |\n    controller:\n      auth:\n        mode: unsecure\n';
    const dir = folder({
      'helmrelease.yaml': fluxRelease('helm.toolkit.fluxcd.io/v2', '0.10.x', '    ui:\n      replicas: 1\n', '  valuesFrom:\n  - kind: ConfigMap\n    name: overrides\n'),
      'overrides.yaml': other,
    });
    const r = await runInProcess(['migrate', '-i', 'helmrelease.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    const at = lines.findIndex((l) => l.startsWith('overrides.yaml:10:9: controller.auth.mode: decide: unsecure → insecure'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at]).toContain('not written: spec.valuesFrom[0] ConfigMap flux-system/overrides key values.yaml is in overrides.yaml, not in helmrelease.yaml');
    expect(lines.slice(at + 1, at + 4)).toEqual(['    controller:', '      auth:', '        mode: insecure']);
    expect(readFileSync(join(dir, 'overrides.yaml'), 'utf8')).toBe(other);
    // The HelmRelease itself is written (its version moved) all the same.
    expect(readFileSync(join(dir, 'helmrelease.yaml'), 'utf8')).toContain('version: 0.11.x');
  });

  it('a range migrate cannot rewrite is refused at its file:line:col, and nothing is written', async () => {
    const input = fluxRelease('helm.toolkit.fluxcd.io/v2', '">=0.10.0 <0.11.0"', A_VALUES);
    const dir = folder({ 'helmrelease.yaml': input });
    const r = await runInProcess(['migrate', '-i', 'helmrelease.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('agentplat: helmrelease.yaml:12:16: HelmRelease flux-system/agentplat: spec.chart.spec.version ">=0.10.0 <0.11.0" is a range migrate does not rewrite');
    expect(r.stderr).toContain('hint: set spec.chart.spec.version to 0.11.x (or the exact 0.11.0) and run migrate again');
    expect(readFileSync(join(dir, 'helmrelease.yaml'), 'utf8')).toBe(input);
  });
});

const argoApp = (source: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: agentplat
  namespace: argocd
spec:
  project: default
  destination:
    namespace: agents
${source}`;

describe('migrate an Argo CD Application', () => {
  it('source: helm.values stays a string (its literal block), targetRevision moves to the B line in its spelling', async () => {
    const source = (rev: string, mode: string) => `  source:\n    repoURL: https://charts.example.com\n    chart: agentplat\n    targetRevision: ${rev}\n    helm:\n      values: |-\n        # mine\n        controller:\n          auth:\n            mode: ${mode}\n`;
    const dir = folder({ 'application.yaml': argoApp(source('~0.10.1', 'unsecure')) });
    const r = await runInProcess(['migrate', 'application.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(argoApp(source('~0.11.0', 'insecure')));
  });

  it('sources: helm.valuesObject migrated; a parameter and a repository values file that need migration are decisions at their lines', async () => {
    const source = (rev: string, mode: string) =>
      `  sources:\n    - repoURL: https://charts.example.com\n      chart: agentplat\n      targetRevision: ${rev}\n      helm:\n        valueFiles:\n          - $values/envs/prod.yaml\n        valuesObject:\n          controller:\n            auth:\n              mode: ${mode}\n        parameters:\n          - name: otel.tracing.enabled\n            value: "false"\n    - repoURL: https://git.example.com/values.git\n      targetRevision: main\n      ref: values\n`;
    const dir = folder({ 'application.yaml': argoApp(source('0.10.0', 'unsecure')) });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'repo/envs'), { recursive: true });
    writeFileSync(join(dir, 'repo/envs/prod.yaml'), 'controller:\n  auth:\n    mode: unsecure\n');
    const r = await runInProcess(['migrate', 'application.yaml', '--values-from', 'repo'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(argoApp(source('0.11.0', 'insecure')));
    expect(r.stderr).toContain('repo/envs/prod.yaml:3:5: controller.auth.mode: decide: unsecure → insecure — revision B renamed the mode; behaviour is unchanged; not written: repo/envs/prod.yaml is a values file of the repository; migrate it with: agentplat migrate -i repo/envs/prod.yaml');
    expect(r.stderr).toContain('application.yaml:23:20: otel.tracing.enabled: decide: moved to otel.traces.enabled — revision B groups telemetry by signal; not written: the value is set by helm.parameters (application.yaml:22:11); make the change there');
  });
});

describe('the chart version on the target line, in its spelling', () => {
  it('an exact version, one minor release as a wildcard, ~ and ^ move to 0.11; other ranges are not rewritten', () => {
    expect(versionOnLine('0.10.3', 'B')).toBe('0.11.0');
    expect(versionOnLine('v0.10.0', 'B')).toBe('v0.11.0');
    expect(versionOnLine('0.10.x', 'B')).toBe('0.11.x');
    expect(versionOnLine('0.10.*', 'B')).toBe('0.11.*');
    expect(versionOnLine('~0.10.2', 'B')).toBe('~0.11.0');
    expect(versionOnLine('^0.10.1', 'B')).toBe('^0.11.0');
    expect(versionOnLine('0.10', 'B')).toBe('0.11');
    expect(versionOnLine('>=0.10.0 <0.11.0', 'B')).toBeUndefined();
    expect(versionOnLine('0.9.x || 0.10.x', 'B')).toBeUndefined();
  });
});
