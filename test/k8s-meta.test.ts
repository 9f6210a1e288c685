// The API server's metadata rules as kube-apiserver 1.34.4 and 1.37.2 applied them to the cluster
// suite's corpus (test/cluster/validate-agreement.test.ts, metadata categories): each case here is a
// verdict the server gave where agentplat's rules (src/kube-check/metadata.ts) gave another before.
import { describe, expect, it } from 'vitest';
import { validate } from '../src/api.ts';
import { metadataFindings } from '../src/kube-check/metadata.ts';
import { runInProcess } from './cli/in-process.ts';

const paths = (kind: string, metadata: Record<string, unknown>, opts = {}) => metadataFindings(kind, metadata, opts).map((f) => f.path.join('.'));

describe('metadata names by kind, as the API server checks them', () => {
  it('a CronJob name has at most 52 characters (its Jobs are named after it, 11 longer)', () => {
    expect(paths('CronJob', { name: 'a'.repeat(52) })).toEqual([]);
    expect(paths('CronJob', { name: 'a'.repeat(53) })).toEqual(['metadata.name']);
  });

  it('a Job name has at most 63 characters (it becomes the job-name label value of its Pods)', () => {
    expect(paths('Job', { name: 'a'.repeat(63) })).toEqual([]);
    expect(paths('Job', { name: 'a'.repeat(64) })).toEqual(['metadata.name']);
  });

  it('a PodDisruptionBudget name only has to be a URL path segment, like an RBAC name', () => {
    for (const name of ['Agent', 'my_model', 'system:agent', 'my model', 'agent-']) expect(paths('PodDisruptionBudget', { name })).toEqual([]);
    for (const name of ['a/b', 'a%b', '..']) expect(paths('PodDisruptionBudget', { name })).toEqual(['metadata.name']);
  });

  it('a Service name starting with a digit is refused by default and taken with the relaxed rule of 1.36 and newer; a dot never is', () => {
    expect(paths('Service', { name: '1agent' })).toEqual(['metadata.name']);
    expect(paths('Service', { name: '1agent' }, { relaxedServiceNames: true })).toEqual([]);
    expect(paths('Service', { name: 'my.svc' }, { relaxedServiceNames: true })).toEqual(['metadata.name']);
  });
});

describe('generateName, as the API server checks it', () => {
  it('is checked beside a name too', () => {
    expect(paths('ConfigMap', { name: 'c', generateName: 'Bad_Prefix-' })).toEqual(['metadata.generateName']);
  });

  it('a trailing "-" counts with the character before it as one: a 254-character prefix ending in "-" is a subdomain prefix, 255 is not', () => {
    expect(paths('ConfigMap', { generateName: `${'a'.repeat(253)}-` })).toEqual([]);
    expect(paths('ConfigMap', { generateName: `${'a'.repeat(254)}-` })).toEqual(['metadata.generateName']);
    expect(paths('Namespace', { generateName: `${'a'.repeat(63)}-` })).toEqual([]);
    expect(paths('Namespace', { generateName: `${'a'.repeat(64)}-` })).toEqual(['metadata.generateName']);
  });

  it('a CronJob made from a prefix of more than 47 characters gets a name over 52 (cut to 58, 5 appended); beside a name it is not used', () => {
    expect(paths('CronJob', { generateName: 'a'.repeat(47) })).toEqual([]);
    expect(paths('CronJob', { generateName: 'a'.repeat(48) })).toEqual(['metadata.generateName']);
    expect(paths('CronJob', { name: 'c', generateName: 'a'.repeat(48) })).toEqual([]);
  });

  it('a Job prefix is a subdomain prefix: the name made from it is cut to 63 characters, which a Job name may have', () => {
    expect(paths('Job', { generateName: `${'a'.repeat(69)}-` })).toEqual([]);
    expect(paths('Job', { generateName: 'Job-' })).toEqual(['metadata.generateName']);
  });

  it('an RBAC or PodDisruptionBudget prefix only must not hold "/" or "%"', () => {
    expect(paths('ClusterRole', { generateName: '..' })).toEqual([]);
    expect(paths('PodDisruptionBudget', { generateName: 'Agent_x-' })).toEqual([]);
    expect(paths('PodDisruptionBudget', { generateName: 'a/b-' })).toEqual(['metadata.generateName']);
  });
});

describe('ownerReferences, as the API server checks them', () => {
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '2f1c3e4a-0000-4000-8000-000000000001' };
  it('an apiVersion with a group and no version, or with two slashes, is refused at apiVersion; a word alone is a version', () => {
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, apiVersion: 'apps/' }] })).toEqual(['metadata.ownerReferences.0.apiVersion']);
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, apiVersion: 'apps/v1/extra' }] })).toEqual(['metadata.ownerReferences.0.apiVersion']);
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, apiVersion: 'example.com' }] })).toEqual([]);
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, apiVersion: 'apps/v1' }] })).toEqual([]);
  });

  it('a v1 Event cannot be an owner', () => {
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, kind: 'Event' }] })).toEqual(['metadata.ownerReferences.0']);
    expect(paths('ConfigMap', { name: 'c', ownerReferences: [{ ...ref, apiVersion: 'events.k8s.io/v1', kind: 'Event' }] })).toEqual([]);
  });
});

describe('validate decodes the ownerReferences of a custom resource as the API server does', () => {
  const agent = (ref: string) =>
    `apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  name: m\n  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: o, uid: u1, ${ref}}\nspec:\n  model: m\n  provider: ProviderB\n`;
  it('a controller that is not a boolean, and a field an owner reference does not have, are refused at that field', async () => {
    const typed = await validate([{ file: 'm.yaml', text: agent('controller: "yes"') }]);
    expect(typed.problems.map((p) => [p.rule, p.path])).toEqual([['crd/schema', 'metadata.ownerReferences[0].controller']]);
    const unknown = await validate([{ file: 'm.yaml', text: agent('notInTheApi: x') }]);
    expect(unknown.problems.map((p) => [p.rule, p.path])).toEqual([['crd/unknown-field', 'metadata.ownerReferences[0].notInTheApi']]);
    const fine = await validate([{ file: 'm.yaml', text: agent('controller: true, blockOwnerDeletion: true') }]);
    expect(fine.ok).toBe(true);
  });
});

describe('render holds Service names to the rule of the --kube-version it renders for', () => {
  it('a release name starting with a digit renders for 1.37 and is refused for 1.35', async () => {
    const newer = await runInProcess(['render', '--skip-crds', '--release-name', '1abc', '--kube-version', '1.37']);
    expect(newer.stderr).not.toMatch(/render\/object-name/);
    expect(newer.code).toBe(0);
    const older = await runInProcess(['render', '--skip-crds', '--release-name', '1abc', '--kube-version', '1.35']);
    expect(older.code).toBe(1);
    expect(older.stderr).toMatch(/Service "1abc-controller" .* it must be a DNS-1035 label .*\[render\/object-name\]/);
  });
});
