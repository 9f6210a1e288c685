// What the API server does to a custom resource before and while validating it, which `validate`
// must do the same way (each found by the cluster suite, test/cluster, comparing both):
// - a null in a field is dropped (the field's default then applies): no field here is nullable;
// - an integer field takes whole numbers that decode into a signed 64-bit integer;
// - format `uri` is Go's url.ParseRequestURI, not RFC 3986;
// - unknown fields are the decoder's: each key of a map given where the schema has no fields.
import { describe, expect, it } from 'vitest';
import { isRequestUri } from '../../src/kube-check/formats.ts';
import { modelConfig } from './cel-cases.ts';
import { doc } from './helpers.ts';
import { validateYaml } from './helpers.ts';

const errors = async (yaml: string) => (await validateYaml(yaml)).problems.map((p) => `${p.path}: ${p.message}`);

describe('the API server drops nulls of non-nullable fields before defaulting', () => {
  it('a null optional field is as if unset', async () => {
    expect(await errors(doc('Agent', '  type: BYO\n  byo:\n    deployment:\n      image: example.com/a:1\n      cmd: null\n      labels: null\n      volumes: null\n'))).toEqual([]);
  });
  it('a null field with a default takes the default (type null is Declarative, which needs declarative)', async () => {
    expect(await errors(doc('Agent', '  type: null\n  declarative: {}\n'))).toEqual([]);
    expect(await errors(doc('Agent', '  type: null\n'))).toEqual([expect.stringMatching(/spec.declarative is required when spec.type is Declarative/)]);
  });
  it('a null required field is missing', async () => {
    expect(await errors(modelConfig('').replace('  model: m\n', '  model: null\n'))).toEqual(['spec.model: ModelConfig sample: spec.model is required']);
  });
  it('a null list item stays and is an error', async () => {
    expect(await errors(doc('Agent', '  declarative:\n    tools: [null]\n'))).toEqual([expect.stringMatching(/^spec\.declarative\.tools\[0\]: /)]);
  });
  it('a null under an unknown field stays an unknown field', async () => {
    expect(await errors(doc('Agent', '  declarative: {}\n  notInTheApi: null\n'))).toEqual([expect.stringMatching(/^spec\.notInTheApi: .*unknown field/)]);
  });
});

describe('integer fields take what decodes into a signed 64-bit integer', () => {
  it('2^53 and -2^63 are integers; 2^63 and 2^64 are not', async () => {
    const at = (n: string) => errors(modelConfig(`  providerB:\n    seed: ${n}\n`));
    expect(await at('9007199254740992')).toEqual([]);
    expect(await at('-9223372036854775808')).toEqual([]);
    expect(await at('9223372036854775808')).toEqual([expect.stringMatching(/^spec\.providerB\.seed: .*must be an integer from -2\^63 to 2\^63-1/)]);
    expect(await at('18446744073709551616')).toEqual([expect.stringMatching(/^spec\.providerB\.seed: .*must be an integer from -2\^63 to 2\^63-1/)]);
  });
  it('a field with its own minimum keeps its own message', async () => {
    expect(await errors(modelConfig('  providerB:\n    maxTokens: 0\n'))).toEqual(['spec.providerB.maxTokens: ModelConfig sample: spec.providerB.maxTokens must be at least 1, found 0']);
  });
});

describe("format uri is Go's url.ParseRequestURI", () => {
  it.each([
    ['https://example.com/icon.png', true],
    ['/relative/but/absolute-path', true],
    ['mailto:team@example.com', true],
    ['urn:isbn:0451450523', true],
    ['https://user:pa%20ss@example.com:8443/a b?q=1#frag', true],
    ['http://[::1]:80/x', true],
    ['*', true],
    ['relative/path', false],
    ['not a uri', false],
    ['', false],
    [':no-scheme', false],
    ['https://exa mple.com/', false],
    ['https://example.com:port/', false],
    ['https://example.com/%zz', false],
    ['https://example.com/\u0001', false],
    ['https://[::1/x', false],
  ])('%j → %s', (s, ok) => {
    expect(isRequestUri(s)).toBe(ok);
  });
  it('validate applies it to uri fields', async () => {
    expect(await errors(doc('Agent', '  declarative: {}\n  iconUrl: /static/icon.png\n'))).toEqual([]);
    expect(await errors(doc('Agent', '  declarative: {}\n  iconUrl: static/icon.png\n'))).toEqual([expect.stringMatching(/^spec\.iconUrl: .*must be an absolute URI with a scheme, such as .+, found "static\/icon\.png"$/)]);
  });
});

describe('metadata is ObjectMeta: an unknown metadata field is refused', () => {
  it('a field ObjectMeta does not have is an unknown field; the ones it has are accepted', async () => {
    const withMeta = (meta: string) => doc('ModelConfig', '  model: m\n').replace('  namespace: default\n', `  namespace: default\n${meta}`);
    expect(await errors(withMeta('  unexpected: 1\n'))).toEqual([expect.stringMatching(/^metadata\.unexpected: .*unknown field metadata\.unexpected/)]);
    expect(await errors(withMeta('  creationTimestamp: null\n  finalizers: [a/b]\n  generation: 3\n  uid: 0b2c\n'))).toEqual([]);
  });
});

describe("unknown fields are found the way the API server's decoder finds them", () => {
  const findings = async (yaml: string) => (await validateYaml(yaml)).problems.map((p) => `${p.rule} ${p.path}: ${p.message}`);

  it('a map where a string belongs: each of its keys is an unknown field, which says what the value must be', async () => {
    expect(await findings(modelConfig('').replace('  model: m\n', '  model:\n    foo: 1\n    bar: 2\n'))).toEqual([
      'crd/unknown-field spec.model.foo: ModelConfig sample: unknown field spec.model.foo: spec.model must be a string, found a map',
      'crd/unknown-field spec.model.bar: ModelConfig sample: unknown field spec.model.bar: spec.model must be a string, found a map',
    ]);
  });

  it('a map where an enum string belongs is one finding per key, not also an enum one', async () => {
    expect(await findings(doc('Agent', '  type:\n    unexpected: 1\n  declarative: {}\n'))).toEqual([
      'crd/unknown-field spec.type.unexpected: Agent sample: unknown field spec.type.unexpected: spec.type must be a string, found a map',
    ]);
  });

  it('a list of maps where a map belongs: every key of every map entry is an unknown field; a scalar entry has none', async () => {
    expect(await findings(modelConfig('  providerB:\n    - maxTokens: 1\n    - 7\n    - seed: 2\n'))).toEqual([
      'crd/unknown-field spec.providerB[0].maxTokens: ModelConfig sample: unknown field spec.providerB[0].maxTokens: spec.providerB must be a map, found a list of 3 entries',
      'crd/unknown-field spec.providerB[2].seed: ModelConfig sample: unknown field spec.providerB[2].seed: spec.providerB must be a map, found a list of 3 entries',
    ]);
  });

  it('a map inside a list of strings is named at its keys; a map where an int-or-string belongs too', async () => {
    const byo = (deployment: string) => doc('Agent', `  type: BYO\n  byo:\n    deployment:\n      image: example.com/a:1\n${deployment}`);
    expect(await findings(byo('      args: [a, {x: 1}]\n'))).toEqual([
      'crd/unknown-field spec.byo.deployment.args[1].x: Agent sample: unknown field spec.byo.deployment.args[1].x: spec.byo.deployment.args[1] must be a string, found a map',
    ]);
    expect(await findings(byo('      resources:\n        limits:\n          cpu: {n: 1}\n'))).toEqual([
      'crd/unknown-field spec.byo.deployment.resources.limits.cpu.n: Agent sample: unknown field spec.byo.deployment.resources.limits.cpu.n: spec.byo.deployment.resources.limits.cpu must be an integer or a string, found a map',
    ]);
  });

  it('a list of scalars where a string belongs has no key to name: it stays a type error at the field', async () => {
    expect(await findings(modelConfig('').replace('  model: m\n', '  model: [a, b]\n'))).toEqual(['crd/schema spec.model: ModelConfig sample: spec.model must be a string, found a list of 2 entries']);
  });

  it('a field that keeps unknown fields takes any map', async () => {
    expect(await findings(modelConfig('  provider: ProviderH\n  providerH:\n    region: r\n    additionalModelRequestFields:\n      any: {deep: [1, {x: 2}]}\n'))).toEqual([]);
  });
});
