// What `validate` must not pass silently (issue: "nothing checked is not a pass"): Lists are
// unpacked item by item, a near miss of the agentplat.dev group is an error, a run that checked
// nothing fails, kinds without a schema are an error under --strict, and metadata is held to the
// API server's rules.
import { describe, expect, it } from 'vitest';
import { validateYaml } from './helpers.ts';
import { runInProcess } from '../cli/in-process.ts';

const model = (name: string, extra = '') =>
  `apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  name: ${name}\n${extra}spec:\n  model: m\n  provider: ProviderB\n`;
const indent = (text: string, by: string) => text.trimEnd().split('\n').map((l, i) => (i === 0 ? l : by + l)).join('\n');

describe('validate: kind List and *List are unpacked', () => {
  it('each item of a List is checked and a fault is placed at its own line and column', async () => {
    const y = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      `- ${indent(model('good'), '  ')}`,
      `- ${indent(model('bad'), '  ').replace('provider: ProviderB', 'provider: NotAProvider')}`,
      '',
    ].join('\n');
    const line = y.split('\n').findIndex((l) => l.includes('NotAProvider')) + 1;
    const r = await validateYaml(y, ['--verbose']);
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.provider', line, column: 5 }]);
    expect(r.err).toContain('validate: checked 2 resources (ModelConfig 2)');
  });

  it('a typed list (AgentList, as kubectl get agents -o yaml writes) is unpacked too, and an empty one checks nothing', async () => {
    const y = `apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfigList\nitems:\n- ${indent(model('one'), '  ')}\n`;
    const r = await validateYaml(y, ['--verbose']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('checked 1 resource (ModelConfig 1)');
    const empty = await validateYaml('apiVersion: v1\nkind: List\nitems: []\n');
    expect(empty.code).toBe(1);
    expect(empty.problems).toMatchObject([{ rule: 'crd/nothing-checked' }]);
  });

  it('render -o json piped into validate checks the platform objects of the List', async () => {
    const rendered = await runInProcess(['render', '-o', 'json']);
    expect(rendered.code).toBe(0);
    const r = await validateYaml(rendered.stdout, ['--verbose']);
    expect(r.code).toBe(0);
    expect(r.problems).toEqual([]);
    // Core kinds are checked too, and counted by kind.
    expect(r.err).toMatch(/checked \d+ resources \(.*ConfigMap \d+.*Deployment \d+.*ModelConfig 1, .*RemoteMCPServer \d+.*Service \d+/);
  });
});

describe('validate: nothing checked is not a pass', () => {
  it('empty standard input fails with crd/nothing-checked; --allow-empty lets it pass', async () => {
    const r = await validateYaml('');
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/nothing-checked', severity: 'error', file: '<stdin>' }]);
    const allowed = await validateYaml('', ['--allow-empty']);
    expect(allowed.code).toBe(0);
    expect(allowed.problems).toEqual([]);
  });

  it('a stream of kinds agentplat has no schema for fails, naming those kinds', async () => {
    const r = await validateYaml('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: d\n');
    expect(r.code).toBe(1);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.message).toContain('example.com/v1 Widget');
  });

  it('an apiVersion whose group is a near miss of agentplat.dev is an error with a did-you-mean, not a skipped document', async () => {
    const r = await validateYaml(model('x').replace('agentplat.dev/v1alpha2', 'agentplat.io/v1alpha2'));
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-group', line: 1, column: 1, hint: 'did you mean agentplat.dev/v1alpha2?' }]);
    const typo = await validateYaml(model('x').replace('agentplat.dev/v1alpha2', 'agentplat.dve/v1alpha2'));
    expect(typo.problems).toMatchObject([{ rule: 'crd/unknown-group' }]);
  });

  it('the message that nothing was checked counts the objects and their kinds in the right number', async () => {
    const widget = (name: string, kind = 'Widget') => `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n`;
    const one = await validateYaml(widget('a'));
    expect(one.problems[0]!.message).toBe('no resource was checked: the one object of the input is of a kind agentplat has no schema for (example.com/v1 Widget)');
    const twoOfOne = await validateYaml(`${widget('a')}---\n${widget('b')}`);
    expect(twoOfOne.problems[0]!.message).toBe('no resource was checked: the 2 objects of the input are of a kind agentplat has no schema for (example.com/v1 Widget)');
    const twoKinds = await validateYaml(`${widget('a')}---\n${widget('b', 'Gadget')}`);
    expect(twoKinds.problems[0]!.message).toBe(
      'no resource was checked: the 2 objects of the input are of kinds agentplat has no schema for (example.com/v1 Gadget, example.com/v1 Widget)',
    );
  });

  it('--strict makes each kind without a schema an error at its first document', async () => {
    const y = `${model('m')}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: c\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: d\n`;
    expect((await validateYaml(y)).code).toBe(0);
    const r = await validateYaml(y, ['--strict']);
    expect(r.code).toBe(1);
    const first = y.split('\n').indexOf('kind: Widget'); // 0-based index of the kind line: its apiVersion line is the 1-based one
    expect(r.problems).toMatchObject([{ rule: 'crd/no-schema', line: first, column: 1 }]);
    expect(r.problems[0]!.message).toContain('2 objects');
  });
});

describe("validate: metadata is held to the API server's rules", () => {
  it.each([
    ['a name that is not a DNS-1123 subdomain', 'name', 'My_Model.Config', '', 'metadata.name'],
    ['a namespace that is not a DNS-1123 label', 'namespace', 'Team_A', '  namespace: Team_A\n', 'metadata.namespace'],
    ['a label key with spaces', 'label key', 'bad label!', '  labels:\n    "bad label!": x\n', 'metadata.labels["bad label!"]'],
    ['a label value over 63 characters', 'label value', 'v'.repeat(64), `  labels:\n    team: ${'v'.repeat(64)}\n`, 'metadata.labels.team'],
    ['an annotation key with two slashes', 'annotation key', 'a/b/c', '  annotations:\n    a/b/c: x\n', 'metadata.annotations["a/b/c"]'],
    ['an owner reference without uid', 'owner', 'uid', '  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: c}\n', 'metadata.ownerReferences[0].uid'],
  ])('%s is crd/metadata at that field', async (_what, _field, _value, extra, path) => {
    const name = _field === 'name' ? 'My_Model.Config' : 'ok';
    const r = await validateYaml(model(name, extra));
    expect(r.code).toBe(1);
    expect(r.problems.map((p) => [p.rule, p.path])).toEqual([['crd/metadata', path]]);
  });

  it('annotations over 256 KiB in total are refused; just under passes', async () => {
    const over = await validateYaml(model('big', `  annotations:\n    note: ${'x'.repeat(256 * 1024)}\n`));
    expect(over.problems).toMatchObject([{ rule: 'crd/metadata', path: 'metadata.annotations' }]);
    const under = await validateYaml(model('big', `  annotations:\n    note: ${'x'.repeat(256 * 1024 - 4)}\n`));
    expect(under.problems).toEqual([]);
  });

  it('a generateName ending in "-" is fine; one with capitals is not', async () => {
    const ok = await validateYaml(model('x').replace('  name: x\n', '  generateName: run-\n'));
    expect(ok.problems).toEqual([]);
    const bad = await validateYaml(model('x').replace('  name: x\n', '  generateName: Run-\n'));
    expect(bad.problems).toMatchObject([{ rule: 'crd/metadata', path: 'metadata.generateName' }]);
  });
});
