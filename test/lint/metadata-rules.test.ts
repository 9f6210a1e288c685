// Labels and annotations that reach objects are held to the API server's rules where the user
// wrote them (values/metadata), and every rendered object's metadata is checked once more before
// anything is printed (render/object-name), so `kubectl apply` never refuses half a release.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { runInProcess } from '../cli/in-process.ts';

function metadataProblems(revision: Revision, yaml: string) {
  const src = parseValuesText(yaml, 'v.yaml').source!;
  return lintValues({ revision, layers: [src] }).problems.filter((p) => p.rule === 'values/metadata');
}

describe('values/metadata: label and annotation maps in values', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] a podLabels key with a space is an error at that key, naming the rule`, () => {
      const hits = metadataProblems(revision, 'podLabels:\n  "bad label!": x\n');
      expect(hits).toMatchObject([{ severity: 'error', path: 'podLabels.bad label!', line: 2, column: 3 }]);
      expect(hits[0]!.message).toMatch(/not a valid label key/);
    });
  }

  it('a label value over 63 characters is an error at its key', () => {
    const hits = metadataProblems('B', `labels:\n  team: ${'v'.repeat(64)}\n`);
    expect(hits).toMatchObject([{ path: 'labels.team', line: 2, column: 3 }]);
    expect(hits[0]!.message).toMatch(/not a valid label value/);
  });

  it("a sub-chart's nodeSelector is held to the label rules too", () => {
    expect(metadataProblems('B', "agentplat-tools:\n  nodeSelector:\n    'kubernetes.io/os/x': linux\n")).toHaveLength(1);
  });

  it('an annotation key with two slashes is an error; a prefixed key with capitals in its name is fine', () => {
    expect(metadataProblems('B', 'podAnnotations:\n  a/b/c: x\n')).toHaveLength(1);
    expect(metadataProblems('B', 'podAnnotations:\n  example.com/Owner: x\n')).toEqual([]);
  });

  it('annotations over 256 KiB are an error at the map', () => {
    const hits = metadataProblems('B', `podAnnotations:\n  note: ${'x'.repeat(256 * 1024)}\n`);
    expect(hits).toMatchObject([{ path: 'podAnnotations', line: 1, column: 1 }]);
  });

  it('the defaults of both revisions pass', () => {
    expect(metadataProblems('A', '{}\n')).toEqual([]);
    expect(metadataProblems('B', '{}\n')).toEqual([]);
  });
});

describe('render: metadata of every rendered object is checked before output', () => {
  it('an extraObject with a label the API server refuses fails the render with nothing on stdout', async () => {
    const values = 'extraObjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: x\n      labels:\n        "bad key!": y\n';
    const r = await runInProcess(['render', '-f', '-', '--skip-crds'], { stdin: values });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/ConfigMap "x" .*label key "bad key!" is not valid.*\[render\/object-name\]/);
  });
});

describe('values/metadata walks only the maps it has not walked: values that share maps (explain\'s value sets) cost only what differs', () => {
  it('a map shared by two values trees is walked once, and its findings are reported for both', async () => {
    const { metadataRules } = await import('../../src/lint/rules/names.ts');
    let listed = 0;
    // A map holding a bad label, shared by both trees, counting how often its keys are listed.
    const shared = new Proxy({ podLabels: { 'bad label!': 'x' }, image: { tag: '1' } } as Record<string, unknown>, {
      ownKeys(t) {
        listed++;
        return Reflect.ownKeys(t);
      },
    });
    const run = (values: Record<string, unknown>) => {
      const found: string[] = [];
      metadataRules.check({ revision: 'B', values, userSet: () => true, report: (f) => void found.push(`${String(f.path)} ${f.message}`) });
      return found;
    };
    const first = run({ controller: shared, replicas: 1 });
    const second = run({ controller: shared, replicas: 2, ui: { labels: { ok: 'yes' } } });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^controller,podLabels,bad label! .*not a valid label key/);
    expect(second).toEqual(first);
    expect(listed).toBe(1);
  });
});
