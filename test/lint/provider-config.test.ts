// Provider blocks' `config` and `tls` (issue 27 item 2): the fields of the provider's config in the
// ModelConfig (Resource API 2.12) land in the default ModelConfig's spec.provider<X> and spec.tls,
// and a wrong value is refused at values time with the message `agentplat validate` gives for the
// rendered ModelConfig, at the line:column where the user wrote it (a file or a --set flag).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { dataSource, parseValuesText } from '../../src/values/source.ts';
import { requiredConfig } from '../../src/lint/rules/providers.ts';
import { ModelConfigSpec } from '../../src/crds/model.ts';
import { validateCustomResources } from '../../src/kube-check/validate.ts';
import { get, render } from '../render/_render.ts';
import { runInProcess } from '../cli/in-process.ts';
import type { Revision } from '../../src/chart/revisions.ts';
// Provider config and tls are checked by validate's code, which a run loads only when needed: loaded here, as the commands load it.
import { checkModelConfig } from '../helpers/load-crd-check.ts';

const lint = (revision: Revision, text: string) => lintValues({ checkModelConfig, revision, layers: [parseValuesText(text, 'v.yaml').source!] }).problems;

/** One config field per block, from the Resource API's table of provider config fields. */
const BLOCKS: { block: string; revisions: Revision[]; config: Record<string, unknown> }[] = [
  { block: 'providerA', revisions: ['A', 'B'], config: { baseUrl: 'https://gw.example/a', topK: 5 } },
  { block: 'providerB', revisions: ['A', 'B'], config: { baseUrl: 'https://gw.example/v1', maxCompletionTokens: 4096, apiFormat: 'responses' } },
  { block: 'providerC', revisions: ['A', 'B'], config: { azureEndpoint: 'https://c.example', maxTokens: 100 } },
  { block: 'providerD', revisions: ['A', 'B'], config: { host: 'runtime:11434' } },
  { block: 'providerE', revisions: ['A', 'B'], config: { maxOutputTokens: 2048 } },
  { block: 'providerH', revisions: ['B'], config: { region: 'eu-west-1', promptCaching: true } },
];

describe('providers.<block>.config renders into the default ModelConfig', () => {
  for (const { block, revisions, config } of BLOCKS) {
    for (const revision of revisions) {
      it(`${revision}: ${block}.config lands in spec.${block} when ${block} is the default block, and nowhere else`, () => {
        const values = { providers: { default: block, [block]: { config } } };
        expect(lint(revision, stringify(values)).filter((p) => p.severity === 'error')).toEqual([]);
        const spec = get(render(revision, values), 'ModelConfig', 'default-model-config').spec;
        expect(spec[block]).toMatchObject(config);
        // Only the selected block's config is rendered.
        expect(Object.keys(spec).filter((k) => /^provider[A-J]$/.test(k))).toEqual([block]);
      });
    }
  }

  it("a block's config is not rendered while another block is the default", () => {
    const spec = get(render('B', { providers: { providerA: { config: { baseUrl: 'https://a' } } } }), 'ModelConfig', 'default-model-config').spec;
    expect(spec.providerA).toBeUndefined();
    expect(spec.providerB).toBeUndefined();
  });

  it('providers.<block>.tls lands in spec.tls of the default ModelConfig', () => {
    const tls = { caCertSecretRef: 'gateway-ca', caCertSecretKey: 'ca.crt', disableSystemCAs: true };
    const spec = get(render('B', { providers: { providerB: { tls } } }), 'ModelConfig', 'default-model-config').spec;
    expect(spec.tls).toEqual(tls);
  });

  it('the defaults of every block pass the ModelConfig CRD (so lint checks only what the user wrote)', () => {
    for (const revision of ['A', 'B'] as const) {
      for (const { block, revisions } of BLOCKS) {
        if (!revisions.includes(revision)) continue;
        const spec = get(render(revision, { providers: { default: block } }), 'ModelConfig', 'default-model-config').spec;
        const text = stringify({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'default-model-config' }, spec });
        expect(validateCustomResources([{ file: 'm.yaml', text }]).problems, `${revision} ${block}`).toEqual([]);
      }
    }
  });
});

/** What validate says about the ModelConfig these values would render (written out by hand). */
function validateMessages(block: string, provider: string, fields: Record<string, unknown>): string[] {
  const text = stringify({
    apiVersion: 'agentplat.dev/v1alpha2',
    kind: 'ModelConfig',
    metadata: { name: 'default-model-config' },
    spec: { provider, model: 'm', apiKeySecret: 's', apiKeySecretKey: 'K', defaultHeaders: {}, ...fields },
  });
  return validateCustomResources([{ file: 'm.yaml', text }]).problems.map((p) => p.message);
}

const WRONG: { name: string; revision: Revision; values: string; crd: Record<string, unknown>; provider: string; block: string; at: { path: string; line: number; column: number }[] }[] = [
  {
    name: 'a wrong type in providers.providerB.config',
    revision: 'B',
    block: 'providerB',
    provider: 'ProviderB',
    values: 'providers:\n  providerB:\n    model: m\n    apiKeySecretRef: s\n    apiKeySecretKey: K\n    config:\n      maxTokens: many\n',
    crd: { providerB: { maxTokens: 'many' } },
    at: [{ path: 'providers.providerB.config.maxTokens', line: 7, column: 7 }],
  },
  {
    name: 'a broken CEL rule in providers.providerB.config (maxTokens with maxCompletionTokens)',
    revision: 'A',
    block: 'providerB',
    provider: 'ProviderB',
    values: 'providers:\n  providerB:\n    model: m\n    apiKeySecretRef: s\n    apiKeySecretKey: K\n    config:\n      maxTokens: 10\n      maxCompletionTokens: 10\n',
    crd: { providerB: { maxTokens: 10, maxCompletionTokens: 10 } },
    at: [{ path: 'providers.providerB.config.maxCompletionTokens', line: 8, column: 7 }],
  },
  {
    name: 'a value out of range and an unknown enum word in providers.providerH.config',
    revision: 'B',
    block: 'providerH',
    provider: 'ProviderH',
    values: 'providers:\n  default: providerH\n  providerH:\n    model: m\n    apiKeySecretRef: s\n    apiKeySecretKey: K\n    config:\n      region: r\n      cacheTTL: 2h\n      readTimeout: 0\n',
    crd: { providerH: { region: 'r', cacheTTL: '2h', readTimeout: 0 } },
    at: [
      { path: 'providers.providerH.config.cacheTTL', line: 9, column: 7 },
      { path: 'providers.providerH.config.readTimeout', line: 10, column: 7 },
    ],
  },
  {
    name: 'an unknown field in providers.providerE.config',
    revision: 'A',
    block: 'providerE',
    provider: 'ProviderE',
    values: 'providers:\n  providerE:\n    model: m\n    apiKeySecretRef: s\n    apiKeySecretKey: K\n    config:\n      maxOutputToken: 5\n',
    crd: { providerE: { maxOutputToken: 5 } },
    at: [{ path: 'providers.providerE.config.maxOutputToken', line: 7, column: 7 }],
  },
  {
    name: 'a broken CEL rule in providers.providerA.tls (CA secret without its key)',
    revision: 'B',
    block: 'providerA',
    provider: 'ProviderA',
    values: 'providers:\n  providerA:\n    model: m\n    apiKeySecretRef: s\n    apiKeySecretKey: K\n    tls:\n      caCertSecretRef: ca\n',
    crd: { tls: { caCertSecretRef: 'ca' } },
    at: [{ path: 'providers.providerA.tls.caCertSecretRef', line: 7, column: 7 }],
  },
];

describe("a wrong value in a block's config or tls gets validate's error at the values file's line:column", () => {
  for (const c of WRONG) {
    it(c.name, () => {
      const found = lint(c.revision, c.values).filter((p) => p.severity === 'error');
      expect(found.map((p) => p.rule)).toEqual(c.at.map(() => 'values/provider-modelconfig'));
      expect(found.map((p) => p.message)).toEqual(validateMessages(c.block, c.provider, c.crd));
      expect(found.map((p) => ({ path: p.path, line: p.line, column: p.column, file: p.file }))).toEqual(c.at.map((a) => ({ ...a, file: 'v.yaml' })));
    });
  }

  it('the same error through --set, pointing into the flag', async () => {
    const r = await runInProcess(['lint', '-r', 'B', '--set', 'providers.providerB.config.maxTokens=0']);
    expect(r.code).toBe(1);
    const [message] = validateMessages('providerB', 'ProviderB', { providerB: { maxTokens: 0 } });
    expect(r.stdout).toContain(`--set #1:1:1  error  ${message}  [values/provider-modelconfig]`);
  });

  it('a block whose provider does not match its config is reported once, by values/provider-block-mismatch', () => {
    const found = lint('B', 'providers:\n  providerA:\n    provider: ProviderB\n    config:\n      topK: x\n').filter((p) => p.severity === 'error');
    expect(found.map((p) => p.rule)).toEqual(['values/provider-block-mismatch']);
  });
});

describe('values/provider-required-config asks for what the ModelConfig CRD requires', () => {
  it('for every provider the CRD model knows, the required config fields are those of its spec.provider<X> block (requiredConfig reads them from the CRD)', () => {
    const providers = ModelConfigSpec.properties!.provider!.enum as string[];
    expect(providers.length).toBeGreaterThan(5);
    let some = 0;
    for (const provider of providers) {
      const required = ModelConfigSpec.properties![`provider${provider.slice(-1)}`]?.required ?? [];
      some += required.length;
      expect(requiredConfig(provider), provider).toEqual(required);
      const found = lintValues({ checkModelConfig, revision: 'B', layers: [dataSource('v.yaml', { providers: { default: 'providerA', providerA: { provider } } })] }).problems.filter((p) => p.rule === 'values/provider-required-config');
      expect(found.map((p) => p.path).sort(), provider).toEqual(required.map((f) => `providers.providerA.config.${f}`).sort());
    }
    expect(some).toBeGreaterThan(0);
    // a name the CRD does not have (own properties only) requires nothing
    expect(requiredConfig('ProviderZ')).toEqual([]);
    expect(requiredConfig('constructor')).toEqual([]);
  });
});
