// The Argo CD recipe for Applications of the chart (recipes/argocd/application-chart.yaml and
// lint-workflow.yaml) works as written: in a Git repository holding the Application under apps/
// and its value file under envs/, the workflow's steps, with agentplat installed from a pack of
// this repository, lint the Application itself with the values Argo CD would pass to helm, and
// fail at the line of a problem in the value file the Application names.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../cli/binary.ts';
import { installOnce, sh, sharedPack, stepEnv, TARBALL } from '../helpers/pack.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

const DIR = join(ROOT, 'recipes', 'argocd');
const APPLICATION = readFileSync(join(DIR, 'application-chart.yaml'), 'utf8');
const workflow = parse(readFileSync(join(DIR, 'lint-workflow.yaml'), 'utf8')) as { jobs: Record<string, { steps: { run?: string }[] }> };

/** The Git repository Argo CD reads: the Application, the plugin recipe's Application (not of this chart's Helm repository), the value file, the pack. */
async function argoRepo(values: string): Promise<string> {
  const repo = tempFiles('agentplat-argocd-apps-', {
    'apps/agentplat.yaml': APPLICATION,
    'apps/agentplat-plugin.yaml': readFileSync(join(DIR, 'application.yaml'), 'utf8'),
    'envs/prod/values.yaml': values,
    'tools/.keep': '',
  });
  copyFileSync(await sharedPack(), join(repo, 'tools', TARBALL));
  return repo;
}

async function runSteps(repo: string) {
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);
  expect(steps[0]!.run, 'the workflow installs agentplat first').toMatch(/\bnpm install\b/);
  const installed = await installOnce(steps[0]!.run!, repo);
  return steps.slice(1).map((s) => sh('bash', s.run!, repo, stepEnv(installed)));
}

describe('Argo CD recipe for Applications of the chart', () => {
  it('docs/ci.md shows the one-line command the lint workflow runs', () => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);
    const lint = steps.map((s) => s.run!.trim()).filter((r) => r.startsWith('agentplat lint'));
    expect(lint).toHaveLength(1);
    expect(readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')).toContain(['', '```sh', lint[0]!, '```', ''].join('\n'));
  });

  it('the lint workflow lints the Application file itself, with the value file it names from the checkout', async () => {
    const ran = await runSteps(await argoRepo('controller:\n  loglevel: debug\n'));
    expect(ran.map((r) => r.code), ran.map((r) => `${r.stdout}${r.stderr}`).join('\n')).toEqual([0]);
    expect(ran[0]!.stdout).toContain('1 file, 0 errors');
  });

  it('the lint workflow fails at the line of a wrong key in the value file the Application names', async () => {
    const ran = await runSteps(await argoRepo('controller:\n  replcas: 3\n'));
    expect(ran[0]!.code).toBe(1);
    expect(ran[0]!.stdout).toContain('envs/prod/values.yaml:2:3');
    expect(ran[0]!.stdout).toContain('[values/unknown-key]');
  });

  it('the lint workflow fails at the line of a wrong key in the Application\'s valuesObject', async () => {
    const broken = APPLICATION.replace('          ui:\n            replicas: 2\n', '          ui:\n            replcas: 2\n');
    expect(broken).not.toBe(APPLICATION);
    const line = broken.split('\n').findIndex((l) => l.includes('replcas')) + 1;
    const repo = await argoRepo('controller:\n  loglevel: debug\n');
    writeFileSync(join(repo, 'apps', 'agentplat.yaml'), broken);
    const ran = await runSteps(repo);
    expect(ran[0]!.code).toBe(1);
    expect(ran[0]!.stdout).toContain(`apps/agentplat.yaml:${line}:13`);
  });
});
