// The Argo CD recipe (recipes/argocd) works as written: the sidecar image built from its
// Dockerfile out of a pack of this repository holds agentplat and plugin.yaml where Argo CD's
// cmp-server reads it, and the plugin's generate command, run in an Application's folder with the
// environment Argo CD gives it, prints the manifests agentplat renders for those settings.
// Docker is not needed: test/recipes/image.ts carries out the Dockerfile's instructions.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runBin } from '../cli/binary.ts';
import { objectsOf } from '../helpers/objects.ts';
import { sh, sharedPack, stepEnv, TARBALL, VERSION, type Ran } from '../helpers/pack.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { buildImage, contextFiles, dockerignore, instructions, readInImage, type BuiltImage } from './image.ts';

const DIR = join(ROOT, 'recipes', 'argocd');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
const PLUGIN_PATH = '/home/argocd/cmp-server/config/plugin.yaml';

interface Plugin {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { version: string; discover: { fileName: string }; parameters: { static: Announcement[] }; generate: { command: string[]; args: string[] } };
}
/** A parameter as plugin.yaml announces it (with its default) or an Application sets it. */
interface Parameter {
  name: string;
  string?: string;
  array?: string[];
  map?: Record<string, string>;
}
interface Announcement extends Parameter {
  title: string;
  collectionType?: 'string' | 'array' | 'map';
}
interface PluginSource {
  env?: { name: string; value: string }[];
  parameters?: Parameter[];
}
interface Application {
  metadata: { name: string };
  spec: { source: { path: string; plugin: PluginSource & { name: string } }; destination: { namespace: string } };
}
interface Sidecar {
  spec: { template: { spec: { containers: { image: string; command: string[]; securityContext: { runAsUser: number } }[] } } };
}

const application = parse(read('application.yaml')) as Application;
const sidecar = parse(read('repo-server-sidecar.yaml')) as Sidecar;

const ignore = dockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
/** What `docker build … .` sends from this checkout after `npm pack` (which writes the pack here). */
const sent = [...contextFiles(ROOT, ignore), ...(ignore.sends(TARBALL) ? [TARBALL] : [])].sort();

let image: BuiltImage;
beforeAll(async () => {
  // The build context: the files of this checkout that .dockerignore lets through, and the pack.
  const context = tempDir('agentplat-argocd-context-');
  for (const file of sent) {
    mkdirSync(dirname(join(context, file)), { recursive: true });
    copyFileSync(file === TARBALL ? await sharedPack() : join(ROOT, file), join(context, file));
  }
  image = await buildImage(read('Dockerfile'), context);
});

/** A parameter's environment variable name as Argo CD makes it: PARAM_, upper case, `_` for the rest. */
const paramName = (...parts: string[]) => `PARAM_${parts.map((p) => p.toUpperCase().replace(/[^A-Z0-9]/g, '_')).join('_')}`;

/**
 * The environment Argo CD's cmp-server gives generate for a plugin source (`application`'s by
 * default) on a cluster of 1.29: env entries as ARGOCD_ENV_<NAME>, parameters as PARAM_<NAME>
 * (list items PARAM_<NAME>_<i>, map entries PARAM_<NAME>_<KEY>) and all of them as JSON.
 */
function argoEnv(source: PluginSource = application.spec.source.plugin): Record<string, string> {
  const params: Record<string, string> = {};
  for (const p of source.parameters ?? []) {
    if (p.string !== undefined) params[paramName(p.name)] = p.string;
    p.array?.forEach((item, i) => (params[paramName(p.name, String(i))] = item));
    for (const [k, v] of Object.entries(p.map ?? {})) params[paramName(p.name, k)] = v;
  }
  return {
    ...params,
    ...(source.parameters ? { ARGOCD_APP_PARAMETERS: JSON.stringify(source.parameters) } : {}),
    ARGOCD_APP_NAME: application.metadata.name,
    ARGOCD_APP_NAMESPACE: application.spec.destination.namespace,
    ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
    ARGOCD_APP_SOURCE_PATH: application.spec.source.path,
    ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/platform/agentplat-envs.git',
    KUBE_VERSION: 'v1.29.3',
    KUBE_API_VERSIONS: 'v1,apps/v1,batch/v1,policy/v1,monitoring.coreos.com/v1',
    ...Object.fromEntries((source.env ?? []).map((e) => [`ARGOCD_ENV_${e.name}`, e.value])),
  };
}

/** An app repository holding `files` under the Application's path; the folder generate runs in. */
function appFolder(files: Record<string, string>): string {
  const repo = tempDir('agentplat-argocd-repo-');
  const folder = join(repo, application.spec.source.path);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

/** Runs the plugin's generate command, from the plugin.yaml inside the image, as cmp-server does. */
function generate(folder: string, env: Record<string, string>): Ran {
  const plugin = parse(readInImage(image, PLUGIN_PATH)) as Plugin;
  const [shell, flag] = plugin.spec.generate.command;
  expect([shell, flag]).toEqual(['sh', '-c']);
  return sh('sh', plugin.spec.generate.args[0]!, folder, stepEnv(image.prefix, env));
}

// The ServiceMonitor renders only when the cluster serves its API: KUBE_API_VERSIONS must get through.
const VALUES = 'controller:\n  replicas: 2\n  metrics:\n    enabled: true\n    serviceMonitor:\n      enabled: true\n';
const OVERRIDES = 'ui:\n  replicas: 3\n';

describe('Argo CD recipe: the sidecar image', () => {
  it('is built from a context of only what the Dockerfile copies: .dockerignore keeps node_modules and the rest out', () => {
    const copied = instructions(read('Dockerfile'))
      .filter((i) => i.op === 'COPY')
      .map((i) => i.rest.split(/\s+/)[0]!.replace(/\$\{AGENTPLAT_VERSION\}/, VERSION));
    expect(sent).toEqual([...copied].sort());
    for (const dir of ['node_modules', 'dist', 'src', 'test', '.git']) expect(ignore.mayReachInto(dir), dir).toBe(false);
  });

  it('is built from the Node line package.json supports, for the version package.json has', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(image.from).toMatch(new RegExp(`^node:${/\d+/.exec(engines)![0]}(-|$)`));
    expect(image.args.AGENTPLAT_VERSION).toBe(VERSION);
  });

  it('holds plugin.yaml, byte for byte the recipe file, where cmp-server reads it', () => {
    expect(readInImage(image, PLUGIN_PATH)).toBe(read('plugin.yaml'));
  });

  it('runs as the user the repo-server sidecar declares, with the image tag of this version', () => {
    const container = sidecar.spec.template.spec.containers[0]!;
    expect(image.user).toBe(String(container.securityContext.runAsUser));
    expect(container.image.endsWith(`:${VERSION}`)).toBe(true);
    expect(container.command).toEqual(['/var/run/argocd/argocd-cmp-server']);
  });
});

describe('Argo CD recipe: plugin.yaml', () => {
  const plugin = parse(read('plugin.yaml')) as Plugin;

  it('is a ConfigManagementPlugin v1alpha1 that the Application names as <name>-<version>', () => {
    expect([plugin.apiVersion, plugin.kind]).toEqual(['argoproj.io/v1alpha1', 'ConfigManagementPlugin']);
    expect(application.spec.source.plugin.name).toBe(`${plugin.metadata.name}-${plugin.spec.version}`);
  });

  it('generate prints exactly what agentplat renders for the Application: its parameters, namespace and the cluster', () => {
    const folder = appFolder({ [plugin.spec.discover.fileName]: VALUES, 'overrides.yaml': OVERRIDES });
    const r = generate(folder, argoEnv());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = runBin(
      [
        'render',
        '--protect-crds',
        ...['--revision', 'B', '--namespace', 'agentplat', '--release-name', 'agentplat', '-f', 'values.yaml', '-f', 'overrides.yaml'],
        ...['v1', 'apps/v1', 'batch/v1', 'policy/v1', 'monitoring.coreos.com/v1'].flatMap((v) => ['--api-versions', v]),
        ...['--kube-version', 'v1.29.3'],
      ],
      { cwd: folder },
    );
    expect(expected.code, expected.stderr).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    // The stream carries what the parameters asked for: both values files, the cluster's APIs.
    expect(r.stdout).toMatch(/^ {2}namespace: agentplat$/m);
    expect(r.stdout).toMatch(/^kind: ServiceMonitor$/m);
    expect(r.stdout).toMatch(/^ {2}replicas: 3$/m);
  });

  it('without parameters it renders revision B from values.yaml under the Application name', () => {
    const folder = appFolder({ 'values.yaml': VALUES, 'overrides.yaml': OVERRIDES });
    const r = generate(folder, argoEnv({}));
    expect(r.code, r.stderr).toBe(0);
    const expected = runBin(
      ['render', '--protect-crds', '--namespace', 'agentplat', '--release-name', application.metadata.name, '-f', 'values.yaml', '--kube-version', 'v1.29.3', ...['v1', 'apps/v1', 'batch/v1', 'policy/v1', 'monitoring.coreos.com/v1'].flatMap((v) => ['--api-versions', v])],
      { cwd: folder },
    );
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).not.toMatch(/^ {2}replicas: 3$/m);
  });

  it('REVISION=A renders revision A', () => {
    const folder = appFolder({ 'values.yaml': 'controller:\n  toolRefreshInterval: 30s\n' });
    const env = argoEnv({ env: [{ name: 'REVISION', value: 'A' }] });
    expect(generate(folder, env).code).toBe(0);
    expect(generate(folder, argoEnv({ env: [{ name: 'REVISION', value: 'B' }] })).code).toBe(1);
  });

  it('announces its parameters, so that Argo CD\'s UI shows and sets them: every one the Application sets, with the defaults generate applies', () => {
    const announced = new Map(plugin.spec.parameters.static.map((p) => [p.name, p]));
    expect([...announced.keys()].sort()).toEqual(['release-name', 'revision', 'values-files']);
    for (const p of application.spec.source.plugin.parameters ?? []) {
      expect(announced.has(p.name), p.name).toBe(true);
      expect(announced.get(p.name)!.collectionType ?? 'string', p.name).toBe(p.array ? 'array' : p.map ? 'map' : 'string');
    }
    // The announced defaults, set explicitly, render what no parameter at all renders.
    const folder = appFolder({ 'values.yaml': VALUES, 'overrides.yaml': OVERRIDES });
    const defaults = plugin.spec.parameters.static.filter((p) => p.string !== undefined || p.array !== undefined).map(({ name, string, array }) => ({ name, ...(string !== undefined ? { string } : {}), ...(array ? { array } : {}) }));
    expect(defaults.length).toBe(2);
    const withDefaults = generate(folder, argoEnv({ parameters: defaults }));
    expect(withDefaults.code, withDefaults.stderr).toBe(0);
    expect(withDefaults.stdout).toBe(generate(folder, argoEnv({})).stdout);
  });

  // A values file list keeps its order; a file name with a comma cannot be passed, as in helm
  // (-f a.yaml,b.yaml is two files: docs/values.md, "Where agentplat's `--set` differs from helm's").
  it('parameters win over env entries, and a values file list keeps its order', () => {
    const folder = appFolder({ 'values.yaml': 'controller:\n  toolRefreshInterval: 30s\n', 'overrides b.yaml': OVERRIDES });
    const r = generate(folder, argoEnv({ env: [{ name: 'REVISION', value: 'B' }], parameters: [{ name: 'revision', string: 'A' }, { name: 'values-files', array: ['values.yaml', 'overrides b.yaml'] }] }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('helm.sh/chart: agentplat-0.10.0');
    expect(r.stdout).toMatch(/^ {2}replicas: 3$/m);
  });

  it('turning sub-charts off never lets Argo CD prune a CRD: each CRD generated before is generated still or annotated Prune=false', () => {
    const crds = (text: string) => new Map(objectsOf<{ kind: string; metadata: { name: string; annotations?: Record<string, string> } }>(text).filter((o) => o.kind === 'CustomResourceDefinition').map((o) => [o.metadata.name, o.metadata.annotations ?? {}]));
    const on = generate(appFolder({ 'values.yaml': VALUES }), argoEnv({}));
    expect(on.code, on.stderr).toBe(0);
    const before = crds(on.stdout);
    expect(before.has('mcpservers.agentplat.dev')).toBe(true);
    const off = generate(appFolder({ 'values.yaml': `${VALUES}mcpop:\n  enabled: false\nsubstrate:\n  enabled: false\ndashboards-mcp:\n  enabled: false\n` }), argoEnv({}));
    expect(off.code, off.stderr).toBe(0);
    const after = crds(off.stdout);
    // The MCP operator is off: its CRD is no longer generated; the object in the cluster keeps the
    // annotations it was last applied with (\`before\`).
    expect(after.has('mcpservers.agentplat.dev')).toBe(false);
    const syncOptions = (a: Record<string, string>) => (a['argocd.argoproj.io/sync-options'] ?? '').split(',').map((o) => o.trim());
    for (const [name, annotations] of before) {
      const kept = after.has(name) || syncOptions(annotations).includes('Prune=false');
      expect(kept, `Argo CD would prune ${name}`).toBe(true);
      // Each CRD generated is annotated: not pruned, not deleted with the Application, and one left
      // in the cluster does not make the Application out of sync.
      expect(syncOptions(annotations), name).toEqual(expect.arrayContaining(['Prune=false', 'Delete=false']));
      expect(annotations['argocd.argoproj.io/compare-options'], name).toBe('IgnoreExtraneous');
    }
  });

  it('values with an error: generate fails and prints nothing, so the sync applies nothing', () => {
    const folder = appFolder({ 'values.yaml': 'controller:\n  replcas: 2\n' });
    const r = generate(folder, argoEnv({}));
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('[values/unknown-key]');
  });
});
