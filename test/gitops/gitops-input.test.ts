// A Flux HelmRelease or an Argo CD Application as input (issue 36): what render, lint, values
// --computed --show-origin and plan make of the object, with every position in the user's file,
// and the refusals of what the controller would refuse. Run in-process over fixtures/gitops/ and
// files each test writes.
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { runInProcess } from '../cli/in-process.ts';
import { tempFiles } from '../helpers/temp-dir.ts';
import { embeddedText } from '../../src/gitops/embedded.ts';
import { shortenReleaseName } from '../../src/gitops/flux.ts';
import { resolveVersion } from '../../src/gitops/versions.ts';
import { readGitopsFile } from '../../src/gitops/index.ts';

const FLUX = 'fixtures/gitops/flux/helmrelease.yaml';
const FLUX_NEXT = 'fixtures/gitops/flux/helmrelease-0.11.yaml';
const ARGO = 'fixtures/gitops/argocd/application.yaml';
const ARGO_REPO = ['--values-from', 'fixtures/gitops/argocd/repo'];

const folder = (files: Record<string, string>) => tempFiles('agentplat-gitops-', files);

/** The origin column of `key` in `values --computed --show-origin`'s table. */
function origin(table: string, key: string): string | undefined {
  const line = table.split('\n').find((l) => l.startsWith(`${key} `));
  return line ? /^\S+ +.*? {2,}(\S.*)$/.exec(line)![1] : undefined;
}

/** Every problem of lint's JSON report, with the file it is in. */
function lintProblems(json: string): { file: string; line: number; column: number; path: string }[] {
  const report = JSON.parse(json) as { files: { file: string; problems: { line: number; column: number; path: string }[] }[] };
  return report.files.flatMap((f) => f.problems.map((p) => ({ file: f.file, ...p })));
}

const HR = (extra: string, values = '  values:\n    controller:\n      replicas: 2\n', version = '0.11.x') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: flux-system
spec:
  chart:
    spec:
      chart: agentplat
      version: ${version}
${values}${extra}`;

describe('a Flux HelmRelease as -f', () => {
  it('values --computed --show-origin names spec.values, each valuesFrom ConfigMap with its line, and the targetPath', async () => {
    const r = await runInProcess(['values', '--computed', '--show-origin', '-f', FLUX]);
    expect(r.code).toBe(0);
    expect(origin(r.stdout, 'controller.replicas')).toBe(`${FLUX}:18:7 spec.values`);
    expect(origin(r.stdout, 'ui.replicas')).toBe('fixtures/gitops/flux/overrides.yaml:9:7 spec.valuesFrom[0] ConfigMap flux-system/agentplat-overrides key values.yaml line 2');
    expect(origin(r.stdout, 'controller.image.tag')).toMatch(/^fixtures\/gitops\/flux\/helmrelease\.yaml:50:8 spec\.valuesFrom\[1\] ConfigMap flux-system\/agentplat-image key tag at targetPath controller\.image\.tag/);
    // The optional Secret that is missing is skipped, as Flux skips it, with a note.
    expect(r.stderr).toContain('spec.valuesFrom[2] Secret flux-system/agentplat-secret-values is optional and not found beside the HelmRelease: Flux skips it');
  });

  it('values --computed -o json prints the composed values with the targetPath value typed as a string when quoted', async () => {
    const r = await runInProcess(['values', '--computed', '-o', 'json', '-f', FLUX]);
    const values = JSON.parse(r.stdout) as { controller: { image: { tag: unknown }; replicas: unknown }; ui: { replicas: unknown } };
    expect(values.controller.replicas).toBe(2);
    expect(values.ui.replicas).toBe(2);
    expect(values.controller.image.tag).toBe('0.10.0');
  });

  it('render takes the revision from the chart version, the release name and namespace from targetNamespace, and applies the post-renderer', async () => {
    const r = await runInProcess(['render', '-o', 'json', '-f', FLUX]);
    expect(r.code).toBe(0);
    const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: { template?: { metadata?: { annotations?: Record<string, string> } } } }[] }).items;
    const controller = items.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agents-agentplat-controller');
    expect(controller?.metadata.namespace).toBe('agents');
    expect(controller?.spec?.template?.metadata?.annotations?.['example.com/patched']).toBe('yes');
    // Chart 0.10.x is revision A, which bundles the agents.
    expect(items.some((o) => o.kind === 'Agent')).toBe(true);
  });

  it('a revision given with -r that contradicts the chart version is refused', async () => {
    const r = await runInProcess(['render', '-r', 'B', '-f', FLUX]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--revision B contradicts HelmRelease flux-system/agentplat in ${FLUX}: its chart version (${FLUX}:12:16 spec.chart.spec.version "0.10.x") is revision A`);
  });

  it('plan from the HelmRelease at 0.10.x to the one at 0.11.x compares revision A with revision B', async () => {
    const r = await runInProcess(['plan', '-o', 'json', '-f', FLUX, '--to-values', FLUX_NEXT]);
    expect([0, 1]).toContain(r.code);
    const plan = JSON.parse(r.stdout) as { from: { revision: string }; to: { revision: string } };
    expect(plan.from.revision).toBe('A');
    expect(plan.to.revision).toBe('B');
  });

  it('lint places a problem of spec.values at its line in the HelmRelease and one of a ConfigMap at its line inside the data block', async () => {
    const dir = folder({
      'helmrelease.yaml': HR('  valuesFrom:\n    - kind: ConfigMap\n      name: extra\n', '  values:\n    controller:\n      replicaz: 2\n'),
      'extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: flux-system\ndata:\n  values.yaml: |-\n    ui:\n      replicaz: 3\n',
    });
    const r = await runInProcess(['lint', '--format', 'json', 'helmrelease.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    const problems = lintProblems(r.stdout);
    expect(problems.find((p) => p.path === 'controller.replicaz')).toMatchObject({ file: 'helmrelease.yaml', line: 13, column: 7 });
    expect(problems.find((p) => p.path === 'ui.replicaz')).toMatchObject({ file: 'extra.yaml', line: 9, column: 7 });
  });

  it('lint over a glob lints every HelmRelease of this chart, skips the ConfigMaps and notes objects of other charts', async () => {
    const dir = folder({
      'clusters/prod/helmrelease.yaml': HR(''),
      'clusters/prod/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: {}\n',
      'clusters/prod/podinfo.yaml': HR('').replace('chart: agentplat', 'chart: podinfo'),
    });
    const r = await runInProcess(['lint', 'clusters/**/*.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('clusters/prod/podinfo.yaml: HelmRelease flux-system/agentplat is of chart "podinfo", not agentplat: skipped');
    expect(r.stdout).toContain('1 file');
  });
});

describe('what Flux refuses is refused with its position', () => {
  async function refusal(files: Record<string, string>, args: string[] = ['render', '-f', 'helmrelease.yaml']): Promise<string> {
    const r = await runInProcess(args, { cwd: folder(files) });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    return r.stderr;
  }

  it('a valuesFrom source that is missing and not optional', async () => {
    const err = await refusal({ 'helmrelease.yaml': HR('  valuesFrom:\n    - kind: ConfigMap\n      name: absent\n') });
    expect(err).toContain('helmrelease.yaml:15:7: HelmRelease flux-system/agentplat: spec.valuesFrom[0] names ConfigMap flux-system/absent, which is not in this file nor beside it, and is not optional: Flux fails the release');
    expect(err).toContain('hint: put the ConfigMap');
  });

  it('a targetPath that writes a key into a list', async () => {
    const err = await refusal({
      'helmrelease.yaml': HR('  valuesFrom:\n    - kind: ConfigMap\n      name: tag\n      valuesKey: tag\n      targetPath: controller.tolerations.key\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tag\ndata:\n  tag: x\n', '  values:\n    controller:\n      tolerations: []\n'),
    });
    expect(err).toContain('helmrelease.yaml:18:19: HelmRelease flux-system/agentplat: spec.valuesFrom[0].targetPath controller.tolerations.key writes the key "key" into a list at controller.tolerations');
  });

  it('a valuesFrom kind the controller rejects', async () => {
    const err = await refusal({ 'helmrelease.yaml': HR('  valuesFrom:\n    - kind: Deployment\n      name: x\n') });
    expect(err).toContain('helmrelease.yaml:15:13: HelmRelease flux-system/agentplat: spec.valuesFrom[0].kind Deployment: Flux reads values from a ConfigMap or a Secret only');
  });

  it('a post-renderer patch without a target whose own kind and name match no object fails the release, at the patch', async () => {
    const r = await runInProcess(['render', '-f', 'helmrelease.yaml'], {
      cwd: folder({ 'helmrelease.yaml': HR('  postRenderers:\n    - kustomize:\n        patches:\n          - patch: |\n              apiVersion: apps/v1\n              kind: Deployment\n              metadata:\n                name: nothing-of-this-name\n') }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('helmrelease.yaml:17:13  error  HelmRelease flux-system/agentplat: spec.postRenderers[0].kustomize.patches[0]: no rendered object is the patch\'s own target (kind Deployment, group apps, version v1, name nothing-of-this-name, no namespace): Kustomize finds nothing to merge it into, so Flux fails the release  [gitops/patch-no-match]');
  });

  it('a chart version agentplat does not know, with the versions it knows', async () => {
    const err = await refusal({ 'helmrelease.yaml': HR('', '', '0.9.x') });
    expect(err).toContain('helmrelease.yaml:10:16: HelmRelease flux-system/agentplat: chart version "0.9.x" matches no version of agentplat agentplat knows');
    expect(err).toContain('0.10.x (revision A) and 0.11.x (revision B)');
  });
});

const APP = (helm: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: platform
  namespace: argocd
spec:
  destination:
    namespace: agents
  source:
    repoURL: https://charts.example.com
    chart: agentplat
    targetRevision: 0.11.0
    helm:
${helm}`;

describe('an Argo CD Application as -f', () => {
  it('values --computed --show-origin names the $ref value file, valuesObject and each parameter', async () => {
    const r = await runInProcess(['values', '--computed', '--show-origin', '-f', ARGO, ...ARGO_REPO]);
    expect(r.code).toBe(0);
    // parameters come last, over the value file that also sets controller.replicas.
    expect(origin(r.stdout, 'controller.replicas')).toBe(`${ARGO}:23:20 parameters[0]`);
    expect(origin(r.stdout, 'ui.replicas')).toBe(`${ARGO}:20:13 helm.valuesObject`);
    expect(origin(r.stdout, 'controller.image.tag')).toMatch(new RegExp(`^${ARGO}:25:20 parameters\\[1\\]`));
  });

  it('render takes releaseName (default the Application name), the destination namespace and forceString parameters as strings', async () => {
    const dir = folder({ 'app.yaml': APP('      parameters:\n        - name: controller.replicas\n          value: "2"\n') });
    const r = await runInProcess(['values', '--computed', '-o', 'json', '-f', 'app.yaml'], { cwd: dir });
    expect((JSON.parse(r.stdout) as { controller: { replicas: unknown } }).controller.replicas).toBe(2);
    const rendered = await runInProcess(['render', '-o', 'json', '-f', 'app.yaml'], { cwd: dir });
    const items = (JSON.parse(rendered.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string } }[] }).items;
    const deployments = items.filter((o) => o.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const d of deployments) expect(d.metadata).toMatchObject({ namespace: 'agents', name: expect.stringMatching(/^platform-/) });
  });

  it('lint places a problem in a helm.values block scalar at its line inside the block, and one of a parameter at the parameter', async () => {
    const dir = folder({ 'app.yaml': APP('      values: |\n        controller:\n          replicaz: 2\n      parameters:\n        - name: ui.replicaz\n          value: "2"\n') });
    const r = await runInProcess(['lint', '--format', 'json', 'app.yaml'], { cwd: dir });
    const problems = lintProblems(r.stdout);
    expect(problems.find((p) => p.path === 'controller.replicaz')).toMatchObject({ file: 'app.yaml', line: 16, column: 11 });
    expect(problems.find((p) => p.path === 'ui.replicaz')).toMatchObject({ file: 'app.yaml', line: 19, column: 18 });
  });

  it('a valueFiles path outside the repository is refused', async () => {
    const dir = folder({ 'app.yaml': APP('      valueFiles:\n        - ../../../etc/values.yaml\n').replace('    chart: agentplat\n', '    path: charts/agentplat\n'), 'charts/agentplat/Chart.yaml': 'name: agentplat\nversion: 0.11.0\n' });
    const r = await runInProcess(['render', '-f', 'app.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('app.yaml:15:11: Application argocd/platform: helm.valueFiles[0] "../../../etc/values.yaml" is outside the repository, which Argo CD refuses');
  });
});

describe('reading a YAML text inside a YAML string', () => {
  const map = (text: string, path: string[]) => {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines });
    return embeddedText(doc.getIn(path, true) as never, text, lines)!;
  };
  it('maps a literal block (|, |-, with an indentation indicator) line for line, and a folded or quoted string to its start', () => {
    expect(map('a:\n  k: |\n    x: 1\n    y: 2\n', ['a', 'k']).toOuter(2, 1)).toEqual({ line: 4, col: 5, exact: true });
    expect(map('k: |-\n  x: 1\n', ['k']).toOuter(1, 4)).toEqual({ line: 2, col: 6, exact: true });
    expect(map('k: |4\n      x: 1\n', ['k']).toOuter(1, 3)).toEqual({ line: 2, col: 7, exact: true });
    expect(map('k: >\n  x: 1\n', ['k']).toOuter(1, 1)).toEqual({ line: 1, col: 4, exact: false });
    expect(map('k: "x: 1"\n', ['k']).toOuter(1, 1)).toEqual({ line: 1, col: 4, exact: false });
  });
});

describe("Flux's and Argo CD's naming and versions", () => {
  it('a release name past 53 characters is cut to 40 and a 12-character hash, as Flux does', () => {
    const long = `${'n'.repeat(30)}-${'r'.repeat(30)}`;
    const short = shortenReleaseName(long);
    expect(short).toHaveLength(53);
    expect(short.startsWith(`${long.slice(0, 40)}-`)).toBe(true);
    expect(shortenReleaseName('agents-agentplat')).toBe('agents-agentplat');
  });
  it('a version range resolves to the newest minor release of the chart it admits', () => {
    expect(resolveVersion('0.10.x')?.revision).toBe('A');
    expect(resolveVersion('>=0.10.0 <0.12.0')?.revision).toBe('B');
    expect(resolveVersion('^0.10.1')?.revision).toBe('A');
    expect(resolveVersion('~0.11')?.revision).toBe('B');
    expect(resolveVersion('*')?.revision).toBe('B');
    expect(resolveVersion('0.10.7')?.revision).toBe('A');
    expect(resolveVersion('1.x')).toBeUndefined();
  });
  it('the default release name is <targetNamespace>-<name>', () => {
    const read = readGitopsFile({ name: 'hr.yaml', text: HR('  targetNamespace: ops\n') }, { neighbours: () => [], repoFile: () => undefined, repoRootText: '' });
    expect(read.releases[0]).toMatchObject({ releaseName: 'ops-agentplat', namespace: 'ops', revision: 'B' });
  });
});
