// The Helm 4 plugins under the real Helm (4.3.1, as the cluster suite builds it): installed from
// plugins/helm and plugins/helm-postrenderer, `helm agentplat …` is agentplat, and the
// post-renderer `agentplat-validate` passes any chart's manifests through unchanged and fails the
// helm command on what the API server would refuse.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { BIN, ensureBuilt, ROOT, runBin } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { cachedTool } from './_tools.ts';

ensureBuilt();
const HELM = cachedTool('helm');
let runs = 0;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** A helm home of its own (config, cache, data: helm plugin install links the plugins into data/plugins) and `agentplat` on PATH (the built package). */
function helmHome() {
  const home = tempDir('agentplat-helm-plugin-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'agentplat'));
  const env = {
    PATH: `${bin}:${join(process.execPath, '..')}:/usr/bin:/bin`,
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    NO_COLOR: '1',
  };
  // helm's stderr is a pipe, as in a CI log (the post-renderer reaches it through /proc; a
  // socket, what Node's pipes are, cannot be opened there): sh makes the pipe, stdout goes to a file.
  const helm = (args: string[], cwd = home) => {
    const outFile = join(home, `stdout-${++runs}`);
    const r = spawnSync('sh', ['-c', 'out=$1; shift; "$@" 2>&1 >"$out" | cat; exit "$(cat "$out.code")"', 'sh', outFile, 'sh', '-c', '"$@"; echo $? > "$0.code"', outFile, HELM!, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, stdout: readFileSync(outFile, 'utf8'), stderr: r.stdout + r.stderr };
  };
  for (const dir of ['helm', 'helm-postrenderer']) {
    const r = helm(['plugin', 'install', join(ROOT, 'plugins', dir)]);
    expect(r.code, `helm plugin install plugins/${dir}: ${r.stderr}`).toBe(0);
  }
  return { home, helm };
}

describe.skipIf(!HELM)('the Helm 4 plugins under helm 4.3.1', () => {
  it('each plugin.yaml is a v1 plugin of the version package.json has, that helm lists', () => {
    for (const [dir, type] of [['helm', 'cli/v1'], ['helm-postrenderer', 'postrenderer/v1']] as const) {
      const meta = parse(readFileSync(join(ROOT, 'plugins', dir, 'plugin.yaml'), 'utf8')) as { apiVersion: string; type: string; version: string; runtime: string };
      expect([meta.apiVersion, meta.type, meta.runtime, meta.version]).toEqual(['v1', type, 'subprocess', VERSION]);
    }
    const list = helmHome().helm(['plugin', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^agentplat\\s+${VERSION.replace(/\./g, '\\.')}\\s+cli/v1`, 'm'));
    expect(list.stdout).toMatch(new RegExp(`^agentplat-validate\\s+${VERSION.replace(/\./g, '\\.')}\\s+postrenderer/v1`, 'm'));
  });

  it('helm agentplat render -f values.yaml prints what agentplat render prints, in the namespace helm -n gives', () => {
    const { home, helm } = helmHome();
    writeFileSync(join(home, 'values.yaml'), 'controller:\n  replicas: 2\n');
    const r = helm(['agentplat', 'render', '-f', 'values.yaml', '--skip-crds']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(runBin(['render', '-f', 'values.yaml', '--skip-crds', '--namespace', 'default'], { cwd: home }).stdout);
    const ns = helm(['agentplat', 'render', '-n', 'team-a', '-f', 'values.yaml', '--skip-crds']);
    expect(ns.code, ns.stderr).toBe(0);
    expect(ns.stdout).toBe(runBin(['render', '-f', 'values.yaml', '--skip-crds', '--namespace', 'team-a'], { cwd: home }).stdout);
    expect(ns.stdout).toMatch(/^ {2}namespace: team-a$/m);
  });

  it("helm agentplat passes agentplat's exit code and messages through: lint problems exit 1, a usage error 2", () => {
    const { home, helm } = helmHome();
    writeFileSync(join(home, 'bad.yaml'), 'controller:\n  replicas: many\n');
    const lint = helm(['agentplat', 'lint', '-f', 'bad.yaml']);
    const want = runBin(['lint', '-f', 'bad.yaml'], { cwd: home, env: { NO_COLOR: '1' } });
    expect(want.code).toBe(1);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toBe(want.stdout);
    expect(helm(['agentplat', 'render', '--no-such-flag']).code).toBe(2);
  });

  it('the post-renderer passes the objects of any chart (helm create) through unchanged', () => {
    const { home, helm } = helmHome();
    expect(helm(['create', 'web']).code).toBe(0);
    const plain = helm(['template', 'web', './web']);
    expect(plain.code, plain.stderr).toBe(0);
    const post = helm(['template', 'web', './web', '--post-renderer', 'agentplat-validate']);
    expect(post.code, post.stderr).toBe(0);
    // helm writes a post-renderer's output again itself (its own indentation): the objects are the same.
    const objects = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as unknown).filter((o) => o !== null);
    expect(objects(post.stdout)).toEqual(objects(plain.stdout));
    expect(objects(post.stdout).length).toBeGreaterThan(3);
    expect(post.stdout).toMatch(/^kind: Deployment$/m);
  });

  it('the post-renderer fails the helm command on what the API server would refuse, naming the object and field; --post-renderer-args reach validate', () => {
    const { home, helm } = helmHome();
    expect(helm(['create', 'web']).code).toBe(0);
    const bad = helm(['template', 'web', './web', '--set', 'replicaCount=many', '--post-renderer', 'agentplat-validate']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/Deployment/);
    expect(bad.stderr).toMatch(/replicas/);
    // An argument validate refuses shows that the arguments are validate's.
    const args = helm(['template', 'web', './web', '--post-renderer', 'agentplat-validate', '--post-renderer-args', '--kube-version=0.1']);
    expect(args.code).not.toBe(0);
    expect(args.stderr).toMatch(/kube-version/);
  });

  it('the post-renderer checks agentplat.dev resources against their CRDs, CEL rules included', () => {
    const { home, helm } = helmHome();
    mkdirSync(join(home, 'agents', 'templates'), { recursive: true });
    writeFileSync(join(home, 'agents', 'Chart.yaml'), 'apiVersion: v2\nname: agents\nversion: 0.1.0\n');
    const rendered = runBin(['render', '--skip-crds']).stdout;
    const agent = rendered.split(/^---$/m).find((d) => /^kind: Agent$/m.test(d));
    if (agent) {
      writeFileSync(join(home, 'agents', 'templates', 'agent.yaml'), agent);
      expect(helm(['template', 'a', './agents', '--post-renderer', 'agentplat-validate']).code).toBe(0);
    }
    writeFileSync(join(home, 'agents', 'templates', 'agent.yaml'), 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nmetadata:\n  name: broken\nspec:\n  nonsense: true\n');
    const r = helm(['template', 'a', './agents', '--post-renderer', 'agentplat-validate']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/broken|nonsense/);
  });
});
