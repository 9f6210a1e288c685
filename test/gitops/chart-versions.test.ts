// Which chart version, and so which revision, a HelmRelease or an Application is of, and the order
// of an Application's value files, as the differential test against Flux's and Argo CD's own code
// (test/cluster/gitops-oracles.test.ts) found them: Masterminds semver ranges, an OCIRepository's
// semverFilter and tag, a chart from Git, a value file named twice, a source's ref.
import { describe, expect, it } from 'vitest';
import { resolveVersion } from '../../src/gitops/versions.ts';
import { readGitopsFile } from '../../src/gitops/index.ts';
import { memoryReader, refusal } from './_reading.ts';


function read(text: string, r = memoryReader()) {
  return readGitopsFile({ name: 'object.yaml', text }, r);
}

const HR = (chart: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: apps
spec:
  interval: 10m
${chart}`;

const CHART_REF = (kind: string) => `  chartRef:
    kind: ${kind}
    name: agentplat
`;

const OCI = (ref: string) => `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: agentplat
  namespace: apps
spec:
  url: oci://ghcr.io/example/charts/agentplat
  ref:
${ref}`;

describe('a chart version range, read as Masterminds semver reads it (Flux, Argo CD)', () => {
  it('a comparison may have spaces after its operator, and a hyphen range may stand beside other comparisons', () => {
    expect(resolveVersion('>= 0.10.3')?.revision).toBe('B');
    expect(resolveVersion('>= 0.10.0 < 0.11.0')?.revision).toBe('A');
    expect(resolveVersion('0.10.1 - 0.10.4, !=0.10.4')).toEqual({ revision: 'A', version: '0.10.3' });
  });

  it('~0.0.0 admits every version, as Masterminds reads a tilde of 0.0.0', () => {
    expect(resolveVersion('~0.0.0')?.revision).toBe('B');
  });

  it('a range admits a pre-release only when one of its comparisons names one, and a release is above its own pre-releases', () => {
    expect(resolveVersion('>0.11.0-rc.1 <0.11.1')).toEqual({ revision: 'B', version: '0.11.0' });
    expect(resolveVersion('>=0.11.0-rc.1 <0.11.0')).toEqual({ revision: 'B', version: '0.11.0-rc.1' });
    expect(resolveVersion('<0.11.0-rc.1')?.revision).toBe('A');
    expect(resolveVersion('<0.11.0')?.revision).toBe('A');
  });

  it('a text that is no range and admits no known version is refused', () => {
    expect(resolveVersion('latest')).toBeUndefined();
    expect(resolveVersion('0.12.x')).toBeUndefined();
    expect(resolveVersion('>0.x')).toBeUndefined();
  });
});

describe("a HelmRelease's chartRef and chart source, as source-controller decides the version", () => {
  it("an OCIRepository's ref.semver is resolved over the tags ref.semverFilter keeps", () => {
    const text = HR(CHART_REF('OCIRepository')) + OCI("    semver: '>=0.10.0'\n    semverFilter: '^0\\.10\\.'\n");
    expect(read(text).releases[0]?.revision).toBe('A');
  });

  it("an OCIRepository's ref.tag names one version as written: a range there is refused", () => {
    expect(read(HR(CHART_REF('OCIRepository')) + OCI('    tag: 0.10.4\n')).releases[0]?.revision).toBe('A');
    expect(refusal(() => read(HR(CHART_REF('OCIRepository')) + OCI('    tag: 0.11.x\n')))).toMatch(/object\.yaml:\d+:\d+: HelmRelease apps\/agentplat: tag "0\.11\.x" matches no version of agentplat .*\| .*spec\.ref\.tag of the OCIRepository \(one version as written/);
  });

  it('an OCIRepository with a digest beside its tag is read at the tag, with a note that the digest decides for Flux', () => {
    const r = read(HR(CHART_REF('OCIRepository')) + OCI(`    tag: 0.10.1\n    digest: sha256:${'0'.repeat(64)}\n`));
    expect(r.releases[0]?.revision).toBe('A');
    expect(r.notes.join('\n')).toMatch(/spec\.ref\.digest sha256:0+ pins the artifact Flux pulls; agentplat takes its chart version from spec\.ref\.tag/);
  });

  it("a chart from a GitRepository is at its Chart.yaml's version, whatever spec.chart.spec.version says", () => {
    const text = HR('  chart:\n    spec:\n      chart: ./charts/agentplat\n      version: 0.11.x\n      sourceRef:\n        kind: GitRepository\n        name: platform\n');
    const r = read(text, memoryReader({}, { 'charts/agentplat/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.10.3\n' }));
    expect(r.releases[0]?.revision).toBe('A');
    expect(r.notes.join('\n')).toContain('the chart is read from charts/agentplat/Chart.yaml at version 0.10.3 (Flux ignores spec.chart.spec.version for a GitRepository)');
    expect(refusal(() => read(text))).toMatch(/object\.yaml:\d+:\d+: HelmRelease apps\/agentplat: the chart comes from a GitRepository, so Flux installs it at the version its Chart\.yaml says .* charts\/agentplat\/Chart\.yaml is not found under the test repository \| pass the source's root with --values-from DIR/);
  });

  it("a chart path that leaves the Git source's root is refused, naming the path", () => {
    const text = HR('  chart:\n    spec:\n      chart: ../charts/agentplat\n      sourceRef:\n        kind: GitRepository\n        name: platform\n');
    expect(refusal(() => read(text, memoryReader({}, { '../charts/agentplat/Chart.yaml': 'name: agentplat\nversion: 0.10.0\n' })))).toMatch(/object\.yaml:10:14: HelmRelease apps\/agentplat: the chart path "\.\.\/charts\/agentplat" leaves the GitRepository's root \| write the chart's path from the root of the source/);
  });

  it('a HelmChart of a Bucket named by chartRef is at its Chart.yaml version too', () => {
    const chart = '---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata:\n  name: agentplat\nspec:\n  chart: charts/agentplat\n  version: 0.10.x\n  sourceRef:\n    kind: Bucket\n    name: b\n';
    const r = read(HR(CHART_REF('HelmChart')) + chart, memoryReader({}, { 'charts/agentplat/Chart.yaml': 'name: agentplat\nversion: 0.11.2\n' }));
    expect(r.releases[0]?.revision).toBe('B');
  });
});

const APP = (files: string[], refSource = '  - repoURL: https://git.example.com/platform.git\n    targetRevision: main\n    ref: values\n') => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: agentplat
  namespace: argocd
spec:
  project: default
  destination:
    namespace: apps
  sources:
  - repoURL: https://git.example.com/platform.git
    targetRevision: main
    path: chart
    helm:
      valueFiles:
${files.map((f) => `      - ${f}`).join('\n')}
${refSource}`;

const REPO = {
  'chart/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.11.0\n',
  'chart/values-a.yaml': 'registry: a.example\n',
  'envs/prod.yaml': 'registry: prod.example\n',
};

describe("an Application's value files, in the order the repo-server hands them to helm", () => {
  it('a file named twice (here once as $values/…) is read at its first place only', () => {
    const r = read(APP(['values-a.yaml', '$values/envs/prod.yaml', '$values/chart/values-a.yaml']), memoryReader({}, REPO));
    expect(r.releases[0]?.layers.map((l) => l.name)).toEqual(['chart/values-a.yaml', 'envs/prod.yaml']);
    expect(r.notes.join('\n')).toContain('helm.valueFiles[2] reads chart/values-a.yaml, which helm.valueFiles[0] reads already: Argo CD passes a file to helm once, at its first place');
  });

  it('the same path in a ref source of another repository is another file, read at its own place', () => {
    const other = '  - repoURL: https://git.example.com/values.git\n    targetRevision: main\n    ref: values\n';
    const r = read(APP(['values-a.yaml', '$values/envs/prod.yaml', '$values/chart/values-a.yaml'], other), memoryReader({}, REPO));
    expect(r.releases[0]?.layers.map((l) => l.name)).toEqual(['chart/values-a.yaml', 'envs/prod.yaml', 'chart/values-a.yaml']);
  });

  it('a ref with a character Argo CD refuses, or two sources with one ref, are refused', () => {
    const bad = '  - repoURL: https://git.example.com/platform.git\n    targetRevision: main\n    ref: my.values\n';
    expect(refusal(() => read(APP(['values-a.yaml'], bad), memoryReader({}, REPO)))).toMatch(/object\.yaml:\d+:\d+: Application argocd\/agentplat: spec\.sources\[1\]\.ref "my\.values" holds a character Argo CD refuses in a ref \| write the ref with letters, digits/);
    const twice = `  - repoURL: https://git.example.com/a.git\n    ref: values\n  - repoURL: https://git.example.com/b.git\n    ref: values\n`;
    expect(refusal(() => read(APP(['values-a.yaml'], twice), memoryReader({}, REPO)))).toMatch(/spec\.sources\[2\]\.ref "values" is the ref of an earlier source too, which Argo CD refuses/);
  });
});
