// `agentplat diff`: the three ways to pick two sides (values sets, revisions after migrate, a
// render against manifests), what it prints, what it hides, and its exit codes (0 equal, 1
// different or problems, 2 usage error). Run in-process (the run() the executable calls, with
// memory streams); one test runs the real executable for its exit status and standard input.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, runBin, STACK_TRACE, type RunResult } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { Command } from 'commander';
import { createMemoryIo } from '../../src/cli/io.ts';
import { addLayerOptions } from '../../src/cli/options.ts';
import { createProgram } from '../../src/cli/program.ts';

const ESC = '\u001b[';
const dir = tempDir('agentplat-diff-');

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(join(dir, 'two.yaml'), 'controller:\n  replicas: 2\n');
  writeFileSync(join(dir, 'three.yaml'), 'controller:\n  replicas: 3\n');
  // Revision A words that revision B refuses until migrated.
  writeFileSync(join(dir, 'a.yaml'), 'controller:\n  auth:\n    mode: unsecure\n');
  writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  replicas: 2\n  imagee: x\n');
  writeFileSync(join(dir, 'two-render.yaml'), await render(['-f', 'two.yaml']));
});

async function diff(args: readonly string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
  const r = await runInProcess(['diff', ...args], { cwd: dir, ...opts });
  expect(r.stderr).not.toMatch(STACK_TRACE);
  return r;
}

async function render(args: readonly string[]): Promise<string> {
  const r = await runInProcess(['render', ...args], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('diff: two values sets', () => {
  it('a changed value shows as its object, changed, with the field path and a unified YAML diff; exit 1', async () => {
    const r = await diff(['-f', 'two.yaml', '--to-values', 'three.yaml', '--skip-crds']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^changed Deployment\.apps default\/agentplat-controller: spec\.replicas\n@@ -\d+,7 \+\d+,7 @@\n/);
    expect(r.stdout).toContain('\n-  replicas: 2\n+  replicas: 3\n');
    // Only that object: nothing else differs.
    expect(r.stdout.match(/^(changed|added|removed) /gm)).toHaveLength(1);
    expect(r.stderr).toMatch(/^0 added, 0 removed, 1 changed, \d+ unchanged\n$/);
  });

  it('two renders that are the same print nothing on stdout and exit 0', async () => {
    const r = await diff(['-f', 'two.yaml', '--to-values', 'two.yaml', '--to-set', 'controller.replicas=2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^no differences: \d+ objects on each side, all the same\n$/);
  });

  it('two values sets that differ only in keys that change nothing rendered: exit 0, and the summary names the keys (text), valuesWithoutEffect (JSON)', async () => {
    writeFileSync(join(dir, 'route-a.yaml'), 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n');
    const r = await diff(['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com,controller.replicas=1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^no differences: \d+ objects on each side, all the same\nthe values of the two sides differ at `ui\.httpRoute\.hostnames`, which changes nothing rendered \(agentplat lint names why: values\/no-effect\)\n$/);
    const json = JSON.parse((await diff(['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com', '-o', 'json'])).stdout) as { equal: boolean; valuesWithoutEffect?: string[] };
    expect(json).toMatchObject({ equal: true, valuesWithoutEffect: ['ui.httpRoute.hostnames'] });
  });

  it('a values change that mixes keys with and without effect: the diff shows what changed, and the summary names only the keys without effect (text and JSON)', async () => {
    writeFileSync(join(dir, 'route-a.yaml'), 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n');
    const args = ['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com,controller.replicas=3', '--skip-crds'];
    const r = await diff(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\n-  replicas: 1\n+  replicas: 3\n');
    expect(r.stderr).toMatch(/\nof the keys at which the values of the two sides differ, `ui\.httpRoute\.hostnames` changes nothing rendered: put back to the old side's value, the new side renders the same \(agentplat lint names why: values\/no-effect\)\n$/);
    // The key with an effect is not named.
    expect(r.stderr).not.toContain('`controller.replicas`');
    const json = JSON.parse((await diff([...args, '-o', 'json'])).stdout) as { equal: boolean; valuesWithoutEffect?: string[] };
    expect(json).toMatchObject({ equal: false, valuesWithoutEffect: ['ui.httpRoute.hostnames'] });
  });

  it('a values change whose every key has an effect names none of them', async () => {
    const args = ['-f', 'two.yaml', '--to-values', 'three.yaml', '--skip-crds'];
    const r = await diff(args);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('nothing rendered');
    const json = JSON.parse((await diff([...args, '-o', 'json'])).stdout) as { valuesWithoutEffect?: string[] };
    expect(json.valuesWithoutEffect).toBeUndefined();
  });

  it('the new side takes exactly the --to-… layers: the old side\'s -f files are not under them', async () => {
    // two.yaml sets replicas 2; the new side without it is back at the default (1).
    const r = await diff(['-f', 'two.yaml', '--to-set', 'ui.replicas=1', '--skip-crds', '-q']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('changed Deployment.apps default/agentplat-controller: spec.replicas');
  });

  it('every values layer of the old side has its --to-… twin for the new side, --to-set-literal included', async () => {
    const program = createProgram({ io: createMemoryIo(), exitCode: 0 });
    const render = program.commands.find((c) => c.name() === 'render')!;
    const diffCommand = program.commands.find((c) => c.name() === 'diff')!;
    const layers = addLayerOptions(new Command()).options.map((o) => o.long!);
    expect(layers).toContain('--set-literal');
    for (const long of layers) {
      expect(render.options.some((o) => o.long === long), long).toBe(true);
      expect(diffCommand.options.some((o) => o.long === `--to-${long.slice(2)}`), `--to-${long.slice(2)}`).toBe(true);
    }
    // --to-set-literal takes the text after = as it is, commas included, on the new side only.
    const r = await diff(['--to-set-literal', 'controller.image.tag=v1,2', '--skip-crds']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^\+ +image: .*:v1,2$/m);
  });

  it('objects a value turns on or off are added or removed, shown whole', async () => {
    const r = await diff(['--set', 'controller.pdb.enabled=true', '--to-set', 'controller.pdb.enabled=false', '--skip-crds']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^removed PodDisruptionBudget\.policy default\/agentplat-controller\n@@ -1,\d+ \+0,0 @@\n-apiVersion: policy\/v1\n-kind: PodDisruptionBudget\n/m);
  });

  it('-q/--brief names the objects that differ, without their diffs', async () => {
    const r = await diff(['-f', 'two.yaml', '--to-values', 'three.yaml', '--brief']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('changed Deployment.apps default/agentplat-controller: spec.replicas\n');
  });

  it('-U sets the unchanged lines shown around a change', async () => {
    const r = await diff(['-f', 'two.yaml', '--to-values', 'three.yaml', '-U', '0']);
    expect(r.stdout).toMatch(/\n@@ -(\d+),1 \+\1,1 @@\n-  replicas: 2\n\+  replicas: 3\n/);
  });
});

describe('diff: two revisions', () => {
  it('--from-revision A --to-revision B migrates the old values as migrate does (each step at the file:line:col of its key, as plan prints it), then shows what the upgrade changes', async () => {
    const r = await diff(['-f', 'a.yaml', '--from-revision', 'A', '--to-revision', 'B', '--skip-crds']);
    expect(r.code).toBe(1);
    // "unsecure" is an error in revision B: the new side rendered, so the values were migrated.
    expect(r.stderr).toContain("the old side's values, migrated from revision A to B (as agentplat migrate does):\n  a.yaml:3:5: controller.auth.mode: unsecure → insecure");
    expect(r.stdout).toMatch(/^changed ConfigMap default\/agentplat-controller: .*data\.AUTH_MODE/m);
    expect(r.stdout).toContain('+    helm.sh/chart: agentplat-0.11.0');
    // Revision B bundles no agents: the upgrade removes them.
    expect(r.stdout).toMatch(/^removed Agent\.agentplat\.dev default\/\S+-agent$/m);
  });

  it('the JSON of a revision diff carries the migration report and both revisions', async () => {
    const r = await diff(['-f', 'a.yaml', '--from-revision', 'A', '--to-revision', 'B', '--skip-crds', '-o', 'json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { from: unknown; to: unknown; migration: unknown[] };
    expect(out.from).toEqual({ kind: 'render', revision: 'A', values: ['a.yaml'] });
    expect(out.to).toEqual({ kind: 'render', revision: 'B', values: ['a.yaml (migrated to B)'] });
    expect(out.migration).toContainEqual({ file: 'a.yaml', path: 'controller.auth.mode', kind: 'changed', what: 'unsecure → insecure', why: expect.any(String), to: ['controller.auth.mode'] });
  });

  it('values that fail in the old revision are reported once, for the old side, and nothing is migrated', async () => {
    const r = await diff(['-f', 'bad.yaml', '--from-revision', 'A', '--to-revision', 'B']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.match(/bad\.yaml:3:3/g)).toHaveLength(1);
    expect(r.stderr).toContain('old side (revision A):');
  });
});

describe('diff: a render against manifests', () => {
  it('--against a folder written by render --output-dir: the same values are equal, other values show what a sync would change', async () => {
    const out = join(dir, 'out-folder');
    expect((await runInProcess(['render', '-f', 'two.yaml', '--output-dir', out], { cwd: dir })).code).toBe(0);
    const same = await diff(['-f', 'two.yaml', '--against', out]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe('');
    const next = await diff(['-f', 'three.yaml', '--against', out, '-q']);
    expect(next.code).toBe(1);
    expect(next.stdout).toBe('changed Deployment.apps default/agentplat-controller: spec.replicas\n');
  });

  it('--against a YAML file, a v1 List on stdin, or JSON: each is read as the objects it holds', async () => {
    expect((await diff(['-f', 'two.yaml', '--against', 'two-render.yaml'])).code).toBe(0);
    const list = await render(['-f', 'two.yaml', '-o', 'json']);
    expect((await diff(['-f', 'two.yaml', '--against', '-'], { stdin: list })).code).toBe(0);
    const r = await diff(['-f', 'three.yaml', '--against', '-', '-q'], { stdin: list });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('changed Deployment.apps default/agentplat-controller: spec.replicas\n');
  });

  it('objects are matched by group, kind, namespace and name: another API version of one object is a change, not a removal and an addition', async () => {
    const withPdb = (await render(['-f', 'two.yaml', '--skip-crds', '--set', 'controller.pdb.enabled=true'])).replace('apiVersion: policy/v1\n', 'apiVersion: policy/v1beta1\n');
    writeFileSync(join(dir, 'old-api.yaml'), withPdb);
    const changed = await diff(['-f', 'two.yaml', '--set', 'controller.pdb.enabled=true', '--skip-crds', '--against', 'old-api.yaml']);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^changed PodDisruptionBudget\.policy default\/agentplat-controller: apiVersion\n/);
    expect(changed.stdout).toContain('-apiVersion: policy/v1beta1\n+apiVersion: policy/v1\n');
    expect(changed.stdout).not.toMatch(/^(added|removed) /m);
  });

  it('the output order does not depend on the order of the documents compared', async () => {
    const docs = (await render(['-f', 'three.yaml', '--skip-crds'])).split(/^---\n/m).filter((d) => d !== '');
    writeFileSync(join(dir, 'in-order.yaml'), docs.map((d) => `---\n${d}`).join(''));
    writeFileSync(join(dir, 'reversed.yaml'), [...docs].reverse().map((d) => `---\n${d}`).join(''));
    const a = await diff(['-f', 'two.yaml', '--set', 'ui.replicas=2', '--skip-crds', '--against', 'in-order.yaml']);
    const b = await diff(['-f', 'two.yaml', '--set', 'ui.replicas=2', '--skip-crds', '--against', 'reversed.yaml']);
    expect(a.code).toBe(1);
    expect(a.stdout.match(/^changed /gm)).toHaveLength(2);
    expect(b.stdout).toBe(a.stdout);
    // Sorted by group, kind, namespace, name: the core group's kinds before apps.
    const headers = a.stdout.match(/^changed \S+/gm)!;
    expect(headers).toEqual(['changed Deployment.apps', 'changed Deployment.apps']);
    expect(a.stdout.indexOf('agentplat-controller')).toBeLessThan(a.stdout.indexOf('agentplat-ui'));
  });

  it('a manifest that is not YAML, or holds something other than objects, is reported at file:line:column; exit 1, nothing on stdout', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n---\n- a\n---\nkind: ConfigMap\nmetadata:\n  name: y\n');
    const r = await diff(['--against', 'broken.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('broken.yaml:3:11  error  invalid YAML');
    expect(r.stderr).toContain('broken.yaml:5:1  error  this document is not a Kubernetes object: it is not a map  [diff/not-an-object]');
    expect(r.stderr).toContain('broken.yaml:7:1  error  this document is not a Kubernetes object: it has no apiVersion');
  });

  it('a manifest that holds one object twice is a usage error naming both places', async () => {
    const one = await render(['--skip-crds', '-s', 'templates/controller-serviceaccount.yaml']);
    writeFileSync(join(dir, 'twice.yaml'), one + one);
    const r = await diff(['--skip-crds', '--against', 'twice.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the old side: two objects are both ServiceAccount default\/agentplat-controller \(in twice\.yaml and twice\.yaml\)/);
  });
});

describe('diff: secrets, colour, JSON', () => {
  it('secrets never show: Secret data and the values\' secret fields are masked, a changed secret is marked old and new', async () => {
    const r = await diff([
      '--set', 'providers.providerB.apiKey=sk-old-key-1111',
      // $(NAME) keeps the URL in the Deployment's env, where the kubelet expands it: a password in a string.
      '--set', 'database.rdb.url=postgres://app:hunter2old@db:5432/app?application_name=$(K8S_POD_NAME)',
      '--to-set', 'providers.providerB.apiKey=sk-new-key-2222',
      '--to-set', 'database.rdb.url=postgres://app:hunter2new@db:5432/app?application_name=$(K8S_POD_NAME)',
      '--skip-crds',
    ]);
    const json = await diff([
      '--set', 'providers.providerB.apiKey=sk-old-key-1111',
      '--to-set', 'providers.providerB.apiKey=sk-new-key-2222',
      '--skip-crds', '-o', 'json',
    ]);
    expect(r.code).toBe(1);
    for (const out of [r.stdout, r.stderr, json.stdout]) {
      for (const secret of ['sk-old-key-1111', 'sk-new-key-2222', 'hunter2old', 'hunter2new', Buffer.from('sk-old-key-1111').toString('base64'), Buffer.from('sk-new-key-2222').toString('base64')]) {
        expect(out).not.toContain(secret);
      }
    }
    expect(r.stdout).toContain('-  PROVIDERB_API_KEY: "******** (old value)"\n+  PROVIDERB_API_KEY: "******** (new value)"\n');
    expect(r.stdout).toContain('value: postgres://app:********@db:5432/app?application_name=$(K8S_POD_NAME) (old value)');
    expect(JSON.parse(json.stdout).objects[0].changes).toEqual([{ path: 'data.PROVIDERB_API_KEY', op: 'replace', from: '******** (old value)', to: '******** (new value)' }]);
  });

  it('a Secret read from a manifest is masked too, and an unchanged secret shows as the mask', async () => {
    const yaml = await render(['--skip-crds', '--set', 'providers.providerB.apiKey=sk-live-9999', '--set', 'controller.replicas=4']);
    writeFileSync(join(dir, 'live.yaml'), yaml);
    const r = await diff(['--skip-crds', '--set', 'providers.providerB.apiKey=sk-live-9999', '--against', 'live.yaml', '-U', '100']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain(Buffer.from('sk-live-9999').toString('base64'));
    // The Secret is unchanged: it is not listed at all.
    expect(r.stdout).not.toMatch(/^changed Secret /m);
    const removed = await diff(['--skip-crds', '--against', 'live.yaml']);
    expect(removed.stdout).toMatch(/^removed Secret default\/agentplat-providerb\n/m);
    expect(removed.stdout).toContain('-  PROVIDERB_API_KEY: "********"\n');
    expect(removed.stdout).not.toContain(Buffer.from('sk-live-9999').toString('base64'));
  });

  it('colour on a terminal (FORCE_COLOR here), none under NO_COLOR or --no-color', async () => {
    const args = ['-f', 'two.yaml', '--to-values', 'three.yaml'];
    const coloured = await diff(args, { env: { FORCE_COLOR: '1' } });
    expect(coloured.stdout).toContain(`${ESC}31m-  replicas: 2`);
    expect(coloured.stdout).toContain(`${ESC}32m+  replicas: 3`);
    expect((await diff(args, { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await diff([...args, '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await diff(args)).stdout).not.toContain(ESC);
    expect((await diff([...args, '-o', 'json'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
  });

  it('-o json prints one document of the documented shape (version 1)', async () => {
    const r = await diff(['-f', 'two.yaml', '--to-values', 'three.yaml', '--to-set', 'controller.pdb.enabled=true', '--skip-crds', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['version', 'tool', 'from', 'to', 'equal', 'summary', 'objects']);
    expect(out.version).toBe(1);
    expect(out.tool.name).toBe('agentplat');
    expect(out.from).toEqual({ kind: 'render', revision: 'B', values: ['two.yaml'] });
    expect(out.equal).toBe(false);
    expect(out.summary).toEqual({ added: 1, removed: 0, changed: 1, unchanged: expect.any(Number) });
    // Sorted by group: apps before policy.
    const [changed, added] = out.objects;
    expect(added).toEqual({ status: 'added', group: 'policy', kind: 'PodDisruptionBudget', namespace: 'default', name: 'agentplat-controller', newSource: expect.stringMatching(/^agentplat\/templates\//), object: expect.objectContaining({ kind: 'PodDisruptionBudget' }) });
    expect(changed).toMatchObject({ status: 'changed', group: 'apps', kind: 'Deployment', name: 'agentplat-controller', changes: [{ path: 'spec.replicas', op: 'replace', from: 2, to: 3 }] });
    expect(changed.diff).toMatch(/^@@ .* @@\n[\s\S]*\n-  replicas: 2\n\+  replicas: 3\n/);
    const equal = JSON.parse((await diff(['-f', 'two.yaml', '--to-values', 'two.yaml', '-o', 'json'])).stdout);
    expect(equal).toMatchObject({ equal: true, summary: { added: 0, removed: 0, changed: 0 }, objects: [] });
  });
});

describe('diff: problems and usage errors', () => {
  it('values with problems, on either side, are reported as render reports them (file:line:column); exit 1, nothing on stdout', async () => {
    for (const args of [['-f', 'bad.yaml', '--to-values', 'two.yaml'], ['-f', 'two.yaml', '--to-values', 'bad.yaml'], ['-f', 'bad.yaml', '--against', 'two-render.yaml']]) {
      const r = await diff(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('bad.yaml:3:3  error  unknown key `controller.imagee` in revision B  [values/unknown-key]');
    }
    const side = await diff(['-f', 'two.yaml', '--to-values', 'bad.yaml']);
    expect(side.stderr).toMatch(/^new side \(revision B\):\n/);
  });

  it.each([
    { name: 'the same render on both sides', args: ['-f', 'two.yaml'], message: /nothing to compare: both sides would be the same render/ },
    { name: '--to-values with --against', args: ['--against', 'two-render.yaml', '--to-values', 'two.yaml'], message: /with --against the new side is the render of -f and --set/ },
    { name: '--from-revision with --against', args: ['--against', 'two-render.yaml', '--from-revision', 'A'], message: /with --against the old side is the manifest, which has no revision/ },
    { name: 'a revision diff backwards (no migration exists)', args: ['--from-revision', 'B', '--to-revision', 'A'], message: /cannot migrate values from revision B to A/ },
    { name: 'standard input twice', args: ['-f', '-', '--against', '-'], message: /standard input \(-\) can be read only once/ },
    { name: 'an unknown output format', args: ['-f', 'two.yaml', '--to-values', 'three.yaml', '-o', 'yaml'], message: /--output: unknown format "yaml"/ },
    { name: 'a context that is not a number', args: ['-f', 'two.yaml', '--to-values', 'three.yaml', '-U', 'x'], message: /--context: expected a whole number/ },
    { name: 'a manifest that does not exist', args: ['--against', 'missing.yaml'], message: /missing\.yaml: cannot read resource file/ },
  ])('$name is a usage error: exit 2, nothing on stdout', async ({ args, message }) => {
    const r = await diff(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('  hint: ');
  });

  it('--help shows the three forms, the masking and the exit codes', async () => {
    const r = await runInProcess(['diff', '--help']);
    expect(r.code).toBe(0);
    for (const text of ['--to-values', '--from-revision', '--to-revision', '--against', 'Exit codes (like diff): 0 no differences; 1 differences', '2 usage error', '******** (old value)']) {
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(text);
    }
  });
});

describe('diff: the real executable', () => {
  it('exits with the status of the run (1: the sides differ, 0: equal) and reads a manifest from its standard input', async () => {
    const list = await render(['-f', 'two.yaml', '-o', 'json']);
    const differ = runBin(['diff', '-f', 'three.yaml', '--against', '-', '-q'], { cwd: dir, stdin: list });
    expect(differ.signal).toBeNull();
    expect(differ.code, differ.stderr).toBe(1);
    expect(differ.stdout).toBe('changed Deployment.apps default/agentplat-controller: spec.replicas\n');
    const same = runBin(['diff', '-f', 'two.yaml', '--against', '-'], { cwd: dir, stdin: list });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe('');
  });
});

describe('diff: README', () => {
  it('the README tour shows the three forms of diff', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const tour = readme.slice(readme.indexOf('## A tour'), readme.indexOf('## Commands'));
    for (const form of ['agentplat diff -f prod.yaml --to-values', 'agentplat diff -f values-a.yaml --from-revision A --to-revision B', 'agentplat diff -f values.yaml --against']) expect(tour).toContain(form);
  });
});
