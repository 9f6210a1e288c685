// `--applyset NAME`: the release as a KEP-3659 ApplySet, checked against what kubectl computes and
// reads: the id (from the rule, and kubectl's own test values), the member label, and the parent's
// label and annotations.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applySetId } from '../../src/render/applyset.ts';
import { ensureBuilt, runBin } from '../cli/binary.ts';
import { runInProcess } from '../cli/in-process.ts';
import { objectsOf } from '../helpers/objects.ts';

ensureBuilt();



/** The rule of KEP-3659 as kubectl applies it, written out here independently of src/. */
function expectedId(name: string, namespace: string, kind: string, group: string): string {
  const hash = createHash('sha256').update([name, namespace, kind, group].join('.')).digest('base64');
  return `applyset-${hash.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}-v1`;
}

const ID = 'applyset.kubernetes.io/id';
const PART_OF = 'applyset.kubernetes.io/part-of';

describe('ApplySet id', () => {
  it('matches the ids in kubectl\'s own tests (Secret my-set in test; cluster-scoped ApplySet.company.com my-set)', () => {
    expect(applySetId({ name: 'my-set', namespace: 'test', kind: 'Secret' })).toBe('applyset-0eFHV8ySqp7XoShsGvyWFQD3s96yqwHmzc4e0HR1dsY-v1');
    expect(applySetId({ name: 'my-set', namespace: '', kind: 'ApplySet', group: 'company.com' })).toBe('applyset-rhp1a-HVAVT_dFgyEygyA1BEB82HPp2o10UiFTpqtAs-v1');
  });

  it.each([
    ['agentplat', 'default', 'Secret'],
    ['prod.platform', 'agents', 'ConfigMap'],
    ['x', 'kube-system', 'Secret'],
  ])('is base64url(sha256("<name>.<namespace>.<kind>.")) wrapped in applyset-…-v1 for %s/%s %s', (name, ns, kind) => {
    expect(applySetId({ name, namespace: ns, kind })).toBe(expectedId(name, ns, kind, ''));
  });
});

describe('render --applyset through the binary', () => {
  const r = runBin(['render', '-n', 'ns', '--set', 'rbac.namespaces={ns,team-b,team-a}', '--applyset', 'agentplat']);
  const objs = r.code === 0 ? objectsOf(r.stdout) : [];
  const id = expectedId('agentplat', 'ns', 'Secret', '');

  it('renders (exit 0) with the parent Secret in the release namespace, carrying the id label kubectl computes', () => {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const parents = objs.filter((o) => o.metadata.labels?.[ID] !== undefined);
    expect(parents).toHaveLength(1);
    expect(parents[0]).toMatchObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'agentplat', namespace: 'ns', labels: { [ID]: id } } });
    expect(parents[0]!.metadata.labels?.[PART_OF]).toBeUndefined();
    expect(r.stdout).toContain('# Source: agentplat/applyset-parent.yaml');
  });

  it('every object but the parent and the CRDs is a member: applyset.kubernetes.io/part-of is the parent\'s id', () => {
    const members = objs.filter((o) => o.metadata.labels?.[ID] === undefined && o.kind !== 'CustomResourceDefinition');
    expect(members.length).toBeGreaterThan(20);
    for (const m of members) expect(m.metadata.labels?.[PART_OF], `${m.kind} ${m.metadata.name}`).toBe(id);
  });

  it('CRDs stay out of the set (a prune that removed one would delete every custom resource of it)', () => {
    const crds = objs.filter((o) => o.kind === 'CustomResourceDefinition');
    expect(crds.length).toBeGreaterThan(0);
    for (const c of crds) expect(c.metadata.labels?.[PART_OF]).toBeUndefined();
    expect(objs.find((o) => o.metadata.labels?.[ID])?.metadata.annotations?.['applyset.kubernetes.io/contains-group-kinds']).not.toMatch(/CustomResourceDefinition/);
  });

  it('the parent lists the members\' group-kinds (Kind or Kind.group, sorted, comma-joined) and the other namespaces they live in', () => {
    const parent = objs.find((o) => o.metadata.labels?.[ID])!;
    const members = objs.filter((o) => o.metadata.labels?.[PART_OF] === id);
    const kinds = [...new Set(members.map((o) => (o.apiVersion.includes('/') ? `${o.kind}.${o.apiVersion.split('/')[0]}` : o.kind)))].sort();
    expect(parent.metadata.annotations?.['applyset.kubernetes.io/contains-group-kinds']).toBe(kinds.join(','));
    expect(kinds).toContain('Deployment.apps');
    expect(kinds).toContain('ConfigMap');
    expect(parent.metadata.annotations?.['applyset.kubernetes.io/additional-namespaces']).toBe('team-a,team-b');
    expect(parent.metadata.annotations?.['applyset.kubernetes.io/tooling']).toMatch(/^agentplat\/v\d+\.\d+\.\d+/);
  });
});

describe('--applyset forms and refusals', () => {
  it('configmaps/NAME makes a ConfigMap parent, with the id of a ConfigMap (template spells it the same)', async () => {
    const r = await runInProcess(['template', 'agentplat', '-n', 'ns', '--applyset', 'configmaps/platform']);
    expect(r.code).toBe(0);
    const parent = objectsOf(r.stdout).find((o) => o.metadata.labels?.[ID])!;
    expect(parent).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'platform', namespace: 'ns' } });
    expect(parent.metadata.labels?.[ID]).toBe(expectedId('platform', 'ns', 'ConfigMap', ''));
  });

  it.each([
    ['deployments.apps/x', /cannot be an ApplySet parent/],
    ['Bad_Name', /not a valid Secret name/],
    ['secrets/', /not a valid Secret name/],
  ])('--applyset %s is a usage error', async (flag, why) => {
    const r = await runInProcess(['render', '--applyset', flag]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(why);
  });

  it('--applyset with --show-only is refused: a partial set would prune the rest of the release', async () => {
    const r = await runInProcess(['render', '--applyset', 'agentplat', '-s', 'templates/controller-deployment.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--applyset cannot be combined with --show-only/);
  });
});

describe('--applyset help', () => {
  it.each(['render', 'template'])('%s --help says the output is not input for kubectl\'s prune and points to the kubectl path of docs/commands.md', async (command) => {
    const r = await runInProcess([command, '--help']);
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('not input for pruning (kubectl apply --applyset refuses labelled objects)');
    expect(text).toContain('render without --applyset and let kubectl make the set: docs/commands.md, "Pruning with ApplySets"');
  });
});
