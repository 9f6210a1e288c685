// The cluster client library (@kubernetes/client-node, bundled apart as dist/chunks/cluster-client.cjs
// by scripts/build.mjs) is loaded only by a `--cluster` run: the
// offline commands compile no script of it, so their start-up does not grow with it. The built
// executable runs with V8's coverage on (test/helpers/scripts-run.ts), which lists every script a
// run compiled; a static import of the cluster code anywhere on an offline path shows up there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/binary.ts';
import { scriptsRun } from '../helpers/scripts-run.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const CLIENT = /\/dist\/chunks\/cluster-client\.cjs$/;

const loadsOf = (args: string[], cwd: string) => scriptsRun(args, { cwd });

describe('the cluster client is loaded only with --cluster', () => {
  const dir = tempDir('agentplat-loads-');
  beforeAll(() => {
    ensureBuilt();
    writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
    writeFileSync(join(dir, 'agent.yaml'), 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nmetadata:\n  name: a\nspec:\n  declarative: {}\n');
    // Nothing listens on port 1 of the loopback address.
    writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\n');
  });

  it('render, lint and validate of files compile no script of @kubernetes/client-node', () => {
    for (const args of [['render', '--skip-crds', '-f', 'values.yaml'], ['lint', 'values.yaml'], ['validate', 'agent.yaml'], ['validate', '--help']]) {
      const r = loadsOf(args, dir);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      // The hooks saw the run (the bundle itself: the whole CLI, or render's and lint's cut one), so an empty match is not an empty log.
      expect(r.urls.some((u) => /\/dist\/cli(-render)?\.cjs$/.test(u)), args.join(' ')).toBe(true);
      expect(r.urls.filter((u) => CLIENT.test(u)), args.join(' ')).toEqual([]);
    }
  });

  it('diff loads it only with --cluster (then says the cluster is unreachable, exit 2)', () => {
    const offline = loadsOf(['diff', '-f', 'values.yaml', '--to-set', 'controller.replicas=3'], dir);
    expect(offline.code, offline.stderr).toBe(1);
    expect(offline.urls.some((u) => u.endsWith('/dist/cli.cjs'))).toBe(true);
    expect(offline.urls.filter((u) => CLIENT.test(u))).toEqual([]);
    const live = loadsOf(['diff', '--cluster', '-f', 'values.yaml', '--kubeconfig', 'kubeconfig'], dir);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/^agentplat: cannot reach the API server https:\/\/127\.0\.0\.1:1 \(context c\): .*ECONNREFUSED/);
    expect(live.urls.some((u) => CLIENT.test(u))).toBe(true);
  });

  it('validate --cluster loads it (and says the cluster is unreachable, exit 2)', () => {
    const r = loadsOf(['validate', '--cluster', '--kubeconfig', 'kubeconfig'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agentplat: cannot reach the API server https:\/\/127\.0\.0\.1:1 \(context c\): .*ECONNREFUSED/);
    expect(r.urls.some((u) => CLIENT.test(u))).toBe(true);
  });
});
