// The kubectl plugin under the real kubectl (1.37.2, as the cluster suite builds it): with
// plugins/kubectl on PATH, `kubectl agentplat …` is agentplat, exit codes and streams included,
// and kubectl lists the plugin.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, ROOT, runBin } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { cachedTool } from './_tools.ts';

ensureBuilt();
const KUBECTL = cachedTool('kubectl');

function kubectlIn(dir: string, withAgentplat = true) {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  if (withAgentplat) symlinkSync(BIN, join(bin, 'agentplat'));
  const env = { PATH: `${join(ROOT, 'plugins', 'kubectl')}:${bin}:${join(process.execPath, '..')}:/usr/bin:/bin`, HOME: dir, KUBECONFIG: join(dir, 'no-kubeconfig'), NO_COLOR: '1' };
  return (args: string[]) => {
    const r = spawnSync(KUBECTL!, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

describe.skipIf(!KUBECTL)('the kubectl plugin under kubectl 1.37.2', () => {
  it('kubectl agentplat render -f values.yaml prints what agentplat render prints', () => {
    const dir = tempDir('agentplat-kubectl-');
    writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
    const r = kubectlIn(dir)(['agentplat', 'render', '-f', 'values.yaml', '-n', 'team-a']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(runBin(['render', '-f', 'values.yaml', '-n', 'team-a'], { cwd: dir }).stdout);
  });

  it("passes agentplat's exit codes and messages through: lint problems exit 1, a usage error 2", () => {
    const dir = tempDir('agentplat-kubectl-');
    writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  replicas: many\n');
    const kubectl = kubectlIn(dir);
    const lint = kubectl(['agentplat', 'lint', '-f', 'bad.yaml']);
    const want = runBin(['lint', '-f', 'bad.yaml'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect([lint.code, lint.stdout]).toEqual([1, want.stdout]);
    const usage = kubectl(['agentplat', 'render', '--no-such-flag']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--no-such-flag/);
  });

  it('kubectl plugin list finds it; without agentplat installed it says how to install it', () => {
    const dir = tempDir('agentplat-kubectl-');
    const list = kubectlIn(dir)(['plugin', 'list', '--name-only']);
    expect(list.stdout).toMatch(/^kubectl-agentplat$/m);
    const none = kubectlIn(tempDir('agentplat-kubectl-'), false)(['agentplat', '--version']);
    expect(none.code).toBe(127);
    expect(none.stderr).toMatch(/agentplat is not on PATH[\s\S]*hint: install it/);
  });
});
