// agentplat's reading of Flux HelmReleases and Argo CD Applications, held to the controllers' own
// code (issue 36, item 4; docs/testing.md, "Held to the controllers' own code"). Three oracles,
// each a small Go program of ours over the real code, built from the Go module proxy by
// test/oracles/build.sh:
//
// - flux-values: Flux's values composition, github.com/fluxcd/pkg/chartutil
//   ChartValuesFromReferences (what helm-controller calls) over a fake client holding the
//   ConfigMaps and Secrets, then helm's own coalescing of the chart's defaults under the result;
// - argocd-values: Argo CD's repo-server, reposerver/repository.GenerateManifests, which builds the
//   `helm template` command line of an Application and runs helm (HELM_VERSION) on a chart that
//   prints its .Values;
// - kustomize-postrender: sigs.k8s.io/kustomize/api, set up as helm-controller's post-renderer.
//
// The first block checks the oracles themselves against values worked out by hand from the
// controllers' rules (so a broken oracle cannot pass the differential test), and that every case
// of the generated corpus the generator marks as refused is refused by the controller code, and no
// other. The second block, "agentplat against the controllers' own code", runs the corpus through
// agentplat and the oracles and fails on any difference not listed in test/oracles/allowlist.yaml.
// It needs `agentplat values --computed -f <HelmRelease|Application>` and `agentplat render -f
// <HelmRelease>` (the gitops reading): set AGENTPLAT_READS_GITOPS below to true when they exist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defaultsSource } from '../../src/values/defaults.ts';
import { argoCorpus, CHART_VERSION, DEFAULT_SEED, fluxCorpus, PUBLISHED_VERSIONS, SOURCE_PATH, type ArgoCase, type FluxCase, type Revision } from '../oracles/corpus.ts';
import {
  agentplatValues, argoValues, buildOracle, compareOutcomes, fluxValues, kustomizeObjects, normalize, readAllowlist, run, ROOT,
  writeFiles, writeValuesChart, type Outcome,
} from '../oracles/oracles.ts';
import { buildHelm } from './_cluster.ts';
import { HELM_VERSION } from './_versions.ts';

/** True once agentplat reads HelmReleases and Applications (the h-gitops work is merged): turns on the differential block. */
const AGENTPLAT_READS_GITOPS = true;

const SEED = Number(process.env.AGENTPLAT_ORACLE_SEED ?? DEFAULT_SEED);
const FLUX_CASES = 150;
const ARGO_CASES = 80;

let flux: string;
let argo: string;
let kustomize: string;
let helm: string;
let dir: string;
let n = 0;
const defaultsFile: Partial<Record<Revision, string>> = {};
/** The chart repository of the Flux cases: each version it holds → the file of that chart's defaults. */
let indexFile: string;

beforeAll(() => {
  flux = buildOracle('flux-values');
  argo = buildOracle('argocd-values');
  kustomize = buildOracle('kustomize-postrender');
  helm = buildHelm(HELM_VERSION);
  dir = mkdtempSync(join(tmpdir(), 'agentplat-oracles-'));
  for (const r of ['A', 'B'] as const) {
    defaultsFile[r] = join(dir, `defaults-${r}.json`);
    writeFileSync(defaultsFile[r], JSON.stringify(defaultsSource(r).data));
  }
  indexFile = join(dir, 'index.json');
  writeFileSync(indexFile, JSON.stringify(Object.fromEntries(PUBLISHED_VERSIONS.map((v) => [v.version, defaultsFile[v.revision]]))));
});

/** The revision of a chart version Flux picked: that of its major and minor release. */
function revisionOf(version: string): Revision | undefined {
  return PUBLISHED_VERSIONS.find((v) => v.version.split('.').slice(0, 2).join('.') === version.replace(/^v/, '').split('.').slice(0, 2).join('.'))?.revision;
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh folder under the run's folder. */
function folder(): string {
  return mkdtempSync(join(dir, `case-${n++}-`));
}

const yaml = (v: unknown) => stringify(v, { lineWidth: 0 });
const docs = (...objects: unknown[]) => objects.map(yaml).join('---\n');
const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const helmRelease = (spec: Record<string, unknown>, apiVersion = 'helm.toolkit.fluxcd.io/v2') => ({
  apiVersion, kind: 'HelmRelease', metadata: { name: 'agentplat', namespace: 'apps' },
  spec: { interval: '10m', chart: { spec: { chart: 'agentplat', version: '0.11.0', sourceRef: { kind: 'HelmRepository', name: 'agentplat' } } }, ...spec },
});

/** The values Flux hands to helm (no chart defaults) for a HelmRelease and the objects beside it. */
async function fluxUser(...objects: unknown[]): Promise<Outcome> {
  const d = folder();
  writeFileSync(join(d, 'helmrelease.yaml'), docs(...objects));
  return fluxValues(flux, [join(d, 'helmrelease.yaml')]);
}

function expectValues(o: Outcome, expected: unknown): void {
  if (!o.ok) throw new Error(`the oracle refused: ${o.error}`);
  expect(normalize(o.values)).toEqual(normalize(expected));
}

/** Strings stay strings and numbers numbers: toEqual above compares 3n and "3" as different, which is the point. */
describe('the oracles give the values worked out by hand from the controllers\' rules', () => {
  test('Flux: valuesFrom merge in their order, valuesKey defaults to values.yaml, spec.values goes over all of them', async () => {
    const o = await fluxUser(
      helmRelease({
        values: { registry: 's.example' },
        valuesFrom: [{ kind: 'ConfigMap', name: 'a' }, { kind: 'ConfigMap', name: 'b', valuesKey: 'overrides.yaml' }],
      }),
      configMap('a', { 'values.yaml': 'controller:\n  replicas: 2\n  loglevel: debug\nregistry: a.example\n' }),
      configMap('b', { 'overrides.yaml': 'controller:\n  replicas: 3\nlabels:\n  team: ops\n', 'values.yaml': 'ipv6: true\n' }),
    );
    expectValues(o, { controller: { replicas: 3, loglevel: 'debug' }, registry: 's.example', labels: { team: 'ops' } });
  });

  test('Flux: a targetPath value is typed as --set types it, a quoted one stays a string, and an escaped dot stays in the key', async () => {
    const ref = (valuesKey: string, targetPath: string) => ({ kind: 'ConfigMap', name: 't', valuesKey, targetPath });
    const o = await fluxUser(
      helmRelease({ valuesFrom: [ref('replicas', 'controller.replicas'), ref('tag', 'controller.image.tag'), ref('year', 'tag'), ref('owner', 'annotations.example\\.com/owner'), ref('flag', 'ipv6')] }),
      configMap('t', { replicas: '4', tag: "'2024'", year: '2024', owner: 'ops', flag: 'true' }),
    );
    expectValues(o, { controller: { replicas: 4, image: { tag: '2024' } }, tag: 2024, annotations: { 'example.com/owner': 'ops' }, ipv6: true });
  });

  // ChartValuesFromReferences merges spec.values into the result before it writes a targetPath
  // value and again at the end. A map that only spec.values has is shared, not copied, by the
  // first merge, so the targetPath write lands in spec.values too and survives the last merge; a
  // key whose map an earlier reference already made is copied, and spec.values wins there, as it
  // does for a top-level key.
  test('Flux: a targetPath beats spec.values inside a map only spec.values has, and loses to it elsewhere', async () => {
    const target = (path: string) => ({ kind: 'ConfigMap', name: 't', valuesKey: 'v', targetPath: path });
    const shared = await fluxUser(helmRelease({ values: { controller: { replicas: 2 } }, valuesFrom: [target('controller.replicas')] }), configMap('t', { v: '5' }));
    expectValues(shared, { controller: { replicas: 5 } });
    const copied = await fluxUser(
      helmRelease({ values: { controller: { replicas: 2 } }, valuesFrom: [{ kind: 'ConfigMap', name: 'a' }, target('controller.replicas')] }),
      configMap('a', { 'values.yaml': 'controller:\n  loglevel: debug\n' }), configMap('t', { v: '5' }),
    );
    expectValues(copied, { controller: { replicas: 2, loglevel: 'debug' } });
    const top = await fluxUser(helmRelease({ values: { registry: 's.example' }, valuesFrom: [target('registry')] }), configMap('t', { v: 't.example' }));
    expectValues(top, { registry: 's.example' });
  });

  test('Flux: a missing optional source is skipped, a Secret is read from data or stringData, and v2beta2 composes as v2', async () => {
    const o = await fluxUser(
      helmRelease({ valuesFrom: [{ kind: 'ConfigMap', name: 'absent', optional: true }, { kind: 'Secret', name: 's1' }, { kind: 'Secret', name: 's2' }] }, 'helm.toolkit.fluxcd.io/v2beta2'),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { 'values.yaml': 'ipv6: true\nregistry: one.example\n' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, data: { 'values.yaml': Buffer.from('registry: two.example\n').toString('base64') } },
    );
    expectValues(o, { ipv6: true, registry: 'two.example' });
  });

  test('Flux: a missing source or key that is not optional is refused, naming it', async () => {
    const missing = await fluxUser(helmRelease({ valuesFrom: [{ kind: 'ConfigMap', name: 'absent' }] }));
    expect(missing).toMatchObject({ ok: false, error: expect.stringMatching(/could not resolve ConfigMap chart values reference 'apps\/absent' with key 'values.yaml'/) });
    const noKey = await fluxUser(helmRelease({ valuesFrom: [{ kind: 'ConfigMap', name: 'a', valuesKey: 'prod.yaml' }] }), configMap('a', { 'values.yaml': 'ipv6: true\n' }));
    expect(noKey).toMatchObject({ ok: false, error: expect.stringMatching(/'apps\/a' with key 'prod.yaml': key not found/) });
  });

  test('Flux: with the chart defaults, helm coalesces them under the composed values (null removes a default)', async () => {
    const d = folder();
    writeFileSync(join(d, 'hr.yaml'), docs(helmRelease({ values: { controller: { replicas: 3, loglevel: null } } })));
    const o = await fluxValues(flux, [join(d, 'hr.yaml')], { defaults: defaultsFile.B });
    if (!o.ok) throw new Error(o.error);
    const computed = o.values as { controller: Record<string, unknown>; registry: unknown };
    expect(computed.controller.replicas).toBe(3);
    expect('loglevel' in computed.controller).toBe(false);
    expect(computed.registry).toBe(defaultsSource('B').data.registry);
  });

  /** The chart version Flux installs for a HelmRelease and the sources beside it, over the corpus's chart repository. */
  async function fluxChart(objects: unknown[], repoFiles: Record<string, string> = {}): Promise<string> {
    const d = folder();
    writeFiles(d, repoFiles);
    writeFileSync(join(d, 'hr.yaml'), docs(...objects));
    const o = await fluxValues(flux, [join(d, 'hr.yaml')], { index: indexFile, repo: d });
    return o.ok ? o.chartVersion ?? '(none)' : `refused: ${o.error}`;
  }
  const chartRelease = (chart: Record<string, unknown>) => ({ ...helmRelease({}), spec: { interval: '10m', ...chart } });
  const source = (kind: string, spec: Record<string, unknown>) => ({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind, metadata: { name: 'agentplat' }, spec: { interval: '10m', ...spec } });

  test('Flux: a version range picks the newest version the chart repository holds that it admits; a pre-release only when the range names one', async () => {
    const version = (v: string) => fluxChart([chartRelease({ chart: { spec: { chart: 'agentplat', version: v, sourceRef: { kind: 'HelmRepository', name: 'r' } } } })]);
    expect(await version('0.10.x')).toBe('0.10.19');
    expect(await version('>= 0.10.3')).toBe('0.11.19');
    expect(await version('0.11.0-rc.1')).toBe('0.11.0-rc.1');
    expect(await version('>=0.11.0-rc.1 <0.11.0')).toBe('0.11.0-rc.1');
    expect(await version('<0.11.0')).toBe('0.10.19');
    expect(await version('0.12.x')).toMatch(/^refused: no chart version matching '0.12.x'/);
  });

  test('Flux: chartRef to an OCIRepository takes ref.semver over the tags ref.semverFilter keeps, else ref.tag as written; a digest decides alone', async () => {
    const oci = (ref: Record<string, string>) => fluxChart([chartRelease({ chartRef: { kind: 'OCIRepository', name: 'agentplat' } }), source('OCIRepository', { url: 'oci://ghcr.io/example/charts/agentplat', ref })]);
    expect(await oci({ semver: '>=0.10.0', semverFilter: '^0\\.10\\.' })).toBe('0.10.19');
    expect(await oci({ semver: '0.10.x', tag: '0.11.0' })).toBe('0.10.19');
    // semverFilter is RE2: flag groups and \A, \z are Go's; a lookahead is refused.
    expect(await oci({ semver: '>=0.10.0', semverFilter: '(?i)^0\\.10\\.' })).toBe('0.10.19');
    expect(await oci({ semver: '>=0.10.0', semverFilter: '\\A0\\.11\\.[0-3]\\z' })).toBe('0.11.3');
    expect(await oci({ semver: '>=0.10.0', semverFilter: '^0\\.(?!11)' })).toMatch(/^refused: OCIRepository ref.semverFilter/);
    expect(await oci({ tag: '0.11.2' })).toBe('0.11.2');
    expect(await oci({ tag: '0.11.x' })).toMatch(/^refused: OCIRepository tag "0.11.x"/);
    expect(await oci({ tag: '0.11.0', digest: `sha256:${'0'.repeat(64)}` })).toMatch(/^refused: OCIRepository ref.digest/);
  });

  test('Flux: chartRef to a HelmChart takes its spec.version from its HelmRepository, and a chart from Git is at its Chart.yaml version whatever spec.version says', async () => {
    const helmChart = (spec: Record<string, unknown>, files?: Record<string, string>) => fluxChart([chartRelease({ chartRef: { kind: 'HelmChart', name: 'agentplat' } }), source('HelmChart', spec)], files);
    expect(await helmChart({ chart: 'agentplat', version: '^0.10.1', sourceRef: { kind: 'HelmRepository', name: 'r' } })).toBe('0.10.19');
    expect(await helmChart({ chart: 'agentplat', sourceRef: { kind: 'HelmRepository', name: 'r' } })).toBe('0.11.19');
    const git = { chart: './charts/agentplat', version: '0.12.x', sourceRef: { kind: 'GitRepository', name: 'g' } };
    expect(await helmChart(git, { 'charts/agentplat/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.10.3\n' })).toBe('0.10.3');
    expect(await fluxChart([chartRelease({ chart: { spec: git } })], { 'charts/agentplat/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.11.2\n' })).toBe('0.11.2');
  });

  /** An Application over a repository laid out as the corpus lays it out, through Argo CD's repo-server code. */
  async function argoApp(helmSpec: Record<string, unknown>, files: Record<string, string> = {}, extra: Record<string, unknown> = {}, refSources: Record<string, unknown>[] = []): Promise<Outcome> {
    const repo = folder();
    writeFiles(repo, files);
    writeValuesChart(join(repo, SOURCE_PATH), {}, CHART_VERSION.B);
    const chartSource = { repoURL: 'https://git.example.com/platform.git', targetRevision: '0.11.0', path: SOURCE_PATH, helm: helmSpec };
    writeFileSync(join(repo, 'application.yaml'), yaml({
      apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'agentplat', namespace: 'argocd' },
      spec: { project: 'default', ...(refSources.length > 0 ? { sources: [chartSource, ...refSources] } : { source: chartSource }), destination: { server: 'https://kubernetes.default.svc', namespace: 'apps' }, ...extra },
    }));
    return argoValues(argo, helm, repo, join(repo, 'application.yaml'));
  }

  test('Argo CD: valueFiles in their order, then values, then parameters', async () => {
    const o = await argoApp(
      { valueFiles: ['values-1.yaml', '../common/values-2.yaml'], values: 'registry: v.example\ncontroller:\n  replicas: 4\n', parameters: [{ name: 'controller.replicas', value: '5' }] },
      { 'chart/values-1.yaml': 'controller:\n  replicas: 2\n  loglevel: debug\nregistry: one.example\n', 'common/values-2.yaml': 'controller:\n  replicas: 3\n' },
    );
    expectValues(o, { controller: { replicas: 5, loglevel: 'debug' }, registry: 'v.example' });
  });

  test('Argo CD: a $ref value file of a ref source takes its place in the valueFiles order, and a file named twice is read at its first place only', async () => {
    const values = { repoURL: 'https://git.example.com/platform.git', targetRevision: '0.11.0', ref: 'values' };
    const files = { 'envs/prod.yaml': 'controller:\n  replicas: 2\n  loglevel: debug\n', 'common/values.yaml': 'controller:\n  replicas: 3\n', 'chart/values-a.yaml': 'controller:\n  replicas: 4\nregistry: a.example\n' };
    const o = await argoApp({ valueFiles: ['$values/envs/prod.yaml', 'values-a.yaml', '../common/values.yaml', '$values/chart/values-a.yaml'] }, files, {}, [values]);
    // values-a.yaml is read at its first place: common/values.yaml's replicas win.
    expectValues(o, { controller: { replicas: 3, loglevel: 'debug' }, registry: 'a.example' });
    const unknown = await argoApp({ valueFiles: ['$other/envs/prod.yaml'] }, files, {}, [values]);
    expect(unknown).toMatchObject({ ok: false, error: expect.stringMatching(/\$other/) });
    const outside = await argoApp({ valueFiles: ['$values/../outside.yaml'] }, files, {}, [values]);
    expect(outside).toMatchObject({ ok: false });
  });

  test('Argo CD: valuesObject replaces the values string whole when both are given', async () => {
    const o = await argoApp({ values: 'registry: a.example\nnameOverride: x\n', valuesObject: { registry: 'b.example', ipv6: true } });
    expectValues(o, { registry: 'b.example', ipv6: true });
  });

  test('Argo CD: forceString keeps a number-like value a string, a comma stays inside the value, and fileParameters read the file', async () => {
    const o = await argoApp(
      {
        parameters: [{ name: 'controller.image.tag', value: '2024', forceString: true }, { name: 'ui.replicas', value: '2' }, { name: 'labels.team', value: 'a,b' }],
        fileParameters: [{ name: 'controller.loglevel', path: 'files/level.txt' }],
      },
      { 'chart/files/level.txt': 'debug' },
    );
    expectValues(o, { controller: { image: { tag: '2024' }, loglevel: 'debug' }, ui: { replicas: 2 }, labels: { team: 'a,b' } });
  });

  test('Argo CD: the release name, the destination namespace and skipCrds reach the helm command line', async () => {
    const o = await argoApp({ releaseName: 'platform', skipCrds: true });
    if (!o.ok) throw new Error(o.error);
    expect(o.command).toMatch(/--name-template platform\b/);
    expect(o.command).toMatch(/--namespace apps\b/);
    expect(o.command).not.toMatch(/--include-crds/);
    const plain = await argoApp({});
    expect(plain.ok && plain.command).toMatch(/--name-template agentplat\b.*--include-crds/);
  });

  // The cases test/gitops/argocd-repo-server.test.ts holds agentplat to, worked by hand from the repo-server's code, here held to that code.
  test('Argo CD: helm.namespace is the namespace helm renders into, over the destination namespace', async () => {
    const o = await argoApp({ namespace: 'tenant-a' });
    expect(o.ok && o.command).toMatch(/--namespace tenant-a\b/);
  });

  test('Argo CD: the build environment in value file paths and parameter values; an unknown name is empty and $$ a dollar', async () => {
    const o = await argoApp(
      { valueFiles: ['envs/${ARGOCD_APP_NAMESPACE}/$ARGOCD_APP_NAME.yaml', '$ARGOCD_APP_NAME/values.yaml'], parameters: [{ name: 'registry', value: 'pa$$ss-$HOME-${ARGOCD_APP_NAME}' }] },
      { 'chart/envs/apps/agentplat.yaml': 'controller:\n  replicas: 2\n', 'chart/agentplat/values.yaml': 'controller:\n  loglevel: debug\n' },
    );
    expectValues(o, { controller: { replicas: 2, loglevel: 'debug' }, registry: 'pa$ss--agentplat' });
  });

  test('Argo CD: a glob in valueFiles gives its matches folder by folder, a file named outright keeps its place, and no match is refused unless ignoreMissingValueFiles', async () => {
    const files = { 'chart/envs/a.yaml': 'controller:\n  replicas: 1\n', 'chart/envs/b.yaml': 'controller:\n  replicas: 2\nregistry: b.example\n', 'chart/envs/0/x.yaml': 'registry: x.example\n' };
    // doublestar lists envs/b.yaml before envs/0/x.yaml (the folder's own names first), and a.yaml is read last, at its own entry.
    expectValues(await argoApp({ valueFiles: ['envs/**/*.yaml', 'envs/a.yaml'] }, files), { controller: { replicas: 1 }, registry: 'x.example' });
    expect(await argoApp({ valueFiles: ['envs/*.json'] }, files)).toMatchObject({ ok: false, error: expect.stringMatching(/matched no files/) });
    expect(await argoApp({ valueFiles: ['envs/*.json'], ignoreMissingValueFiles: true }, files)).toMatchObject({ ok: true });
  });

  test('Argo CD: a $ref/path file parameter of an Application of several sources is read from the ref source, the whole ref taken as written', async () => {
    const values = { repoURL: 'https://git.example.com/platform.git', targetRevision: '0.11.0', ref: 'team-values' };
    const o = await argoApp({ fileParameters: [{ name: 'controller.loglevel', path: '$team-values/levels/$ARGOCD_APP_NAME.txt' }] }, { 'levels/agentplat.txt': 'debug' }, {}, [values]);
    expectValues(o, { controller: { loglevel: 'debug' } });
  });

  test('Argo CD: a value file outside the repository is refused', async () => {
    const o = await argoApp({ valueFiles: ['../../outside.yaml'] });
    expect(o).toMatchObject({ ok: false, error: expect.stringMatching(/outside repository root/) });
  });

  const stream = docs(
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'apps' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'apps' }, spec: { ports: [{ port: 80 }] } },
  );
  async function postRender(postRenderers: unknown[]): Promise<Awaited<ReturnType<typeof kustomizeObjects>>> {
    const d = folder();
    writeFileSync(join(d, 'hr.yaml'), yaml(helmRelease({ postRenderers })));
    writeFileSync(join(d, 'rendered.yaml'), stream);
    return kustomizeObjects(kustomize, join(d, 'hr.yaml'), join(d, 'rendered.yaml'));
  }
  const find = (objects: unknown[], kind: string) => objects.find((o) => (o as { kind: string }).kind === kind) as Record<string, any>;

  test('Kustomize: a strategic-merge patch, a JSON 6902 patch with a target and an image change, one post-renderer after the other', async () => {
    const o = await postRender([
      { kustomize: { patches: [{ patch: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: apps\nspec:\n  replicas: 3\n' }], images: [{ name: 'nginx', newTag: '1.27' }] } },
      // Runs on the first one's output: the test op fails unless replicas is 3 by then.
      { kustomize: { patches: [{ target: { kind: 'Deployment', name: 'web' }, patch: '- op: test\n  path: /spec/replicas\n  value: 3\n- op: add\n  path: /metadata/labels\n  value: {patched: "yes"}\n' }] } },
    ]);
    if (!o.ok) throw new Error(o.error);
    const deployment = find(o.objects, 'Deployment');
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.metadata.labels).toEqual({ patched: 'yes' });
    expect(deployment.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(find(o.objects, 'Service').spec).toEqual({ ports: [{ port: 80 }] });
  });

  // Kustomize matches a strategic-merge patch by kind, name and namespace: one that names no
  // namespace matches only objects rendered without one.
  test('Kustomize: a strategic-merge patch of an object that is not rendered is refused, and so is one without the namespace the object is rendered in', async () => {
    const patch = (metadata: string) => [{ kustomize: { patches: [{ patch: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n${metadata}spec:\n  replicas: 3\n` }] } }];
    expect(await postRender(patch('  name: absent\n  namespace: apps\n'))).toMatchObject({ ok: false, error: expect.stringMatching(/no resource matches strategic merge patch/) });
    expect(await postRender(patch('  name: web\n'))).toMatchObject({ ok: false, error: expect.stringMatching(/no resource matches strategic merge patch/) });
  });
});

/** Writes a Flux case into a folder; the HelmRelease file and every file of the case (for the oracle, which reads them all). */
function writeFlux(c: FluxCase): { d: string; files: string[] } {
  const d = folder();
  writeFiles(d, c.files);
  return { d, files: Object.keys(c.files).map((f) => join(d, f)) };
}

/** Writes an Argo CD case as a repository with the values-printing chart at the source path. */
function writeArgo(c: ArgoCase): string {
  const repo = folder();
  writeFiles(repo, c.files);
  writeValuesChart(join(repo, SOURCE_PATH), defaultsSource(c.revision).data, CHART_VERSION[c.revision]);
  return repo;
}

describe(`the generated corpus (seed ${SEED}) through the controllers' own code`, () => {
  test(`Flux: of ${FLUX_CASES} HelmReleases, exactly those generated to be refused are refused`, async () => {
    const wrong: string[] = [];
    for (const c of fluxCorpus(SEED, FLUX_CASES)) {
      const { d, files } = writeFlux(c);
      const o = await fluxValues(flux, files, { index: indexFile, repo: d });
      if (o.ok === Boolean(c.refuses)) wrong.push(`${c.id}: ${c.refuses ? `expected refused (${c.refuses})` : `refused: ${o.ok ? '' : o.error}`}`);
      else if (o.ok && revisionOf(o.chartVersion ?? '') !== c.revision) wrong.push(`${c.id}: Flux installs chart ${o.chartVersion}, not one of revision ${c.revision} (${JSON.stringify(c.files)})`);
    }
    expect(wrong).toEqual([]);
  });

  test(`Argo CD: of ${ARGO_CASES} Applications, exactly those generated to be refused are refused`, async () => {
    const wrong: string[] = [];
    for (const c of argoCorpus(SEED, ARGO_CASES)) {
      const repo = writeArgo(c);
      const o = await argoValues(argo, helm, repo, join(repo, 'application.yaml'));
      if (o.ok === Boolean(c.refuses)) wrong.push(`${c.id}: ${c.refuses ? `expected refused (${c.refuses})` : `refused: ${o.ok ? '' : o.error}`}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the comparison the differential block makes', () => {
  test('a string "3" and a number 3 differ, 3 and 3.0 agree, two refusals agree, and one refusal alone is a difference', () => {
    expect(compareOutcomes({ ok: true, values: { a: { b: 3 } } }, { ok: true, values: { a: { b: '3' } } })).toBe('.a.b: agentplat 3n, controller "3"');
    expect(compareOutcomes({ ok: true, values: { a: 3 } }, { ok: true, values: JSON.parse('{"a": 3.0}') })).toBeUndefined();
    expect(compareOutcomes({ ok: false, error: 'x' }, { ok: false, error: 'y' })).toBeUndefined();
    expect(compareOutcomes({ ok: true, values: {} }, { ok: false, error: 'could not resolve' })).toBe('agentplat accepts, the controller refuses: could not resolve');
  });
  test('a difference the allowlist does not name is reported, and so is an allowlist row that matches nothing', () => {
    const rows = readAllowlist();
    expect(unexplained('flux', [{ id: 'c1', difference: '.ipv6: agentplat true, controller false' }])).toEqual([
      'c1: .ipv6: agentplat true, controller false',
      ...rows.filter((r) => r.oracle === 'flux').map((r) => `allowlist row matched nothing (remove it): ${r.difference} (${r.reason})`),
    ]);
  });
});

// ---- agentplat against the controllers' own code: on at merge (AGENTPLAT_READS_GITOPS) ----

/**
 * The differences found that the allowlist does not explain. Every allowlist row must still be
 * needed by some case, so that a fixed difference does not leave a stale excuse behind.
 */
function unexplained(oracle: 'flux' | 'argocd' | 'kustomize', found: { id: string; difference: string }[]): string[] {
  const rows = readAllowlist().filter((r) => r.oracle === oracle);
  const used = new Set<number>();
  const left = found.filter((f) => {
    const i = rows.findIndex((r) => new RegExp(r.difference).test(f.difference));
    if (i >= 0) used.add(i);
    return i < 0;
  });
  const stale = rows.filter((_, i) => !used.has(i)).map((r) => `allowlist row matched nothing (remove it): ${r.difference} (${r.reason})`);
  return [...left.map((f) => `${f.id}: ${f.difference}`), ...stale];
}

describe.runIf(AGENTPLAT_READS_GITOPS)("agentplat against the controllers' own code", () => {
  test(`Flux: agentplat values --computed of ${FLUX_CASES} HelmReleases equals helm-controller's composition over the chart defaults`, async () => {
    const found: { id: string; difference: string }[] = [];
    for (const c of fluxCorpus(SEED, FLUX_CASES)) {
      const { d, files } = writeFlux(c);
      const controller = await fluxValues(flux, files, { index: indexFile, repo: d });
      const ours = await agentplatValues(['-f', join(d, 'helmrelease.yaml'), '--values-from', d], d);
      const difference = compareOutcomes(ours, controller);
      if (difference) found.push({ id: `${c.id} ${JSON.stringify(c.files)}`, difference });
    }
    expect(unexplained('flux', found)).toEqual([]);
  });

  test(`Argo CD: agentplat values --computed of ${ARGO_CASES} Applications equals what Argo CD's repo-server has helm render`, async () => {
    const found: { id: string; difference: string }[] = [];
    for (const c of argoCorpus(SEED, ARGO_CASES)) {
      const repo = writeArgo(c);
      const controller = await argoValues(argo, helm, repo, join(repo, 'application.yaml'));
      // The Application file at the repository root; its valueFiles are relative to source.path below it.
      const ours = await agentplatValues(['-f', join(repo, 'application.yaml')], repo);
      const difference = compareOutcomes(ours, controller);
      if (difference) found.push({ id: `${c.id} ${JSON.stringify(c.files)}`, difference });
    }
    expect(unexplained('argocd', found)).toEqual([]);
  });

  test("Kustomize: agentplat render of HelmReleases with post-renderers equals Kustomize's over agentplat's own render without them", async () => {
    const found: { id: string; difference: string }[] = [];
    for (const [i, postRenderers] of postRendererCorpus().entries()) {
      const d = folder();
      const release = (p: unknown[] | undefined) => yaml(helmRelease({ values: { controller: { replicas: 2 } }, ...(p ? { postRenderers: p } : {}) }));
      writeFileSync(join(d, 'plain.yaml'), release(undefined));
      writeFileSync(join(d, 'hr.yaml'), release(postRenderers));
      const plain = await run(process.execPath, [join(ROOT, 'bin', 'agentplat'), 'render', '-f', join(d, 'plain.yaml')], { cwd: d });
      if (plain.status !== 0) throw new Error(`agentplat render -f plain.yaml: ${plain.stderr}`);
      writeFileSync(join(d, 'rendered.yaml'), plain.stdout);
      const controller = await kustomizeObjects(kustomize, join(d, 'hr.yaml'), join(d, 'rendered.yaml'));
      const ours = await run(process.execPath, [join(ROOT, 'bin', 'agentplat'), 'render', '-f', join(d, 'hr.yaml')], { cwd: d });
      const a: Outcome = ours.status === 0 ? { ok: true, values: byIdentity(parseAllYaml(ours.stdout)) } : { ok: false, error: ours.stderr };
      const k: Outcome = controller.ok ? { ok: true, values: byIdentity(controller.objects) } : controller;
      const difference = compareOutcomes(a, k);
      if (difference) found.push({ id: `post-renderers ${i} ${JSON.stringify(postRenderers)}`, difference });
    }
    expect(unexplained('kustomize', found)).toEqual([]);
  });
});

function parseAllYaml(text: string): unknown[] {
  return text.split(/^---$/m).map((t) => parseYaml(t) as unknown).filter((o) => o !== null && o !== undefined);
}

/** Objects keyed by kind/namespace/name, so that the order Kustomize prints them in does not count. */
function byIdentity(objects: unknown[]): Record<string, unknown> {
  return Object.fromEntries(objects.map((o) => {
    const m = (o as { kind: string; metadata: { name: string; namespace?: string } });
    return [`${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`, o];
  }));
}

/** Post-renderers over the chart's own objects: strategic merge and JSON 6902 patches with targets, and images. */
function postRendererCorpus(): unknown[][] {
  const deployment = 'agentplat-controller';
  return [
    [{ kustomize: { patches: [{ patch: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${deployment}\nspec:\n  replicas: 4\n` }] } }],
    [{ kustomize: { patches: [{ target: { kind: 'Deployment' }, patch: '- op: add\n  path: /metadata/annotations/patched\n  value: "yes"\n' }] } }],
    [{ kustomize: { patches: [{ target: { kind: 'Deployment', labelSelector: 'app.kubernetes.io/component=controller' }, patch: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: any\n  labels:\n    patched: "yes"\n` }] } }],
    [{ kustomize: { images: [{ name: 'ghcr.io/agentplat/controller', newTag: '9.9.9' }] } }],
    [{ kustomize: { patches: [{ patch: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: absent\nspec:\n  replicas: 4\n' }] } }],
    [
      { kustomize: { images: [{ name: 'ghcr.io/agentplat/controller', newName: 'mirror.local/agentplat/controller' }] } },
      { kustomize: { patches: [{ target: { kind: 'Service' }, patch: '- op: add\n  path: /metadata/labels/exposed\n  value: "no"\n' }] } },
    ],
  ];
}

