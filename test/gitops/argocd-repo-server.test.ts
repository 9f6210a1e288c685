// What Argo CD's repo-server does to an Application's helm source before helm runs
// (reposerver/repository helmTemplate and getResolvedValueFiles, v3.6.1): the namespace it renders
// into, the build environment it substitutes in paths and parameter values, the glob patterns it
// expands in valueFiles, and `$ref/…` file parameters of an Application of several sources.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { readGitopsFile } from '../../src/gitops/index.ts';
import { memoryReader, refusal } from './_reading.ts';


const APP = (source: string, meta = '  name: web\n  namespace: argocd\n') => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
${meta}spec:
  project: platform
  destination:
    namespace: apps
${source}`;

const GIT = (helm: string) => `  source:
    repoURL: https://git.example.com/platform.git
    targetRevision: main
    path: chart
    helm:
${helm}`;

const CHART = { 'chart/Chart.yaml': 'apiVersion: v2\nname: agentplat\nversion: 0.11.0\n' };

function release(text: string, repo: Record<string, string> = {}) {
  const r = readGitopsFile({ name: 'app.yaml', text }, memoryReader({}, { ...CHART, ...repo })).releases[0];
  if (!r) throw new Error('no release');
  return r;
}

/** The values each layer gives, merged shallowly by top-level key, lowest first (enough for the flat files here). */
const values = (r: ReturnType<typeof release>) => r.layers.map((l) => l.data);

describe('the namespace helm renders into', () => {
  it('is helm.namespace when the source sets it, over the destination namespace', () => {
    expect(release(APP(GIT('      namespace: tenant-a\n'))).namespace).toBe('tenant-a');
  });
  it('is the destination namespace when helm.namespace is unset or empty', () => {
    expect(release(APP(GIT('      namespace: ""\n'))).namespace).toBe('apps');
    expect(release(APP(GIT('      releaseName: x\n'))).namespace).toBe('apps');
  });
});

describe('the build environment in value file paths and parameter values', () => {
  it('$ARGOCD_APP_NAME, ${ARGOCD_APP_NAMESPACE} and the source variables name the file', () => {
    const r = release(APP(GIT('      valueFiles:\n        - envs/${ARGOCD_APP_NAMESPACE}/$ARGOCD_APP_NAME.yaml\n        - $ARGOCD_APP_PROJECT_NAME-$ARGOCD_APP_SOURCE_TARGET_REVISION.yaml\n')), {
      'chart/envs/apps/web.yaml': 'a: 1\n',
      'chart/platform-main.yaml': 'b: 2\n',
    });
    expect(values(r)).toEqual([{ a: 1 }, { b: 2 }]);
  });
  it('an Application outside the controller\'s namespace is <namespace>_<name> in $ARGOCD_APP_NAME', () => {
    const r = release(APP(GIT('      valueFiles: [$ARGOCD_APP_NAME.yaml]\n'), '  name: web\n  namespace: team\n'), { 'chart/team_web.yaml': 'a: 1\n' });
    expect(values(r)).toEqual([{ a: 1 }]);
  });
  it('with one source, a leading $ is the environment, not a ref', () => {
    const r = release(APP(GIT('      valueFiles: [$ARGOCD_APP_NAME/values.yaml]\n')), { 'chart/web/values.yaml': 'a: 1\n' });
    expect(values(r)).toEqual([{ a: 1 }]);
  });
  it('a name it does not set is empty, and $$ is a dollar, in parameter values as in paths', () => {
    const r = release(APP(GIT('      parameters:\n        - name: registry\n          value: pa$$ss-$HOME-${ARGOCD_APP_NAME}\n')));
    expect(values(r)).toEqual([{ registry: 'pa$ss--web' }]);
  });
  it('$ARGOCD_APP_REVISION of a Git source (a commit agentplat cannot know) is refused at the entry', () => {
    expect(refusal(() => release(APP(GIT('      valueFiles:\n        - rev-$ARGOCD_APP_REVISION_SHORT.yaml\n'))))).toBe(
      'app.yaml:16:11: Application argocd/web: helm.valueFiles[0] "rev-$ARGOCD_APP_REVISION_SHORT.yaml" uses $ARGOCD_APP_REVISION_SHORT, the revision Argo CD resolves when it syncs (the commit of a Git source, the newest chart version of a range), which agentplat cannot know offline | name the file without $ARGOCD_APP_REVISION_SHORT, or pin targetRevision to an exact chart version (e.g. 0.11.0), which is then the revision',
    );
  });
  it('$ARGOCD_APP_REVISION of a chart source at an exact version is that version', () => {
    const text = APP(`  sources:
    - repoURL: https://charts.example.com
      chart: agentplat
      targetRevision: 0.11.2
      helm:
        valueFiles: [$values/envs/$ARGOCD_APP_REVISION.yaml]
    - repoURL: https://git.example.com/values.git
      ref: values
`);
    expect(values(release(text, { 'envs/0.11.2.yaml': 'a: 1\n' }))).toEqual([{ a: 1 }]);
  });
});

describe('a glob in valueFiles', () => {
  const files = {
    'chart/envs/b.yaml': 'b: 1\n',
    'chart/envs/a.yaml': 'a: 1\n',
    'chart/envs/c.yaml': 'c: 1\n',
    'chart/envs/notes.txt': 'x\n',
    'chart/envs/z/deep.yaml': 'deep: 1\n',
  };
  const names = (r: ReturnType<typeof release>) => r.layers.map((l) => l.name);

  it('reads every file it matches, sorted, each a layer of its own at the entry\'s place', () => {
    const r = release(APP(GIT('      valueFiles: [first.yaml, envs/*.yaml]\n')), { ...files, 'chart/first.yaml': 'f: 1\n' });
    expect(names(r)).toEqual(['chart/first.yaml', 'chart/envs/a.yaml', 'chart/envs/b.yaml', 'chart/envs/c.yaml']);
  });
  it('a file also named outright is left to that entry, which keeps its place', () => {
    const r = release(APP(GIT('      valueFiles: [envs/*.yaml, envs/a.yaml]\n')), files);
    expect(names(r)).toEqual(['chart/envs/b.yaml', 'chart/envs/c.yaml', 'chart/envs/a.yaml']);
  });
  it('** goes into folders, folder by folder (the folder\'s own files before a sub-folder\'s), and ?, [..] and {a,b} match as doublestar matches', () => {
    expect(names(release(APP(GIT('      valueFiles: [envs/**/*.yaml]\n')), { ...files, 'chart/envs/0/x.yaml': 'x: 1\n' }))).toEqual(
      ['chart/envs/a.yaml', 'chart/envs/b.yaml', 'chart/envs/c.yaml', 'chart/envs/0/x.yaml', 'chart/envs/z/deep.yaml'],
    );
    expect(names(release(APP(GIT('      valueFiles: [envs/?.yaml]\n')), files))).toEqual(['chart/envs/a.yaml', 'chart/envs/b.yaml', 'chart/envs/c.yaml']);
    expect(names(release(APP(GIT('      valueFiles: [\'envs/[!a].yaml\']\n')), files))).toEqual(['chart/envs/b.yaml', 'chart/envs/c.yaml']);
    expect(names(release(APP(GIT('      valueFiles: [\'envs/{c,a}*.yaml\']\n')), files))).toEqual(['chart/envs/a.yaml', 'chart/envs/c.yaml']);
    // Without *, ? or [ the path is not a glob: braces alone are a file name.
    expect(refusal(() => release(APP(GIT('      valueFiles: [\'envs/{c,a}.yaml\']\n')), files))).toContain('reads chart/envs/{c,a}.yaml, which is not found');
  });
  it('one that matches no file is refused at the entry, and skipped with ignoreMissingValueFiles', () => {
    expect(refusal(() => release(APP(GIT('      valueFiles:\n        - envs/*.json\n')), files))).toBe(
      'app.yaml:16:11: Application argocd/web: helm.valueFiles[0] glob "envs/*.json" (chart/envs/*.json) matches no file under the test repository, which Argo CD refuses | fix the pattern, add a matching file, or set helm.ignoreMissingValueFiles: true',
    );
    expect(names(release(APP(GIT('      ignoreMissingValueFiles: true\n      valueFiles: [envs/*.json, envs/a.yaml]\n')), files))).toEqual(['chart/envs/a.yaml']);
  });
  it('a [ that is not closed is refused at the entry', () => {
    expect(refusal(() => release(APP(GIT('      valueFiles:\n        - envs/[a.yaml\n')), files))).toContain('app.yaml:16:11: Application argocd/web: helm.valueFiles[0] "envs/[a.yaml" is not a glob Argo CD can expand');
  });
});

describe('agentplat values -f on an Application whose valueFiles hold a glob', () => {
  it('lists the repository under --values-from and reads the matches in order, the last one winning', async () => {
    const dir = tempDir('agentplat-argocd-glob-');
    const files: Record<string, string> = {
      'app.yaml': APP(GIT('      valueFiles: [envs/*.yaml]\n')),
      ...CHART,
      'chart/envs/a.yaml': 'controller:\n  replicas: 2\n',
      'chart/envs/b.yaml': 'controller:\n  replicas: 3\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const r = await runInProcess(['values', '--computed', '--show-origin', '-f', 'app.yaml', '--values-from', '.'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^controller\.replicas +3 +chart\/envs\/b\.yaml:2:3 helm\.valueFiles\[0\] \(chart\/envs\/b\.yaml\)/m);
  });
});

describe('fileParameters of an Application of several sources', () => {
  const MULTI = (path: string) => APP(`  sources:
    - repoURL: https://git.example.com/platform.git
      targetRevision: main
      path: chart
      helm:
        fileParameters:
          - name: controller.loglevel
            path: ${path}
    - repoURL: https://git.example.com/values.git
      targetRevision: main
      ref: team-values
`);

  it('$ref/path reads the file from the source whose ref it names (the whole ref, though the environment would read $team), the rest of the path through the environment', () => {
    const r = release(MULTI('$team-values/levels/$ARGOCD_APP_NAME.txt'), { 'levels/web.txt': 'debug' });
    expect(values(r)).toEqual([{ controller: { loglevel: 'debug' } }]);
  });
  it('a $ref with no path after it (the repository, not a file) is refused at the path, naming the fix', () => {
    for (const path of ['$team-values', '$team-values/']) {
      expect(refusal(() => release(MULTI(path), { 'level.txt': 'debug' }))).toBe(
        `app.yaml:17:19: Application argocd/web: fileParameters[0] "${path}" names the source $team-values but no file in it | write the file's path in that repository after it: $team-values/path/to/file`,
      );
    }
  });
  it('a $name no source has as its ref is refused at the path', () => {
    expect(refusal(() => release(MULTI('$other/level.txt'), { 'level.txt': 'debug' }))).toBe(
      'app.yaml:17:19: Application argocd/web: fileParameters[0] names the source $other, which no source of the Application has as its ref | add ref: other to the source that holds the file, or fix the name',
    );
  });
});
