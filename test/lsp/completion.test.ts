// Completion in a values file as it is being typed (the text need not parse): which map the cursor
// writes into is read from the indentation of the lines above, through lists, and what may be
// written there comes from the revision's values schema.
import { describe, expect, it } from 'vitest';
import { completionsAt } from '../../src/lsp/features.ts';

/** Completions where `|` stands in the text. */
const at = (text: string, revision: 'A' | 'B' = 'B') => completionsAt(text.replace('|', ''), text.indexOf('|'), revision);
const labels = (text: string, revision: 'A' | 'B' = 'B') => at(text, revision).map((c) => c.label);

describe('completion in a values file', () => {
  it('the top-level keys, the sub-charts among them', () => {
    expect(labels('|')).toEqual(expect.arrayContaining(['controller', 'ui', 'mcpop', 'agentplat-tools']));
  });

  it("a sub-chart's own keys under it", () => {
    expect(labels('mcpop:\n  |')).toEqual(expect.arrayContaining(['image', 'controller', 'rbac']));
  });

  it('the fields of a list item: under a dash, and on the lines after its first key', () => {
    const fields = ['effect', 'key', 'operator', 'tolerationSeconds', 'value'];
    expect(labels('controller:\n  tolerations:\n    - |')).toEqual(expect.arrayContaining(fields));
    const next = labels('controller:\n  tolerations:\n    - key: dedicated\n      |');
    expect(next).toEqual(expect.arrayContaining(['effect', 'operator']));
    expect(next).not.toContain('key');
  });

  it('a list at the indentation of its key (YAML allows it)', () => {
    expect(labels('controller:\n  env:\n  - name: X\n    |')).toEqual(expect.arrayContaining(['value', 'valueFrom']));
  });

  it('the words of an enum key, the default marked in the documentation', () => {
    const words = at('controller:\n  service:\n    type: |');
    expect(words.map((w) => w.label)).toEqual(expect.arrayContaining(['ClusterIP', 'NodePort', 'LoadBalancer']));
    expect(words.find((w) => w.label === 'ClusterIP')!.documentation).toMatch(/^the default; /);
  });

  it('a list key inserts an example item to fill in; a key of a revision only in that revision', () => {
    const tolerations = at('controller:\n  |').find((c) => c.label === 'tolerations')!;
    expect(tolerations.snippet).toBe('tolerations:\n  - key: example-value\n    operator: Exists\n    effect: NoSchedule$0');
    expect(labels('controller:\n  |', 'A')).toContain('toolRefreshInterval');
    expect(labels('controller:\n  |', 'B')).not.toContain('toolRefreshInterval');
  });

  it('nothing under a key the schema does not know', () => {
    expect(labels('controler:\n  |')).toEqual([]);
  });
});
