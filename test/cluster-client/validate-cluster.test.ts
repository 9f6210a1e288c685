// The refusal report of `validate --cluster`, on a fake cluster: an object with the ClusterClient
// interface (src/cluster/client.ts) that serves the kinds, versions, CRDs and objects a test gives
// it. The real API server is in test/cluster/validate-cluster.test.ts.
import { describe, expect, it } from 'vitest';
import { ClusterError, type ApiResource, type ClusterClient, type GroupVersionKind, type KubeObject, type ListResult } from '../../src/cluster/client.ts';
import { asWritten, validateCluster } from '../../src/cluster/validate-cluster.ts';
import { runValidateCluster } from '../../src/cli/commands/validate-cluster-run.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { tempDir } from '../helpers/temp-dir.ts';

interface FakeKind {
  kind: string;
  plural: string;
  /** Versions the fake serves. */
  versions: string[];
  /** The CRD's storage version and status.storedVersions; undefined: reading the CRD is forbidden. */
  crd?: { storage: string; storedVersions: string[] };
  objects: KubeObject[];
}

/** Lists return the objects as stored, labelled with the version asked for (no conversion). */
function fakeCluster(kinds: FakeKind[], opts: { forbiddenNamespaces?: string[]; namespaces?: string[] | null } = {}): ClusterClient & { listed: string[] } {
  const listed: string[] = [];
  const versions = [...new Set(kinds.flatMap((k) => k.versions))];
  return {
    context: 'fake',
    server: 'https://fake.example:6443',
    namespace: 'default',
    listed,
    groups: async () => (versions.length ? [{ name: 'agentplat.dev', versions, preferredVersion: versions[0]! }] : []),
    resources: async (group: string, version: string): Promise<ApiResource[]> =>
      group !== 'agentplat.dev' ? [] : kinds.filter((k) => k.versions.includes(version)).map((k) => ({ group, version, kind: k.kind, name: k.plural, namespaced: true, verbs: ['get', 'list'] })),
    list: async (gvk: GroupVersionKind, o: { namespace?: string } = {}): Promise<ListResult> => {
      listed.push(`${gvk.kind} ${gvk.version}${o.namespace ? ` ${o.namespace}` : ''}`);
      const k = kinds.find((x) => x.kind === gvk.kind)!;
      const hidden = new Set(opts.forbiddenNamespaces ?? []);
      const items = k.objects.filter((x) => (o.namespace === undefined || x.metadata.namespace === o.namespace) && !hidden.has(x.metadata.namespace!));
      return { items: items.map((x) => ({ ...structuredClone(x), apiVersion: `agentplat.dev/${gvk.version}` })), namespaces: hidden.size ? ['team-a'] : 'all', forbidden: [...hidden] };
    },
    namespaceExists: async (name: string) => (opts.namespaces === null ? undefined : (opts.namespaces ?? ['default', 'team-a', 'team-b']).includes(name)),
    get: async (gvk: GroupVersionKind, name: string): Promise<KubeObject | undefined> => {
      const k = kinds.find((x) => `${x.plural}.agentplat.dev` === name);
      if (gvk.kind !== 'CustomResourceDefinition' || !k) return undefined;
      if (!k.crd) throw new ClusterError('forbidden', 'ask', 403);
      return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name }, spec: { versions: k.versions.map((v) => ({ name: v, storage: v === k.crd!.storage })) }, status: { storedVersions: k.crd.storedVersions } };
    },
    applyDryRun: async () => {
      throw new Error('validate --cluster never applies');
    },
  };
}

/** An object as the API server returns it: server-set metadata and a status. */
function live(kind: string, namespace: string, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'agentplat.dev/v1alpha2',
    kind,
    metadata: {
      name,
      namespace,
      uid: '6f1c1a4e-0000-4000-8000-000000000001',
      resourceVersion: '4711',
      generation: 3,
      creationTimestamp: '2026-11-01T10:00:00Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'agentplat.dev/v1alpha2', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
    },
    spec,
    status: { observedGeneration: 3, conditions: [] },
  };
}

const agents = (objects: KubeObject[], crd: FakeKind['crd'] = { storage: 'v1alpha2', storedVersions: ['v1alpha2'] }): FakeKind => ({ kind: 'Agent', plural: 'agents', versions: ['v1alpha2'], crd, objects });

describe('validate --cluster: the refusal report', () => {
  it('names each object the target CRDs refuse as <Kind ns/name>, with the path and the message without the object label; clean objects are inputs without problems', async () => {
    const client = fakeCluster([
      agents([
        live('Agent', 'team-a', 'ok', { declarative: { systemMessage: 'hi' } }),
        live('Agent', 'team-a', 'byo', { type: 'BYO' }),
        live('Agent', 'team-b', 'extra', { declarative: {}, legacyMode: 'x' }),
      ]),
      { kind: 'ModelConfig', plural: 'modelconfigs', versions: ['v1alpha2'], crd: { storage: 'v1alpha2', storedVersions: ['v1alpha2'] }, objects: [live('ModelConfig', 'team-a', 'mc', { model: 'm', provider: 'ProviderA' })] },
    ]);
    const r = await validateCluster(client, { revision: 'B' });
    expect(r.problems.map((p) => [p.file, p.rule, p.path, p.message])).toEqual([
      ['<Agent team-a/byo>', 'crd/cel', 'spec.type', 'spec: spec.byo is required when spec.type is BYO'],
      ['<Agent team-b/extra>', 'crd/unknown-field', 'spec.legacyMode', 'unknown field spec.legacyMode'],
    ]);
    expect(r.problems.every((p) => p.line === undefined && p.column === undefined)).toBe(true);
    expect(r.objects).toEqual(['<Agent team-a/ok>', '<Agent team-a/byo>', '<Agent team-b/extra>', '<ModelConfig team-a/mc>']);
    expect(r.checkedKinds).toEqual({ Agent: 3, ModelConfig: 1 });
    expect(r.refusedKinds).toEqual({ Agent: 2 });
    expect(r.notes).toEqual([]);
  });

  it('checks the object as a user writes it: server-set metadata and status are left out', () => {
    const o = live('Agent', 'team-a', 'ok', { declarative: {} });
    o.metadata.labels = { team: 'a' };
    expect(asWritten(o)).toEqual({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: 'ok', namespace: 'team-a', labels: { team: 'a' } }, spec: { declarative: {} } });
    // The live object is left as it was.
    expect(o.metadata.uid).toBeDefined();
    expect(o.status).toBeDefined();
  });

  it('objects the cluster serves only at a version the target does not serve are each reported with the version and what to do', async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'old', { systemMessage: 'flat' })], { storage: 'v1alpha1', storedVersions: ['v1alpha1'] }), versions: ['v1alpha1'] }]);
    const r = await validateCluster(client, { revision: 'B' });
    const old = r.problems.find((p) => p.file === '<Agent team-a/old>')!;
    expect(old.rule).toBe('crd/unknown-version');
    expect(old.message).toBe('stored at agentplat.dev/v1alpha1, which the Agent CRD of revision B does not serve (it serves agentplat.dev/v1alpha2)');
    expect(old.hint).toMatch(/write it again as agentplat\.dev\/v1alpha2/);
    expect(client.listed).toEqual(['Agent v1alpha1']);
  });

  it("a CRD whose status.storedVersions the target drops is reported once, with the commands that clear it; objects are read at the storage version when the target serves it", async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'ok', { declarative: {} })], { storage: 'v1alpha2', storedVersions: ['v1alpha1', 'v1alpha2'] }), versions: ['v1alpha1', 'v1alpha2'] }]);
    const r = await validateCluster(client, { revision: 'B' });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: '<CustomResourceDefinition agents.agentplat.dev>', rule: 'crd/stored-version', path: 'status.storedVersions' });
    expect(r.problems[0]!.message).toBe('status.storedVersions lists v1alpha1, which the CRD of revision B does not serve (it serves v1alpha2): the API server refuses to update this CRD');
    expect(r.problems[0]!.hint).toContain('kubectl patch crd agents.agentplat.dev --subresource=status');
    expect(r.refusedCrds).toEqual(['agents.agentplat.dev']);
    expect(client.listed).toEqual(['Agent v1alpha2']);
  });

  it('without the right to read CRDs the stored versions go unchecked with a note; kinds the target lacks are noted, not checked; -n lists one namespace', async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'ok', { declarative: {} })]), crd: undefined }, { kind: 'Gadget', plural: 'gadgets', versions: ['v1alpha2'], crd: { storage: 'v1alpha2', storedVersions: ['v1alpha2'] }, objects: [] }]);
    const r = await validateCluster(client, { revision: 'B', namespace: 'team-a' });
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([
      'could not read the CRD agents.agentplat.dev (not allowed to get customresourcedefinitions): its stored versions were not checked',
      'not checked: Gadget (agentplat.dev/v1alpha2): revision B has no CRD for this kind',
    ]);
    expect(client.listed).toEqual(['Agent v1alpha2 team-a']);
  });

  it('namespaces the user may not list are named in a note', async () => {
    const client = fakeCluster([agents([live('Agent', 'team-a', 'ok', { declarative: {} }), live('Agent', 'team-b', 'hidden', { type: 'BYO' })])], { forbiddenNamespaces: ['team-b'] });
    const r = await validateCluster(client, { revision: 'B' });
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual(['not checked: namespaces where you may not list these resources: team-b']);
  });

  it('a cluster without agentplat CRDs has nothing to refuse', async () => {
    const r = await validateCluster(fakeCluster([]), { revision: 'B' });
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual(['the cluster serves no agentplat.dev resources (no agentplat CRD is installed): nothing to check']);
  });
});

describe('validate --cluster: the command', () => {
  const cwd = tempDir('agentplat-vc-');
  const run = async (client: ClusterClient, format: 'text' | 'json' = 'text') => {
    const io = createMemoryIo({ cwd });
    const code = await runValidateCluster({ io, exitCode: 0 }, { format, revision: 'B' }, client);
    return { code, out: io.out, err: io.err };
  };

  it('exit 1 with the refusals on stdout and the summary by kind on stderr', async () => {
    const r = await run(fakeCluster([agents([live('Agent', 'team-a', 'ok', { declarative: {} }), live('Agent', 'team-a', 'byo', { type: 'BYO' }), live('Agent', 'team-b', 'byo2', { type: 'BYO' })])]));
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      '<Agent team-a/byo>  error  spec: spec.byo is required when spec.type is BYO  [crd/cel]\n\n' +
        '<Agent team-b/byo2>  error  spec: spec.byo is required when spec.type is BYO  [crd/cel]\n\n' +
        '3 resources, 2 errors, 0 warnings\n',
    );
    expect(r.err).toBe('validate --cluster (context fake, all namespaces): checked 3 resources (Agent 3) against the CRDs of revision B; refused after the upgrade: 2 (Agent 2)\n');
  });

  it('exit 0 when every resource passes; -o json lists every resource checked', async () => {
    const r = await run(fakeCluster([agents([live('Agent', 'team-a', 'ok', { declarative: {} })])]), 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { files: { file: string; problems: unknown[] }[]; summary: { files: number; errors: number } };
    expect(report.files).toEqual([expect.objectContaining({ file: '<Agent team-a/ok>', problems: [] })]);
    expect(report.summary).toMatchObject({ files: 1, errors: 0 });
    expect(r.err).toContain('; none will be refused');
  });
});
