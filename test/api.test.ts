// The in-process API as a package user imports it: `import { render, lint, validate } from
// 'agentplat'` resolves (package.json "exports") to the built dist/api.mjs, whose types are
// dist/types/api.d.ts. Each function must give what its CLI command gives.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runBin } from './cli/binary.ts';

type Api = typeof import('../src/api.ts');
/** Where Node resolves the package name from a user's code (a package may import itself by name). */
const resolvePackage = (): string => createRequire(join(ROOT, 'index.js')).resolve('agentplat');
let api: Api;

beforeAll(async () => {
  ensureBuilt();
  api = (await import(/* @vite-ignore */ pathToFileURL(resolvePackage()).href)) as Api;
});

describe('in-process API (package export "agentplat")', () => {
  it('resolves to the built bundle, not the sources', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string; types: string }> };
    expect(pkg.exports['.']).toEqual({ types: './dist/types/api.d.ts', default: './dist/api.mjs' });
    expect(resolvePackage()).toBe(join(ROOT, 'dist', 'api.mjs'));
  });

  it.each(['A', 'B'])('render of revision %s gives the manifests `agentplat render` prints', async (revision) => {
    const r = await api.render({ revision });
    expect(r.ok).toBe(true);
    expect(r.yaml).toBe(runBin(['render', '-r', revision]).stdout);
    expect(r.objects.length).toBe((r.yaml.match(/^---$/gm) ?? []).length);
  });

  it('render layers files, YAML texts, plain data and --set flags in the CLI order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-api-'));
    try {
      writeFileSync(join(dir, 'one.yaml'), 'controller:\n  replicas: 2\n');
      const r = await api.render({
        cwd: dir,
        values: ['one.yaml', { name: 'two.yaml', text: 'ui:\n  replicas: 3\n' }, { values: { controller: { replicas: 5 } } }],
        set: ['ui.replicas=4'],
        releaseName: 'demo',
        namespace: 'apps',
        skipCrds: true,
      });
      const cli = runBin(['render', '--release-name', 'demo', '-n', 'apps', '--skip-crds', '-f', 'one.yaml', '-f', '-', '--set', 'ui.replicas=4'], {
        cwd: dir,
        stdin: 'ui:\n  replicas: 3\ncontroller:\n  replicas: 5\n',
      });
      expect(cli.code).toBe(0);
      expect(r.ok).toBe(true);
      expect(r.yaml).toBe(cli.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('render with a values error returns the problems with file, line and column, and no manifests', async () => {
    const r = await api.render({ values: [{ name: 'bad.yaml', text: 'controler:\n  replicas: 2\n' }] });
    expect(r.ok).toBe(false);
    expect(r.yaml).toBe('');
    expect(r.objects).toEqual([]);
    expect(r.problems).toContainEqual(expect.objectContaining({ severity: 'error', rule: 'values/unknown-key', path: 'controler', file: 'bad.yaml', line: 1, column: 1 }));
  });

  it('invalid options throw an AgentplatError (a usage error), never return half a result', async () => {
    await expect(api.render({ revision: 'C' })).rejects.toBeInstanceOf(api.AgentplatError);
    await expect(api.render({ releaseName: 'Bad_Name' })).rejects.toBeInstanceOf(api.UsageError);
    await expect(api.render({ values: ['/nonexistent/values.yaml'] })).rejects.toBeInstanceOf(api.UsageError);
    await expect(api.render({ showOnly: ['templates/nope.yaml'] })).rejects.toThrow(/did you mean|no rendered object/);
  });

  it('a list option takes its one entry alone: values: \'values.yaml\' is the list of that one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-api-one-'));
    try {
      writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
      const one = await api.render({ cwd: dir, values: 'values.yaml', set: 'ui.replicas=3', showOnly: 'templates/controller-deployment.yaml' });
      const list = await api.render({ cwd: dir, values: ['values.yaml'], set: ['ui.replicas=3'], showOnly: ['templates/controller-deployment.yaml'] });
      expect(one.ok).toBe(true);
      expect(one.yaml).toBe(list.yaml);
      expect(one.yaml).toContain('replicas: 2');
      const single = await api.lint({ values: { name: 'v.yaml', text: 'controler: {}\n' } });
      expect(single.problems).toContainEqual(expect.objectContaining({ rule: 'values/unknown-key', file: 'v.yaml' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an option of the wrong type is a TypeError naming it, not a file that cannot be read', async () => {
    await expect(api.render({ values: 42 as never })).rejects.toThrow(TypeError);
    await expect(api.render({ values: [42] as never })).rejects.toThrow(/values: each layer is a file path/);
    await expect(api.render({ set: [1] as never })).rejects.toThrow(/set: expected a string or a list of strings, got number/);
  });

  it('lint gives the problems `agentplat lint --format json` reports', async () => {
    const r = await api.lint({ revision: 'A', values: [join(ROOT, 'fixtures', 'lint', 'unknown-key.yaml')] });
    expect(r.ok).toBe(false);
    const cli = JSON.parse(runBin(['lint', '-r', 'A', '--format', 'json', '-f', join(ROOT, 'fixtures', 'lint', 'unknown-key.yaml')]).stdout) as { summary: { errors: number; warnings: number } };
    expect(r.counts.errors).toBe(cli.summary.errors);
    expect(r.counts.warnings).toBe(cli.summary.warnings);
    expect(r.problems.some((p) => p.rule === 'values/unknown-key')).toBe(true);
  });

  it('lint reports a key that changes nothing rendered as `agentplat lint` does (values/no-effect), and effects: false leaves it out as --no-effects does', async () => {
    const values = { name: 'route.yaml', text: 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n' };
    const on = await api.lint({ values });
    expect(on.problems).toContainEqual(expect.objectContaining({ severity: 'warning', rule: 'values/no-effect', path: 'ui.httpRoute.hostnames', file: 'route.yaml', line: 3 }));
    const off = await api.lint({ values, effects: false });
    expect(off.problems.filter((p) => p.rule === 'values/no-effect')).toEqual([]);
  });

  it('validate checks custom resources like `agentplat validate`', async () => {
    const file = join(ROOT, 'fixtures', 'resources', 'agent-byo.yaml');
    const good = await api.validate([{ file, text: readFileSync(file, 'utf8') }]);
    expect(good).toMatchObject({ ok: true, problems: [], checked: 1, skipped: 0 });
    const bad = await api.validate([{ file: 'x.yaml', text: 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nmetadata: {name: a}\nspec: {type: Nope}\n' }]);
    expect(bad.ok).toBe(false);
    expect(bad.problems[0]).toMatchObject({ file: 'x.yaml', line: 4 });
  });

  it('validate checks core kinds against the OpenAPI of options.kubeVersion, and refuses a release it has no schemas of', async () => {
    // emptyDir.mode exists in Kubernetes 1.37, not in 1.34.
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: v, emptyDir: {mode: 448}}]\n';
    expect(await api.validate([{ file: 'p.yaml', text }])).toMatchObject({ ok: true, checked: 1 });
    const old = await api.validate([{ file: 'p.yaml', text }], { kubeVersion: '1.34' });
    expect(old.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.volumes[0].emptyDir.mode', line: 6 }]);
    await expect(api.validate([{ file: 'p.yaml', text }], { kubeVersion: '1.20' })).rejects.toThrow(/no schemas of Kubernetes 1\.20/);
  });

  it('the declarations in dist/types type-check a consumer that uses every export', () => {
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.agentplat-api-types-'));
    try {
      const consumer = join(dir, 'consumer.ts');
      writeFileSync(
        consumer,
        `import { render, lint, validate, AgentplatError, type RenderResult, type LintResult, type Problem, type K8sObject } from 'agentplat';
const r: Promise<RenderResult> = render({ revision: 'B', values: ['v.yaml', { name: 'x', text: '' }, { values: { a: 1 } }], set: ['a=1'], skipCrds: true });
const l: Promise<LintResult> = lint({ revision: 'A', values: 'v.yaml', set: 'a=1', verbose: true });
void validate([{ file: 'a.yaml', text: '' }]).then((v) => v.problems.map((p: Problem) => p.line));
void r.then((x) => x.objects.map((o) => (o.object as K8sObject).metadata.name));
void l;
export const isError = (e: unknown): boolean => e instanceof AgentplatError;
// @ts-expect-error revision takes a string
void render({ revision: 2 });
`,
      );
      const program = ts.createProgram([consumer], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ['node'] });
      // Every diagnostic of the consumer and of the package's declarations (dist/types); the
      // declarations of TypeScript's libraries and @types/node, which they use, are not ours to check.
      const ours = program.getSourceFiles().filter((sf) => sf.fileName === consumer.split('\\').join('/') || !sf.fileName.includes('/node_modules/'));
      expect(ours.map((sf) => sf.fileName)).toEqual(expect.arrayContaining([join(ROOT, 'dist', 'types', 'api.d.ts').split('\\').join('/')]));
      const found = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...ours.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)])];
      const diagnostics = found.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
