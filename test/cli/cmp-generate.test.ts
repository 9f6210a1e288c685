// `agentplat cmp generate`: Argo CD's config management plugin without a shell. The Application's
// environment (ARGOCD_APP_*, its parameters as JSON or PARAM_*, its env entries, the cluster's
// version and APIs) becomes the render it stands for, and what it prints is that render's output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

const VALUES = 'controller:\n  replicas: 2\n  metrics:\n    enabled: true\n    serviceMonitor:\n      enabled: true\n';
const OVERRIDES = 'ui:\n  replicas: 3\n';

function appFolder(): string {
  const dir = join(tempDir('agentplat-cmp-'), 'envs', 'prod');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'values.yaml'), VALUES);
  writeFileSync(join(dir, 'overrides.yaml'), OVERRIDES);
  return dir;
}

const APP = { ARGOCD_APP_NAME: 'agentplat-prod', ARGOCD_APP_NAMESPACE: 'agentplat', KUBE_VERSION: 'v1.29.3', KUBE_API_VERSIONS: 'v1,apps/v1,monitoring.coreos.com/v1' };
const CLUSTER_FLAGS = ['--api-versions', 'v1', '--api-versions', 'apps/v1', '--api-versions', 'monitoring.coreos.com/v1', '--kube-version', 'v1.29.3'];
const PARAMETERS = [
  { name: 'revision', string: 'B' },
  { name: 'release-name', string: 'platform' },
  { name: 'values-files', array: ['values.yaml', 'overrides.yaml'] },
];

describe('agentplat cmp generate: the render an Argo CD Application describes', () => {
  it('prints exactly what render prints for the parameters (ARGOCD_APP_PARAMETERS), the namespace and the cluster', async () => {
    const cwd = appFolder();
    const r = await runInProcess(['cmp', 'generate'], { cwd, env: { ...APP, ARGOCD_APP_PARAMETERS: JSON.stringify(PARAMETERS) } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = await runInProcess(['render', '--protect-crds', '--revision', 'B', '--namespace', 'agentplat', '--release-name', 'platform', '-f', 'values.yaml', '-f', 'overrides.yaml', ...CLUSTER_FLAGS], { cwd, env: {} });
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).toMatch(/^kind: ServiceMonitor$/m);
    expect(r.stdout).toMatch(/^ {2}replicas: 3$/m);
    expect(r.stdout).toMatch(/^ {4}app\.kubernetes\.io\/instance: platform$/m);
  });

  it('reads PARAM_* when ARGOCD_APP_PARAMETERS is absent, the same render', async () => {
    const cwd = appFolder();
    const json = await runInProcess(['cmp', 'generate'], { cwd, env: { ...APP, ARGOCD_APP_PARAMETERS: JSON.stringify(PARAMETERS) } });
    const vars = await runInProcess(['cmp', 'generate'], { cwd, env: { ...APP, PARAM_REVISION: 'B', PARAM_RELEASE_NAME: 'platform', PARAM_VALUES_FILES_0: 'values.yaml', PARAM_VALUES_FILES_1: 'overrides.yaml' } });
    expect(vars.code, vars.stderr).toBe(0);
    expect(vars.stdout).toBe(json.stdout);
  });

  it('without parameters: values.yaml, the Application name as release, env entries (ARGOCD_ENV_*) when given', async () => {
    const cwd = appFolder();
    const bare = await runInProcess(['cmp', 'generate'], { cwd, env: APP });
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toBe((await runInProcess(['render', '--protect-crds', '--namespace', 'agentplat', '--release-name', 'agentplat-prod', '-f', 'values.yaml', ...CLUSTER_FLAGS], { cwd, env: {} })).stdout);
    expect(bare.stdout).not.toMatch(/^ {2}replicas: 3$/m);
    const entries = await runInProcess(['cmp', 'generate'], { cwd, env: { ...APP, ARGOCD_ENV_VALUES_FILES: 'values.yaml, overrides.yaml', ARGOCD_ENV_RELEASE_NAME: 'platform' } });
    expect(entries.stdout).toMatch(/^ {2}replicas: 3$/m);
    expect(entries.stdout).toMatch(/^ {4}app\.kubernetes\.io\/instance: platform$/m);
  });

  it('a parameter wins over the env entry of the same setting, and the flags after generate reach render', async () => {
    const cwd = appFolder();
    const r = await runInProcess(['cmp', 'generate', '--set', 'ui.replicas=4'], { cwd, env: { ...APP, ARGOCD_ENV_RELEASE_NAME: 'from-env', PARAM_RELEASE_NAME: 'from-param' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/app\.kubernetes\.io\/instance: from-param$/m);
    expect(r.stdout).not.toMatch(/from-env/);
    expect(r.stdout).toMatch(/^ {2}replicas: 4$/m);
  });

  it('refuses parameters the plugin does not take, and ARGOCD_APP_PARAMETERS that is not the JSON Argo CD writes, printing nothing', async () => {
    const cwd = appFolder();
    const cases: [Record<string, string>, RegExp][] = [
      [{ ARGOCD_APP_PARAMETERS: '[{"name":"replicas","string":"3"}]' }, /parameter "replicas", which the agentplat plugin does not take/],
      [{ ARGOCD_APP_PARAMETERS: '{"revision":"B"' }, /ARGOCD_APP_PARAMETERS is not JSON/],
      [{ ARGOCD_APP_PARAMETERS: '{"revision":"B"}' }, /must be a JSON list/],
      [{ ARGOCD_APP_PARAMETERS: '[{"name":"values-files","string":"values.yaml"}]' }, /parameter "values-files" must be an array/],
    ];
    for (const [env, message] of cases) {
      const r = await runInProcess(['cmp', 'generate'], { cwd, env: { ...APP, ...env } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/hint: /);
    }
  });

  it('cmp --help describes the environment it reads; an unknown subcommand is refused', async () => {
    const help = await runInProcess(['cmp', '--help'], { env: {} });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/ARGOCD_APP_PARAMETERS/);
    const bad = await runInProcess(['cmp', 'init'], { env: {} });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cmp: unknown subcommand "init"/);
  });
});
