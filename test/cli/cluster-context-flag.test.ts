// The kubeconfig context flag of the `--cluster` commands, spelled as their users expect:
// `validate --cluster` takes kubectl's `--context` and helm's `--kube-context`; `diff --cluster`
// takes only `--kube-context` (its `-U/--context` is lines of context). Every message names the
// flag the way the user typed it. No server is needed: the context is resolved before any request,
// and the one server named is a closed port (connection refused).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { STACK_TRACE } from './binary.ts';
import { runInProcess } from './in-process.ts';

const dir = tempDir('agentplat-context-flag-');
const env = { KUBECONFIG: join(dir, 'kubeconfig'), NO_COLOR: '1' };

beforeAll(() => {
  writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
  writeFileSync(
    join(dir, 'kubeconfig'),
    ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: gone', '  cluster:', '    server: http://127.0.0.1:9', '    insecure-skip-tls-verify: true', 'users:', '- name: u', '  user:', '    token: t', 'contexts:', '- name: staging', '  context:', '    cluster: gone', '    user: u', '- name: production', '  context:', '    cluster: gone', '    user: u', 'current-context: staging', ''].join('\n'),
  );
});

async function agentplat(args: string[]) {
  const r = await runInProcess(args, { cwd: dir, env });
  expect(r.stderr).not.toMatch(STACK_TRACE);
  return r;
}

describe('the kubeconfig context flag of --cluster runs', () => {
  it('validate --cluster takes --kube-context as helm spells it: the context it names is the one asked', async () => {
    const r = await agentplat(['validate', '--cluster', '--kube-context', 'production']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/cannot reach the API server http:\/\/127\.0\.0\.1:9 \(context production\)/);
  });

  it('an unknown context is reported under the flag the user typed, in validate and in diff', async () => {
    const kube = await agentplat(['validate', '--cluster', '--kube-context', 'prodution']);
    expect([kube.code, kube.stdout]).toEqual([2, '']);
    expect(kube.stderr).toMatch(/^agentplat: --kube-context prodution: no such context\n {2}hint: did you mean production\?/);
    const ctl = await agentplat(['validate', '--cluster', '--context', 'prodution']);
    expect(ctl.stderr).toMatch(/^agentplat: --context prodution: no such context/);
    const diff = await agentplat(['diff', '--cluster', '-f', 'values.yaml', '--kube-context', 'prodution']);
    expect([diff.code, diff.stdout]).toEqual([2, '']);
    expect(diff.stderr).toMatch(/^agentplat: --kube-context prodution: no such context/);
  });

  it('validate refuses --context and --kube-context naming two contexts, and --kube-context without --cluster', async () => {
    const both = await agentplat(['validate', '--cluster', '--context', 'staging', '--kube-context', 'production']);
    expect([both.code, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toMatch(/--context staging and --kube-context production name two contexts/);
    const alone = await agentplat(['validate', 'x.yaml', '--kube-context', 'production']);
    expect([alone.code, alone.stdout]).toEqual([2, '']);
    expect(alone.stderr).toMatch(/--kube-context: only with --cluster/);
  });

  it('diff --context with a context name says that diff names the kubeconfig context --kube-context', async () => {
    const r = await agentplat(['diff', '--cluster', '-f', 'values.yaml', '--context', 'production']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/--context: expected a whole number of lines, found "production"\n {2}hint: .*--kube-context production/);
  });
});
