// The pieces of `agentplat diff` that decide what is shown: the line diff and its hunks, the field
// changes of two objects, and the masking of secrets on both sides together.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, hunks } from '../../src/diff/lines.ts';
import { masker } from '../../src/diff/mask.ts';
import { compareObjects, fieldChanges } from '../../src/diff/objects.ts';

const line = fc.constantFrom('a', 'b', 'c', 'd', '  e: 1');

describe('line diff', () => {
  it('keeps every line of both sides, in order: the old side is the kept and removed lines, the new side the kept and added ones', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 40 }), (a, b) => {
        const d = diffLines(a, b);
        expect(d.filter((l) => l.op !== '+').map((l) => l.text)).toEqual(a);
        expect(d.filter((l) => l.op !== '-').map((l) => l.text)).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('two texts too different to search fully still give a correct diff (shown as replaced)', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? `a${i}` : `b${i}`));
    const d = diffLines(a, b);
    expect(d.filter((l) => l.op !== '+').map((l) => l.text)).toEqual(a);
    expect(d.filter((l) => l.op !== '-').map((l) => l.text)).toEqual(b);
  });

  it('is minimal on a one-line change: one removal and one addition', () => {
    const d = diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']);
    expect(d.filter((l) => l.op !== ' ')).toEqual([
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
    ]);
  });

  it('hunks count their lines as unified diffs do, and changes closer than twice the context share one hunk', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const b = a.map((l, i) => (i === 5 || i === 11 ? `${l}!` : l));
    const near = hunks(diffLines(a, b), 3);
    expect(near).toHaveLength(1);
    expect(near[0]).toMatchObject({ oldStart: 3, oldLines: 13, newStart: 3, newLines: 13 });
    expect(hunks(diffLines(a, b), 2)).toHaveLength(2);
  });
});

describe('field changes', () => {
  it('lists of named entries are compared by name, so an inserted container changes only itself', () => {
    const a = { spec: { containers: [{ name: 'app', image: 'a:1' }] } };
    const b = { spec: { containers: [{ name: 'sidecar', image: 's:1' }, { name: 'app', image: 'a:2' }] } };
    expect(fieldChanges(a, b)).toEqual([
      { path: 'spec.containers[name=app].image', op: 'replace', from: 'a:1', to: 'a:2' },
      { path: 'spec.containers[name=sidecar]', op: 'add', to: { name: 'sidecar', image: 's:1' } },
    ]);
  });

  it('the same named entries in another order are a change of the list (env entries may refer to earlier ones)', () => {
    const env = [{ name: 'A', value: '1' }, { name: 'B', value: '$(A)' }];
    expect(fieldChanges({ env }, { env: [...env].reverse() })).toEqual([{ path: 'env', op: 'replace', from: env, to: [...env].reverse() }]);
  });

  it('keys that are not plain words are quoted in the path', () => {
    expect(fieldChanges({ metadata: { labels: { 'app.kubernetes.io/version': '1' } } }, { metadata: { labels: {} } })).toEqual([
      { path: 'metadata.labels["app.kubernetes.io/version"]', op: 'remove', from: '1' },
    ]);
  });

  it('objects are matched by group, kind, namespace and name, whatever their API version', () => {
    const pdb = (apiVersion: string) => ({ source: 's', object: { apiVersion, kind: 'PodDisruptionBudget', metadata: { name: 'x', namespace: 'n' } } });
    const c = compareObjects([pdb('policy/v1beta1')], [pdb('policy/v1')]);
    expect(c.changes.map((x) => x.status)).toEqual(['changed']);
  });
});

describe('masking', () => {
  const mask = masker(new Set(['hunter2hunter2']), (kind) => (kind === 'ModelConfig' ? [['spec', 'apiKey']] : undefined));

  it("a Secret's data is masked; a value that changed is marked old and new, one that did not is the mask alone", () => {
    const [a, b] = mask.pair({ group: '', kind: 'Secret' }, { data: { k: 'czE=', same: 'eA==' } }, { data: { k: 'czI=', same: 'eA==' } });
    expect(a).toEqual({ data: { k: '******** (old value)', same: '********' } });
    expect(b).toEqual({ data: { k: '******** (new value)', same: '********' } });
  });

  it('a data key of a ConfigMap is not a secret field', () => {
    expect(mask.pair({ group: '', kind: 'ConfigMap' }, { data: { k: 'v1' } }, undefined)[0]).toEqual({ data: { k: 'v1' } });
  });

  it("a secret field of a custom resource kind is masked, and the values' secrets inside any string", () => {
    const [a] = mask.pair({ group: 'agentplat.dev', kind: 'ModelConfig' }, { spec: { apiKey: 'sk-1', note: 'pw hunter2hunter2 here', url: 'postgres://u:pw12@h/db' } }, undefined);
    expect(a).toEqual({ spec: { apiKey: '********', note: 'pw ******** here', url: 'postgres://u:********@h/db' } });
  });
});
