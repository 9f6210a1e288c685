// lint over many HelmRelease files (issue 36): a post-renderer that fails the release is a problem
// of that file at the patch, so every file is reported; a patch whose target selects nothing is a
// warning, as Kustomize lets it through; a note names its file and is said once; and files linted
// at different revisions each carry theirs in the JSON and SARIF reports.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

const folder = (files: Record<string, string>) => tempFiles('agentplat-gitops-many-', files);

const HR = (name: string, version: string, extra = '') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: flux-system
spec:
  chart:
    spec:
      chart: agentplat
      version: ${version}
  values:
    controller:
      replicas: 2
${extra}`;

/** A strategic merge patch without a target, naming a Deployment no release renders. */
const NO_MATCH = `  postRenderers:
    - kustomize:
        patches:
          - patch: |
              apiVersion: apps/v1
              kind: Deployment
              metadata:
                name: nothing-of-this-name
`;
/** A JSON 6902 patch whose explicit target selects nothing. */
const EMPTY_TARGET = `  postRenderers:
    - kustomize:
        patches:
          - target:
              kind: Deployment
              name: nothing-of-this-name
            patch: |
              - op: add
                path: /metadata/labels/x
                value: y
`;

interface JsonReport {
  revision?: string;
  files: { file: string; revision?: string; problems: { severity: string; rule: string; line?: number; column?: number }[] }[];
}

describe('lint over many HelmRelease files', () => {
  it('a post-renderer patch that fails the release is an error of its file at the patch, and every file is reported', async () => {
    const cwd = folder({ 'a/helmrelease.yaml': HR('one', '0.11.x', NO_MATCH), 'b/helmrelease.yaml': HR('two', '0.11.x', NO_MATCH), 'c/helmrelease.yaml': HR('three', '0.11.x') });
    const r = await runInProcess(['lint', '**/helmrelease.yaml', '--format', 'json'], { cwd });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as JsonReport;
    const found = report.files.map((f) => [f.file, f.problems.map((p) => [p.severity, p.rule, p.line, p.column])]);
    expect(found).toEqual([
      ['a/helmrelease.yaml', [['error', 'gitops/patch-no-match', 17, 13]]],
      ['b/helmrelease.yaml', [['error', 'gitops/patch-no-match', 17, 13]]],
      ['c/helmrelease.yaml', []],
    ]);
  });

  it('a patch whose target selects no object is a warning at the patch: render prints the release, as Flux installs it', async () => {
    const cwd = folder({ 'helmrelease.yaml': HR('one', '0.11.x', EMPTY_TARGET) });
    const lint = await runInProcess(['lint', 'helmrelease.yaml'], { cwd });
    expect(lint.code, lint.stderr).toBe(0);
    expect(lint.stdout).toContain('helmrelease.yaml:17:13  warning  HelmRelease flux-system/one: spec.postRenderers[0].kustomize.patches[0]: the patch\'s target (kind Deployment, name nothing-of-this-name) selects no rendered object');
    expect(lint.stdout).toContain('[gitops/patch-target-empty]');
    const render = await runInProcess(['render', '-f', 'helmrelease.yaml'], { cwd });
    expect(render.code, render.stderr).toBe(0);
    expect(render.stdout).toContain('kind: Deployment');
    expect(render.stdout).not.toContain('x: y');
    const off = await runInProcess(['lint', 'helmrelease.yaml', '--rule', 'gitops/patch-target-empty=off'], { cwd });
    expect(off.stdout).not.toContain('gitops/patch-target-empty');
  });

  it('a note about an optional valuesFrom source that is missing names the file and its line, once however often the file is named', async () => {
    const optional = '  valuesFrom:\n    - kind: Secret\n      name: absent\n      optional: true\n';
    const cwd = folder({ 'a/helmrelease.yaml': HR('one', '0.11.x', optional), 'b/helmrelease.yaml': HR('two', '0.11.x', optional) });
    const r = await runInProcess(['lint', 'a/helmrelease.yaml', 'b/helmrelease.yaml', 'a/helmrelease.yaml'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.includes('is optional and not found'));
    expect(notes).toEqual([
      'agentplat: note: a/helmrelease.yaml:15:7: HelmRelease flux-system/one: spec.valuesFrom[0] Secret flux-system/absent is optional and not found beside the HelmRelease: Flux skips it',
      'agentplat: note: b/helmrelease.yaml:15:7: HelmRelease flux-system/two: spec.valuesFrom[0] Secret flux-system/absent is optional and not found beside the HelmRelease: Flux skips it',
    ]);
    // diff reads the file as both sides: the note is said once.
    const diff = await runInProcess(['diff', '-f', 'a/helmrelease.yaml', '--to-values', 'a/helmrelease.yaml'], { cwd });
    expect(diff.stderr.split('\n').filter((l) => l.includes('is optional and not found'))).toHaveLength(1);
  });

  it('HelmReleases of both chart versions: no one revision for the report; each file, and each SARIF result, carries its own', async () => {
    const typo = (hr: string) => hr.replace('      replicas: 2\n', '      replcas: 2\n');
    const cwd = folder({ 'old/helmrelease.yaml': typo(HR('old', '0.10.x')), 'new/helmrelease.yaml': typo(HR('new', '0.11.x')) });
    const json = await runInProcess(['lint', '**/helmrelease.yaml', '--format', 'json'], { cwd });
    const report = JSON.parse(json.stdout) as JsonReport;
    expect(report.revision).toBeUndefined();
    expect(report.files.map((f) => [f.file, f.revision])).toEqual([['new/helmrelease.yaml', 'B'], ['old/helmrelease.yaml', 'A']]);
    const sarif = JSON.parse((await runInProcess(['lint', '**/helmrelease.yaml', '--format', 'sarif'], { cwd })).stdout) as { runs: { properties?: unknown; results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; properties: { revision?: string } }[] }[] };
    expect(sarif.runs[0]!.properties).toBeUndefined();
    expect(sarif.runs[0]!.results.map((x) => [x.locations[0]!.physicalLocation.artifactLocation.uri, x.properties.revision])).toEqual([['new/helmrelease.yaml', 'B'], ['old/helmrelease.yaml', 'A']]);
    // One revision for every file: the report's, as before.
    const one = JSON.parse((await runInProcess(['lint', 'old/helmrelease.yaml', '--format', 'json'], { cwd })).stdout) as JsonReport;
    expect([one.revision, one.files[0]!.revision]).toEqual(['A', undefined]);
  });
});
