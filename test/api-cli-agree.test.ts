// The in-process API and the CLI run the same operations (src/pipeline/operations.ts), so over any
// values and flags they give the same problems, the same verdict and the same objects. Generated
// inputs mix values that lint clean, that warn, that fail the values lint, and that lint clean but
// fail the render (a 62-character fullnameOverride cuts two object names into one): `api.lint`
// once returned ok there while `agentplat lint` exited 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, render, type Problem } from '../src/api.ts';
import { runInProcess } from './cli/in-process.ts';

// No .agentplat.yaml here: the CLI reads its settings from the working folder, the API reads none.
const cwd = mkdtempSync(join(tmpdir(), 'agentplat-api-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** --set assignments a user might write, each one alone fine or not. */
const ASSIGNMENTS = [
  `fullnameOverride=${'a'.repeat(62)}`,
  'fullnameOverride=short',
  'controller.replicas=2',
  'controller.replicas=-1',
  'controller.image.tag=v9',
  'controller.nosuchkey=1',
  'ui.enabled=false',
  'ui.replicas=0',
  'authproxy.enabled=true',
  'providers.default=providerA',
  'providers.providerB.config.maxTokens=0',
  'providers.providerB.config.baseUrl=https://gateway.example/v1',
  'database.rdb.bundled.enabled=false',
  'database.rdb.url=postgres://u@db.example.com/x',
  'rbac.namespaces={team-a}',
  'controller.resources.limits.cpu=2',
];

const inputs = fc.record({
  revision: fc.constantFrom('A', 'B'),
  set: fc.uniqueArray(fc.constantFrom(...ASSIGNMENTS), { maxLength: 4 }),
  namespace: fc.option(fc.constantFrom('team-a', 'default'), { nil: undefined }),
  releaseName: fc.option(fc.constantFrom('agentplat', 'prod'), { nil: undefined }),
  kubeVersion: fc.option(fc.constantFrom('1.29', '1.34'), { nil: undefined }),
});
type Inputs = typeof inputs extends fc.Arbitrary<infer T> ? T : never;

function flags(i: Inputs): string[] {
  return [
    '-r', i.revision,
    ...i.set.flatMap((s) => ['--set', s]),
    ...(i.namespace ? ['-n', i.namespace] : []),
    ...(i.releaseName ? ['--release-name', i.releaseName] : []),
    ...(i.kubeVersion ? ['--kube-version', i.kubeVersion] : []),
  ];
}

function options(i: Inputs) {
  return {
    revision: i.revision,
    set: i.set,
    cwd,
    ...(i.namespace ? { namespace: i.namespace } : {}),
    ...(i.releaseName ? { releaseName: i.releaseName } : {}),
    ...(i.kubeVersion ? { kubeVersion: i.kubeVersion } : {}),
  };
}

/** A problem as both sides give it: what a user reads of it. */
const seen = (p: Pick<Problem, 'severity' | 'rule' | 'path' | 'message'> & { line?: number; column?: number }) =>
  [p.severity, p.rule, p.path, p.message, p.line ?? 0, p.column ?? 0].join('|');

describe('the API decides as the CLI does', () => {
  it('a 62-character fullnameOverride: lint and api.lint both report the names cut into one (render/duplicate-object)', async () => {
    const i: Inputs = { revision: 'B', set: [`fullnameOverride=${'a'.repeat(62)}`], namespace: undefined, releaseName: undefined, kubeVersion: undefined };
    const cli = await runInProcess(['lint', ...flags(i)], { cwd });
    expect(cli.code).toBe(1);
    const api = await lint(options(i));
    expect(api.ok).toBe(false);
    expect(api.problems.map((p) => p.rule)).toContain('render/duplicate-object');
  });

  it('api.lint gives the problems and the verdict of `agentplat lint --format json`, over generated values and flags', async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (i) => {
        const cli = await runInProcess(['lint', '--format', 'json', ...flags(i)], { cwd });
        const report = JSON.parse(cli.stdout) as { files: { problems: Problem[] }[] };
        const api = await lint(options(i));
        expect(api.problems.map(seen).sort()).toEqual(report.files.flatMap((f) => f.problems).map(seen).sort());
        expect(api.ok).toBe(cli.code === 0);
      }),
      { numRuns: 40, seed: 34 },
    );
  });

  it('api.render gives the objects of `agentplat render -o json`, and the problems it prints, over generated values and flags', async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (i) => {
        const cli = await runInProcess(['render', '--skip-crds', '-o', 'json', ...flags(i)], { cwd });
        const api = await render({ ...options(i), skipCrds: true });
        expect(api.ok).toBe(cli.code === 0);
        if (cli.code === 0) expect(api.objects.map((o) => o.object)).toEqual((JSON.parse(cli.stdout) as { items: unknown[] }).items);
        // Every problem the API returns is one the CLI printed on stderr, at the same place.
        for (const p of api.problems) expect(cli.stderr).toContain(p.message.split('\n')[0]!);
      }),
      { numRuns: 30, seed: 34 },
    );
  });

  it('api.render applies the ApplySet, the labels and the CRD protection as the CLI does', async () => {
    const cli = await runInProcess(['template', 'agentplat', '--include-crds', '--applyset', 'agentplat', '--labels', 'team=a', '--protect-crds'], { cwd });
    expect(cli.code).toBe(0);
    const api = await render({ applyset: 'agentplat', labels: 'team=a', protectCrds: true, cwd });
    expect(api.yaml).toBe(cli.stdout);
    expect(api.objects.every((o) => (o.object.metadata as { labels?: Record<string, string> } | undefined)?.labels?.team === 'a')).toBe(true);
  });
});
