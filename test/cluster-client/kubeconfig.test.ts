// Which kubeconfig a `--cluster` run reads and which context it uses, as kubectl decides:
// --kubeconfig, else KUBECONFIG's path list merged (first file to define a name wins), else
// ~/.kube/config; --context, else current-context; the context's namespace, else default.
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveKubeconfig } from '../../src/cluster/kubeconfig.ts';
import { connect, ClusterError } from '../../src/cluster/connect.ts';
import { UsageError } from '../../src/problems/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function kubeconfig(opts: { clusters?: [string, string][]; contexts?: [string, string, string?][]; current?: string }): string {
  const lines = ['apiVersion: v1', 'kind: Config'];
  lines.push('clusters:', ...(opts.clusters ?? []).flatMap(([name, server]) => [`- name: ${name}`, '  cluster:', `    server: ${server}`, '    certificate-authority: certs/ca.crt']));
  lines.push('users:', '- name: u', '  user:', '    token: t0', '    client-key: keys/u.key');
  lines.push('contexts:', ...(opts.contexts ?? []).flatMap(([name, cluster, ns]) => [`- name: ${name}`, '  context:', `    cluster: ${cluster}`, '    user: u', ...(ns ? [`    namespace: ${ns}`] : [])]));
  if (opts.current) lines.push(`current-context: ${opts.current}`);
  return `${lines.join('\n')}\n`;
}

function write(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function usage(f: () => unknown): UsageError {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('expected a usage error');
}

describe('kubeconfig resolution', () => {
  it('--kubeconfig reads that file only, KUBECONFIG and ~/.kube/config aside', () => {
    const dir = tempDir('agentplat-kc-');
    const flag = write(dir, 'flag/config', kubeconfig({ clusters: [['c', 'https://flag.example:6443']], contexts: [['x', 'c', 'team-a']], current: 'x' }));
    const env = write(dir, 'env/config', kubeconfig({ clusters: [['c', 'https://env.example:6443']], contexts: [['x', 'c']], current: 'x' }));
    write(dir, 'home/.kube/config', kubeconfig({ clusters: [['c', 'https://home.example:6443']], contexts: [['x', 'c']], current: 'x' }));
    const r = resolveKubeconfig({ kubeconfig: 'flag/config' }, { cwd: dir, env: { KUBECONFIG: env, HOME: join(dir, 'home') } });
    expect(r.files).toEqual([flag]);
    expect(r).toMatchObject({ context: 'x', cluster: 'c', server: 'https://flag.example:6443', user: 'u', namespace: 'team-a' });
  });

  it('without the flag, KUBECONFIG wins over ~/.kube/config; without either, ~/.kube/config', () => {
    const dir = tempDir('agentplat-kc-');
    const env = write(dir, 'env/config', kubeconfig({ clusters: [['c', 'https://env.example:6443']], contexts: [['x', 'c']], current: 'x' }));
    const home = write(dir, 'home/.kube/config', kubeconfig({ clusters: [['c', 'https://home.example:6443']], contexts: [['x', 'c']], current: 'x' }));
    expect(resolveKubeconfig({}, { cwd: dir, env: { KUBECONFIG: env, HOME: join(dir, 'home') } }).server).toBe('https://env.example:6443');
    const r = resolveKubeconfig({}, { cwd: dir, env: { HOME: join(dir, 'home') } });
    expect(r.files).toEqual([home]);
    expect(r.server).toBe('https://home.example:6443');
    expect(r.namespace).toBe('default');
  });

  it('KUBECONFIG with two paths merges them: the first to name an entry or set current-context wins, a missing file is skipped', () => {
    const dir = tempDir('agentplat-kc-');
    const first = write(dir, 'one/config', kubeconfig({ clusters: [['shared', 'https://first.example:6443']], contexts: [['dev', 'shared', 'dev-ns']], current: 'dev' }));
    const second = write(dir, 'two/config', kubeconfig({ clusters: [['shared', 'https://second.example:6443'], ['prod', 'https://prod.example:6443']], contexts: [['dev', 'prod'], ['prod', 'prod', 'prod-ns']], current: 'prod' }));
    const KUBECONFIG = [first, join(dir, 'missing'), second].join(delimiter);
    const r = resolveKubeconfig({}, { cwd: dir, env: { KUBECONFIG } });
    expect(r.files).toEqual([first, second]);
    expect(r).toMatchObject({ context: 'dev', cluster: 'shared', server: 'https://first.example:6443', namespace: 'dev-ns' });
    expect(r.config.clusters.map((c) => c.name)).toEqual(['shared', 'prod']);
    // A context only the second file defines, through --context.
    expect(resolveKubeconfig({ context: 'prod' }, { cwd: dir, env: { KUBECONFIG } })).toMatchObject({ server: 'https://prod.example:6443', namespace: 'prod-ns' });
  });

  it('relative file references are resolved against the file that holds them', () => {
    const dir = tempDir('agentplat-kc-');
    write(dir, 'a/b/config', kubeconfig({ clusters: [['c', 'https://x.example']], contexts: [['x', 'c']], current: 'x' }));
    const r = resolveKubeconfig({ kubeconfig: 'a/b/config' }, { cwd: dir, env: {} });
    expect((r.config.clusters[0]!.cluster as Record<string, string>)['certificate-authority']).toBe(join(dir, 'a/b/certs/ca.crt'));
    expect((r.config.users[0]!.user as Record<string, string>)['client-key']).toBe(join(dir, 'a/b/keys/u.key'));
  });

  it('an unknown --context is a usage error listing the known contexts, with the nearest as a hint', () => {
    const dir = tempDir('agentplat-kc-');
    write(dir, 'config', kubeconfig({ clusters: [['c', 'https://x.example']], contexts: [['staging', 'c'], ['production', 'c']], current: 'staging' }));
    const e = usage(() => resolveKubeconfig({ kubeconfig: 'config', context: 'prodution' }, { cwd: dir, env: {} }));
    expect(e.message).toBe('--context prodution: no such context');
    expect(e.hint).toBe(`did you mean production? the contexts in ${join(dir, 'config')}: staging, production`);
    expect(e.exitCode).toBe(2);
  });

  it('no kubeconfig anywhere, a missing --kubeconfig, and no current context are usage errors that say what to do', () => {
    const dir = tempDir('agentplat-kc-');
    const none = usage(() => resolveKubeconfig({}, { cwd: dir, env: { HOME: dir } }));
    expect(none.message).toBe(`no kubeconfig: ${join(dir, '.kube', 'config')} does not exist and KUBECONFIG is not set`);
    expect(none.hint).toMatch(/--kubeconfig FILE/);
    expect(usage(() => resolveKubeconfig({}, { cwd: dir, env: { KUBECONFIG: join(dir, 'nope') } })).message).toMatch(/^no kubeconfig: none of the files in KUBECONFIG exists/);
    expect(usage(() => resolveKubeconfig({ kubeconfig: 'nope.yaml' }, { cwd: dir, env: {} })).message).toBe('--kubeconfig nope.yaml: no such file');
    write(dir, 'config', kubeconfig({ clusters: [['c', 'https://x.example']], contexts: [['a', 'c']] }));
    const noCurrent = usage(() => resolveKubeconfig({ kubeconfig: 'config' }, { cwd: dir, env: {} }));
    expect(noCurrent.message).toBe(`no current context in ${join(dir, 'config')}`);
    expect(noCurrent.hint).toMatch(/--context NAME .*: a\)/);
  });

  it('a kubeconfig that is not YAML names the file, line and column', () => {
    const dir = tempDir('agentplat-kc-');
    write(dir, 'config', 'apiVersion: v1\nclusters: [\n');
    const e = usage(() => resolveKubeconfig({ kubeconfig: 'config' }, { cwd: dir, env: {} }));
    expect(e.message).toMatch(new RegExp(`^${join(dir, 'config').replace(/[/.]/g, '\\$&')}:\\d+:\\d+: the kubeconfig is not valid YAML`));
  });

  it('a kubeconfig that is not valid YAML is reported at the line and column to fix, worded as a values file\'s YAML error, with its hint', () => {
    const dir = tempDir('agentplat-kc-');
    write(dir, 'config', 'apiVersion: v1\nkind: Config\n   clusters: []\n');
    const e = usage(() => resolveKubeconfig({ kubeconfig: 'config' }, { cwd: dir, env: {} }));
    expect(e.message).toBe(`${join(dir, 'config')}:3:4: the kubeconfig is not valid YAML: this line is indented deeper than the line above it, which already has its value`);
    expect(e.hint).toMatch(/^indent it like the keys next to it.*; kubectl config view shows what kubectl reads$/);
    // What the placing does not explain keeps the parser's words, without its own position suffix.
    write(dir, 'seq', 'apiVersion: v1\nclusters:\n - name: c\n  cluster: {server: x}\n');
    expect(usage(() => resolveKubeconfig({ kubeconfig: 'seq' }, { cwd: dir, env: {} })).message).toBe(`${join(dir, 'seq')}:4:1: the kubeconfig is not valid YAML: Sequence item without - indicator`);
  });

  it('a context naming a cluster the files do not define is refused before any request', () => {
    const dir = tempDir('agentplat-kc-');
    write(dir, 'config', kubeconfig({ clusters: [['c', 'https://x.example']], contexts: [['a', 'gone']], current: 'a' }));
    expect(usage(() => resolveKubeconfig({ kubeconfig: 'config' }, { cwd: dir, env: {} })).message).toBe(`context a names the cluster "gone", which ${join(dir, 'config')} does not define`);
  });
});

describe('connect', () => {
  it('an unreachable API server is a ClusterError (exit 2) naming the URL and the cause', async () => {
    const dir = tempDir('agentplat-kc-');
    // Port 1 on the loopback address: nothing listens there.
    write(dir, 'config', kubeconfig({ clusters: [['c', 'https://127.0.0.1:1']], contexts: [['a', 'c']], current: 'a' }).replace(/ {4}certificate-authority: .*\n/, '').replace(/ {4}client-key: .*\n/, ''));
    const err = await connect({ kubeconfig: 'config' }, { cwd: dir, env: {} }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ClusterError);
    expect((err as ClusterError).message).toMatch(/^cannot reach the API server https:\/\/127\.0\.0\.1:1 \(context a\): .*ECONNREFUSED/);
    expect((err as ClusterError).hint).toMatch(/nothing listens there/);
    expect((err as ClusterError).exitCode).toBe(2);
  });
});
