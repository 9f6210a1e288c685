// The CRDs themselves: structural, CEL that compiles, metadata that helps kubectl, and the
// `agentplat crds` output (parses, deterministic); plus the validate command's edges.
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { parseAllDocuments } from 'yaml';
import { chartCrdDocs, mcpopCrdDocs } from '../../src/crds/index.ts';
import { compileCel } from '../../src/kube-check/cel.ts';
import type { Schema } from '../../src/crds/k8s-types.ts';
import { doc, validateYaml } from './helpers.ts';
import { runInProcess } from '../cli/in-process.ts';

const all = () => [...chartCrdDocs(), ...mcpopCrdDocs()];
const rootOf = (o: Record<string, unknown>): Schema => (o.spec as { versions: { schema: { openAPIV3Schema: Schema } }[] }).versions[0]!.schema.openAPIV3Schema;

function walk(s: Schema, path: string, visit: (s: Schema, path: string) => void): void {
  visit(s, path);
  for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`, visit);
  if (s.items) walk(s.items, `${path}[]`, visit);
  if (s.additionalProperties) walk(s.additionalProperties, `${path}{}`, visit);
  for (const a of s.anyOf ?? []) walk(a, `${path}|`, visit);
}

describe('CRDs', () => {
  it('are six kinds of agentplat.dev v1alpha2 (served, storage) plus MCPServer v1alpha1, namespaced, with status', () => {
    const names = all().map((d) => d.object.metadata.name);
    expect(names).toEqual([
      'agents.agentplat.dev',
      'sandboxagents.agentplat.dev',
      'agentharnesses.agentplat.dev',
      'modelconfigs.agentplat.dev',
      'modelproviderconfigs.agentplat.dev',
      'remotemcpservers.agentplat.dev',
      'mcpservers.agentplat.dev',
    ]);
    for (const d of all()) {
      const spec = d.object.spec as { scope: string; names: { categories: string[] }; versions: { name: string; served: boolean; storage: boolean; subresources: unknown }[] };
      expect(spec.scope).toBe('Namespaced');
      expect(spec.names.categories).toEqual(['agentplat']);
      expect(spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([[d.object.metadata.name === 'mcpservers.agentplat.dev' ? 'v1alpha1' : 'v1alpha2', true, true]]);
      expect(spec.versions[0]!.subresources).toEqual({ status: {} });
      expect(d.object.metadata.labels).toEqual({ 'app.kubernetes.io/part-of': 'agentplat', 'app.kubernetes.io/managed-by': 'agentplat' });
      expect(d.source).toMatch(new RegExp(`/crds/${d.object.metadata.name.replace(/\./g, '\\.')}\\.yaml$`));
    }
  });

  it('are structural: a type on every node, int-or-string only as anyOf, preserve-unknown-fields only on providerH.additionalModelRequestFields', () => {
    const bad: string[] = [];
    for (const d of all()) {
      walk(rootOf(d.object), d.object.metadata.name, (s, path) => {
        if (s['x-kubernetes-preserve-unknown-fields']) {
          if (!path.endsWith('modelconfigs.agentplat.dev.spec.providerH.additionalModelRequestFields')) bad.push(`${path}: preserve-unknown-fields`);
          return;
        }
        if (path.endsWith('|')) return;
        if (s['x-kubernetes-int-or-string']) {
          if (s.type || s.anyOf?.map((a) => a.type).join() !== 'integer,string') bad.push(`${path}: int-or-string shape`);
          return;
        }
        if (!s.type) bad.push(`${path}: no type`);
        if (s.anyOf) bad.push(`${path}: anyOf outside int-or-string`);
      });
    }
    expect(bad).toEqual([]);
  });

  it('expand the core types (Volume, Container, EnvVar …) instead of leaving them open', () => {
    const agent = rootOf(chartCrdDocs()[0]!.object);
    const dep = agent.properties!.spec!.properties!.declarative!.properties!.deployment!;
    expect(Object.keys(dep.properties!.volumes!.items!.properties!)).toEqual(expect.arrayContaining(['name', 'configMap', 'secret', 'emptyDir', 'persistentVolumeClaim']));
    expect(dep.properties!.extraContainers!.items!.required).toEqual(['name']);
    expect(dep.properties!.env!.items!.properties!.valueFrom!.type).toBe('object');
    expect(dep.properties!.resources!.properties!.limits!.additionalProperties!['x-kubernetes-int-or-string']).toBe(true);
  });

  it('every CEL rule compiles with the evaluator and gives a bool', () => {
    let count = 0;
    for (const d of all()) {
      walk(rootOf(d.object), d.object.metadata.name, (s, path) => {
        for (const v of s['x-kubernetes-validations'] ?? []) {
          count++;
          expect(() => compileCel(v.rule), `${path}: ${v.rule}`).not.toThrow();
          expect(v.message.length).toBeGreaterThan(10);
        }
      });
    }
    expect(count).toBeGreaterThan(30);
    expect(() => compileCel('self.a &&')).toThrow();
    expect(() => compileCel('size(self.a)')).toThrow(/bool/);
  });

  it('short names and printer columns help kubectl get', () => {
    const byKind = Object.fromEntries(chartCrdDocs().map((d) => [(d.object.spec as { names: { kind: string } }).names.kind, d.object.spec as { names: { shortNames?: string[] }; versions: { additionalPrinterColumns: { name: string }[] }[] }]));
    expect(byKind.ModelConfig!.names.shortNames).toEqual(['mc']);
    expect(byKind.RemoteMCPServer!.names.shortNames).toEqual(['rmcps']);
    expect(byKind.AgentHarness!.names.shortNames).toEqual(['ahr']);
    expect(byKind.ModelProviderConfig!.names.shortNames).toEqual(['mprov']);
    expect(byKind.Agent!.versions[0]!.additionalPrinterColumns.map((c) => c.name)).toEqual(['Type', 'Runtime', 'Ready', 'Accepted']);
  });
});

describe('agentplat crds', () => {
  it('prints the seven CRDs, each after --- and a # Source line, byte-identical across runs', async () => {
    const a = await runInProcess(['crds']);
    const b = await runInProcess(['crds', '-o', 'yaml']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const docs = parseAllDocuments(a.stdout) as unknown as { errors: unknown[]; toJS(): { metadata: { name: string } } }[];
    expect(docs.map((d) => d.errors.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(docs.map((d) => d.toJS().metadata.name)).toEqual(all().map((d) => d.object.metadata.name));
    expect(a.stdout.split('\n').filter((l) => l.startsWith('# Source: '))).toHaveLength(7);
    expect(a.stdout).not.toMatch(/[&*]a\d+/);
  });
  it('-o json prints the same objects as one v1 List (like render -o json)', async () => {
    const io = await runInProcess(['crds', '-o', 'json']);
    expect(io.code).toBe(0);
    const list = JSON.parse(io.stdout) as { apiVersion: string; kind: string; items: unknown[] };
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(list.items).toEqual(JSON.parse(JSON.stringify(all().map((d) => d.object))));
  });
  it('a bad -o is a usage error (exit 2)', async () => {
    const io = await runInProcess(['crds', '-o', 'xml']);
    expect(io.code).toBe(2);
  });
});

describe('agentplat validate', () => {
  it('every fixtures/resources/*.yaml validates clean (glob expanded by agentplat)', async () => {
    const io = await runInProcess(['validate', 'fixtures/resources/*.yaml', '--verbose']);
    const code = io.code;
    const files = readdirSync('fixtures/resources').filter((f) => f.endsWith('.yaml')).length;
    expect(files).toBeGreaterThanOrEqual(7);
    expect(io.stdout).toBe(`${files} files, 0 errors, 0 warnings\n`);
    expect(code).toBe(0);
    expect(io.stderr).toMatch(/^validate: checked 11 resources \(Agent \d+, .*ModelConfig \d+.*\)\n$/);
  });

  it('crd/unknown-version: another version of our group names the served one', async () => {
    const y = doc('Agent', '  declarative: {}\n').replace('v1alpha2', 'v1alpha1');
    const r = await validateYaml(y);
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-version', line: 1, column: 1 }]);
    expect(r.problems[0]!.message).toContain('agentplat.dev/v1alpha2');
  });

  it('crd/unknown-kind: suggests the closest kind', async () => {
    const r = await validateYaml(doc('ModelConfg', '  model: m\n'));
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-kind', line: 2, column: 1, hint: expect.stringContaining('ModelConfig') }]);
  });

  it('crd/unknown-field: an unknown field is an error with a did-you-mean hint at its key', async () => {
    const r = await validateYaml(doc('ModelConfig', '  model: m\n  provder: ProviderA\n'));
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.provder', line: 8, column: 3, hint: 'did you mean provider?' }]);
  });

  it('crd/schema: enum, type and required errors point at the field', async () => {
    const r = await validateYaml(doc('ModelConfig', '  model: m\n  provider: ProviderZ\n  providerB:\n    maxTokens: many\n'));
    expect(r.problems.map((p) => [p.rule, p.path, p.line, p.column])).toEqual([
      ['crd/schema', 'spec.provider', 8, 3],
      // the CEL rules still run, as on the API server: providerB needs provider ProviderB
      ['crd/cel', 'spec.providerB', 9, 3],
      ['crd/schema', 'spec.providerB.maxTokens', 10, 5],
    ]);
    const m = await validateYaml(doc('RemoteMCPServer', '  url: https://x\n'));
    expect(m.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.description', line: 6, column: 1 }]);
  });

  it('defaults are applied before validation, as the API server does', async () => {
    // type defaults to Declarative, so a declarative block alone is a valid agent.
    expect((await validateYaml(doc('Agent', '  declarative: {}\n'))).problems).toEqual([]);
  });

  it('documents of other groups are skipped with a note naming their kinds, one line each with --verbose', async () => {
    const y = `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: c\n---\n${doc('ModelConfig', '  model: m\n')}`;
    const quiet = await validateYaml(y);
    expect(quiet.code).toBe(0);
    expect(quiet.problems).toEqual([]);
    expect(quiet.err).toBe('validate: checked 1 resource (ModelConfig 1); not checked, no schema: 1 (example.com/v1 Widget 1)\n');
    const loud = await validateYaml(y, ['--verbose']);
    expect(loud.err).toMatch(/<stdin>:1: skipped Widget c \(agentplat has no schema of example\.com\/v1 Widget\)/);
  });

  it('crd/yaml-syntax and crd/missing-kind are errors with a position', async () => {
    const bad = await validateYaml('apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nspec: [unclosed\n');
    expect(bad.code).toBe(1);
    expect(bad.problems[0]).toMatchObject({ rule: 'crd/yaml-syntax', file: '<stdin>', line: 3, column: 7 });
    const nokind = await validateYaml('apiVersion: agentplat.dev/v1alpha2\nmetadata:\n  name: x\n');
    expect(nokind.problems).toMatchObject([{ rule: 'crd/missing-kind', line: 1, column: 1 }]);
  });

  it('crd/yaml-syntax: a duplicate key names the key, at the second one', async () => {
    const r = await validateYaml('apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nkind: Agent\n');
    expect(r.problems).toMatchObject([{ rule: 'crd/yaml-syntax', line: 3, column: 1, message: 'duplicate key "kind": it appears twice in the same map' }]);
  });

  it('crd/yaml-syntax: a nesting bomb is one problem, not one per level', async () => {
    const r = await validateYaml(`a: ${'['.repeat(20000)}${']'.repeat(20000)}\n`);
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/yaml-syntax', line: 1, message: 'invalid YAML: the document nests too deeply to be read' }]);
  });

  it('text format is lint\'s: file:line:col  severity  message  [rule], the hint, the line under a caret, the summary', async () => {
    const io = await runInProcess(['validate', '-'], { stdin: doc('ModelConfig', '  model: m\n  provder: x\n') });
    expect(io.code).toBe(1);
    expect(io.stdout).toBe(
      '<stdin>:8:3  error  ModelConfig sample: unknown field spec.provder  [crd/unknown-field]\n' +
        '  hint: did you mean provider?\n' +
        '  8 |   provder: x\n' +
        '    |   ^\n' +
        '\n' +
        '1 file, 1 error, 0 warnings\n',
    );
  });

  it('json format is lint\'s contract: files with counts, every input listed, a summary', async () => {
    const io = await runInProcess(['validate', 'fixtures/resources/agent-byo.yaml', 'fixtures/resources/modelconfigs.yaml', '--format', 'json']);
    expect(io.code).toBe(0);
    const out = JSON.parse(io.stdout) as { version: number; tool: { name: string }; files: { file: string; errors: number; problems: unknown[] }[]; summary: unknown };
    expect(out.version).toBe(1);
    expect(out.tool.name).toBe('agentplat');
    expect(out.files.map((f) => [f.file, f.errors, f.problems.length])).toEqual([
      ['fixtures/resources/agent-byo.yaml', 0, 0],
      ['fixtures/resources/modelconfigs.yaml', 0, 0],
    ]);
    expect(out.summary).toEqual({ files: 2, errors: 0, warnings: 0, infos: 0 });
  });

  it('a directory argument validates every *.yaml and *.yml below it, sorted, hidden entries left out', async () => {
    const dir = tempDir('agentplat-validate-dir-');
    mkdirSync(join(dir, 'res', 'b'), { recursive: true });
    mkdirSync(join(dir, 'res', '.git'));
    writeFileSync(join(dir, 'res', 'b', 'z.yml'), doc('ModelConfig', '  model: m\n  bogus: 1\n'));
    writeFileSync(join(dir, 'res', 'a.yaml'), doc('ModelConfig', '  model: m\n'));
    writeFileSync(join(dir, 'res', 'notes.txt'), 'not yaml: [');
    writeFileSync(join(dir, 'res', '.git', 'x.yaml'), 'not yaml: [');
    const io = await runInProcess(['validate', 'res', '--format', 'json'], { cwd: dir });
    expect(io.code).toBe(1);
    const out = JSON.parse(io.stdout) as { files: { file: string; errors: number }[] };
    expect(out.files.map((f) => [f.file, f.errors])).toEqual([
      ['res/a.yaml', 0],
      ['res/b/z.yml', 1],
    ]);
  });

  it('a directory with no resource file is a usage error that says so (not a values-file hint)', async () => {
    const dir = tempDir('agentplat-validate-empty-');
    mkdirSync(join(dir, 'empty'));
    const io = await runInProcess(['validate', 'empty'], { cwd: dir });
    expect(io.code).toBe(2);
    expect(io.stderr).toBe('agentplat: empty: no .yaml or .yml file in this directory\n  hint: validate reads resource files ending in .yaml or .yml, in sub-directories too\n');
  });

  it('usage errors exit 2: no files, missing file, unmatched glob, bad --format', async () => {
    expect((await runInProcess(['validate'])).code).toBe(2);
    expect((await runInProcess(['validate', 'does-not-exist.yaml'])).code).toBe(2);
    expect((await runInProcess(['validate', 'fixtures/resources/*.nope'])).code).toBe(2);
    expect((await runInProcess(['validate', '-', '--format', 'xml'])).code).toBe(2);
  });

  it('expands ** through sub-directories', async () => {
    const dir = tempDir('agentplat-validate-');
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'mc.yaml'), doc('ModelConfig', '  model: m\n  bogus: 1\n'));
    writeFileSync(join(dir, 'top.yaml'), doc('ModelConfig', '  model: m\n'));
    const io = await runInProcess(['validate', '**/*.yaml', '--format', 'json'], { cwd: dir });
    expect(io.code).toBe(1);
    const out = JSON.parse(io.stdout) as { files: { file: string; errors: number }[] };
    expect(out.files.map((f) => [f.file, f.errors])).toEqual([
      ['a/b/mc.yaml', 1],
      ['top.yaml', 0],
    ]);
  });
});
