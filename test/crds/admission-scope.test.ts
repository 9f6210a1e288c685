// What admission looks at, as the API server does it: `status` is ignored on create and update of
// kinds with the status subresource, and a ModelProviderConfig may go without secretRef only for a
// provider without authentication (Resource API 2.13).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { crdKinds } from '../../src/kube-check/validate.ts';
import { doc, validateYaml } from './helpers.ts';

const PROVIDERS = ['ProviderA', 'ProviderB', 'ProviderC', 'ProviderD', 'ProviderE', 'ProviderF', 'ProviderG', 'ProviderH', 'ProviderI', 'ProviderJ'];

describe('status-ignored-on-admission: status is not part of what admission checks', () => {
  const samples = ['agent-declarative.yaml', 'agent-byo.yaml', 'sandboxagent.yaml', 'agentharness.yaml', 'modelconfigs.yaml', 'modelproviderconfig.yaml', 'remotemcpserver.yaml'];
  it('the samples cover every kind of the chart', () => {
    const kinds = new Set(samples.flatMap((f) => parseAllDocuments(readFileSync(`fixtures/resources/${f}`, 'utf8')).map((d) => (d.toJS() as { kind: string }).kind)));
    expect([...kinds].sort()).toEqual(crdKinds().map((k) => k.kind).filter((k) => k !== 'MCPServer').sort());
  });
  for (const f of samples) {
    const text = readFileSync(`fixtures/resources/${f}`, 'utf8');
    it(`${f}: an empty status validates like the resource without it`, async () => {
      const withStatus = text.split(/^---$/m).map((d) => (/^kind:/m.test(d) ? `${d.trimEnd()}\nstatus:\n` : d)).join('\n---\n');
      expect((await validateYaml(withStatus)).problems).toEqual([]);
    });
    it(`${f}: a partial status as kubectl get -o yaml prints it, with fields this version does not know, validates like the resource without it`, async () => {
      const dump = text
        .split(/^---$/m)
        .map((d) => !/^kind:/m.test(d) ? d : `${d.trimEnd()}\nstatus:\n  observedGeneration: "3"\n  conditions:\n    - type: Ready\n      status: "True"\n  fieldOfANewerController: {}\n`)
        .join('\n---\n');
      expect((await validateYaml(dump)).problems).toEqual([]);
    });
  }
  it('MCPServer (the operator\'s kind) ignores status too', async () => {
    const r = await validateYaml(doc('MCPServer', '  deployment:\n    image: example.com/mcp:1\n    port: 3000\n  transportType: stdio\n') + 'status:\n  phase: 7\n');
    expect(r.problems.filter((p) => p.path.startsWith('status'))).toEqual([]);
  });
});

describe('modelproviderconfig-secret-ref-required-with-auth: secretRef is optional only without authentication', () => {
  for (const type of PROVIDERS) {
    const needsSecret = type !== 'ProviderD';
    it(`${type} without secretRef is ${needsSecret ? 'an error at spec.secretRef, the field the API server names (the rule\'s fieldPath), though it is absent' : 'accepted (the local runtime needs no authentication)'}`, async () => {
      const r = await validateYaml(doc('ModelProviderConfig', `  type: ${type}\n`));
      expect(r.problems.map((p) => [p.rule, p.path]), JSON.stringify(r.problems)).toEqual(needsSecret ? [['crd/cel', 'spec.secretRef']] : []);
      if (needsSecret) expect(r.problems[0]!.message).toMatch(/secretRef .* required .* except ProviderD/);
    });
  }
  it('an empty secret name counts as missing', async () => {
    const r = await validateYaml(doc('ModelProviderConfig', '  type: ProviderA\n  secretRef:\n    name: ""\n'));
    expect(r.problems.map((p) => [p.rule, p.path])).toEqual([['crd/cel', 'spec.secretRef']]);
  });
  it('with a secret name every provider type is accepted', async () => {
    for (const type of PROVIDERS) expect((await validateYaml(doc('ModelProviderConfig', `  type: ${type}\n  secretRef:\n    name: key\n`))).problems, type).toEqual([]);
  });
});
