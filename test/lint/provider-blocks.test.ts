// providers-per-revision: the provider blocks are fixed per revision by the values document's
// section 2.8; revision B's additional hosted provider (providerH) is a B-only key like any other.
import { expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';
// Provider config and tls are checked by validate's code, which a run loads only when needed: loaded here, as the commands load it.
import { checkModelConfig } from '../helpers/load-crd-check.ts';

const yaml = 'providers:\n  providerH:\n    provider: ProviderH\n    model: m\n    config:\n      region: eu-west-1\n';

it('providers-per-revision: providers.providerH is an unknown key in revision A whose hint names revision B', () => {
  const src = parseValuesText(yaml, 'v.yaml').source!;
  const hits = lintValues({ checkModelConfig, revision: 'A', layers: [src] }).problems.filter((p) => p.rule === 'values/unknown-key');
  expect(hits).toHaveLength(1);
  expect(hits[0]).toMatchObject({ severity: 'error', path: 'providers.providerH', file: 'v.yaml', line: 2, column: 3 });
  expect(hits[0]!.hint).toMatch(/only in revision B/);
});

it('providers-per-revision: revision B accepts providers.providerH', () => {
  const src = parseValuesText(yaml, 'v.yaml').source!;
  expect(lintValues({ checkModelConfig, revision: 'B', layers: [src] }).problems.filter((p) => p.severity === 'error')).toEqual([]);
});

it('providers-per-revision: a block the document does not list is unknown in both revisions', () => {
  const src = parseValuesText('providers:\n  providerF:\n    provider: ProviderF\n    model: m\n', 'v.yaml').source!;
  for (const revision of ['A', 'B'] as const) {
    expect(lintValues({ checkModelConfig, revision, layers: [src] }).problems.filter((p) => p.rule === 'values/unknown-key').map((p) => p.path)).toEqual(['providers.providerF']);
  }
});
