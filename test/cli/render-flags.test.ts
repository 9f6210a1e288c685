// render's flags and the names it builds: what a cluster reports as its version is accepted, what
// no cluster serves is refused, and names the API server would reject are problems, not output.
import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { parseKubeVersion } from '../../src/cli/options.ts';
import { runInProcess } from './in-process.ts';

describe('render flags', () => {
  it.each([
    ['1.29', '1.29.0'],
    ['v1.29.3', '1.29.3'],
    ['1.29+', '1.29.0'],
    ['v1.29.3+k3s1', '1.29.3'],
    ['1.29.3-eks-4f4795d', '1.29.3'],
  ])('--kube-version accepts %s as clusters report it (%s)', (raw, want) => {
    expect(parseKubeVersion(raw)).toBe(want);
  });

  it('--kube-version 1.26 drops unhealthyPodEvictionPolicy-era checks through lint (version-gated rule)', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--kube-version', 'v1.26.5+k3s1', '--set', 'controller.pdb.enabled=true', '--set', 'controller.pdb.unhealthyPodEvictionPolicy=AlwaysAllow']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('values/pdb-eviction-policy-kube-version');
  });

  it.each(['bogus', 'a/b/c/d', '1.29'])('--api-versions %s is a usage error', async (v) => {
    const r = await runInProcess(['render', '--skip-crds', '--api-versions', v]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('--output-dir naming a file is a usage error; nothing is written', async () => {
    const dir = tempDir('agentplat-out-');
    writeFileSync(join(dir, 'afile'), 'x');
    const r = await runInProcess(['render', '--skip-crds', '--output-dir', 'afile'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/afile exists and is not a directory/);
  });

  it('--output-dir with -o json is a usage error (the directory holds YAML files)', async () => {
    const dir = tempDir('agentplat-out-');
    const r = await runInProcess(['render', '--skip-crds', '--output-dir', 'out', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('--output-dir is resolved from the working directory', async () => {
    const dir = tempDir('agentplat-out-');
    const r = await runInProcess(['render', '--skip-crds', '--output-dir', 'out'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'out', 'agentplat', 'templates', 'controller-deployment.yaml'))).toBe(true);
  });
});

describe('object names the API server would reject', () => {
  it('a release name starting with a digit gives Service names that are not DNS-1035 labels: a problem, no output', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--release-name', '1abc']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Service "1abc-controller" .* is not a valid Service name: it must be a DNS-1035 label .*\[render\/object-name\]/);
  });

  it('names cut to 63 characters that meet are a problem naming both sources, not an internal error', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--set', `fullnameOverride=${'a'.repeat(62)}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/two objects are both .*\[render\/duplicate-object\]/);
    expect(r.stderr).not.toMatch(/internal error|bug in a template/);
  });

  it('a fullnameOverride that is not a name is a lint error at the --set flag', async () => {
    const r = await runInProcess(['render', '--skip-crds', '--set', 'fullnameOverride=ACME_bad']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--set #1:1:1 {2}error {2}`fullnameOverride` "ACME_bad" cannot be part of object names.*\[values\/object-name\]/);
  });
});
