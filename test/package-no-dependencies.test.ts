// The npm package has no runtime dependencies: package.json declares none, and a copy of the
// files the package ships, in a folder with no node_modules anywhere above it, runs every
// command, `--cluster` (the cluster client's chunk) and the in-process API included.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './cli/binary.ts';
import { tempDir } from './helpers/temp-dir.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object; peerDependencies?: object; files: string[] };

describe('the npm package has no runtime dependencies', () => {
  let copy = '';
  beforeAll(() => {
    ensureBuilt();
    copy = join(tempDir('agentplat-bare-'), 'agentplat');
    for (const part of [...manifest.files.map((f) => f.replace(/\/\*\.(c|m)js$/, '')), 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    for (let dir = copy; dirname(dir) !== dir; dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    writeFileSync(join(copy, '..', 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\n');
  });
  const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: join(copy, '..'), encoding: 'utf8', env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: tempDir('agentplat-cache-') } });

  it('package.json declares no dependencies of any kind', () => {
    expect([manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies]).toEqual([undefined, undefined, undefined]);
  });

  it('validate --cluster loads the cluster client from the package alone (and says the server is unreachable, exit 2)', () => {
    const r = run([join(copy, 'bin', 'agentplat'), 'validate', '--cluster', '--kubeconfig', 'kubeconfig']);
    expect(r.stderr).toMatch(/^agentplat: cannot reach the API server https:\/\/127\.0\.0\.1:1 \(context c\): .*ECONNREFUSED/);
    expect(r.status).toBe(2);
  });

  it('the in-process API renders from the package alone', () => {
    const r = run(['--input-type=module', '-e', `const { render } = await import(${JSON.stringify(join(copy, 'dist', 'api.mjs'))}); const out = await render({ revision: 'B' }); process.stdout.write(String(out.objects.length));`]);
    expect(r.stderr).toBe('');
    expect(Number(r.stdout)).toBeGreaterThan(10);
  });
});
