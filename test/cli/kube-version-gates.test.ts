// --kube-version through the real binary: what the API server of the target version would drop
// without an error is never printed. Revision B's substrate wiring projects a clusterTrustBundle
// and a podCertificate, which an API server takes by default only from Kubernetes 1.37.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, runBin } from './binary.ts';

const RULE = 'values/substrate-projections-kube-version';
const dir = tempDir('agentplat-kube-gates-');
const values = join(dir, 'substrate.yaml');

beforeAll(() => {
  ensureBuilt();
  writeFileSync(values, 'controller:\n  substrate:\n    enabled: true\n');
});

interface Doc {
  kind: string;
  spec?: { template?: { spec?: { volumes?: { name: string; projected?: { sources: Record<string, unknown>[] } }[] } } };
}

/** The projected sources of the controller Deployment's substrate volumes, by volume name. */
function substrateSources(stdout: string): Record<string, string[]> {
  const docs = (JSON.parse(stdout) as { items: Doc[] }).items;
  const volumes = docs.filter((d) => d.kind === 'Deployment').flatMap((d) => d.spec?.template?.spec?.volumes ?? []);
  return Object.fromEntries(volumes.filter((v) => v.name.startsWith('substrate-')).map((v) => [v.name, (v.projected?.sources ?? []).flatMap((s) => Object.keys(s))]));
}

describe(`${RULE}: the substrate wiring of revision B against the target Kubernetes version`, () => {
  it.each(['1.34', 'v1.36.3'])('render --kube-version %s exits 1, prints nothing, and names the rule, the key and the version to target', (version) => {
    const r = runBin(['render', '--revision', 'B', '-f', values, '--kube-version', version, '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${values}:3:5`);
    expect(r.stderr).toContain(`[${RULE}]`);
    expect(r.stderr).toMatch(/`controller\.substrate\.enabled`.*drops the clusterTrustBundle and podCertificate sources/);
    expect(r.stderr).toMatch(/hint: target Kubernetes 1\.37 or newer with --kube-version 1\.37/);
  });

  it('lint --kube-version 1.34 reports the same problem (exit 1)', () => {
    const r = runBin(['lint', '--revision', 'B', '-f', values, '--kube-version', '1.34', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(RULE);
  });

  it.each([
    { name: '--kube-version 1.37.2', flags: ['--kube-version', '1.37.2'] },
    { name: 'with no --kube-version', flags: [] },
  ])('render $name keeps both projections', ({ flags }) => {
    const r = runBin(['render', '--revision', 'B', '-f', values, ...flags, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(substrateSources(r.stdout)).toEqual({ 'substrate-servicedns': ['clusterTrustBundle'], 'substrate-podidentity': ['podCertificate'] });
  });

  it(`--rule ${RULE}=off (a cluster that turns the feature gates on) renders both projections at 1.34`, () => {
    const r = runBin(['render', '--revision', 'B', '-f', values, '--kube-version', '1.34', '--rule', `${RULE}=off`, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(substrateSources(r.stdout)).toEqual({ 'substrate-servicedns': ['clusterTrustBundle'], 'substrate-podidentity': ['podCertificate'] });
  });

  it('revision A (a service-account token projection, served everywhere) renders at 1.27', () => {
    const r = runBin(['render', '--revision', 'A', '-f', values, '--kube-version', '1.27', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(substrateSources(r.stdout)).toEqual({ 'substrate-api-token': ['serviceAccountToken'] });
  });
});
