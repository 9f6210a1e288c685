// The refusal report of `validate --cluster`, on a fake cluster: an object with the ClusterClient
// interface (src/cluster/client.ts) that serves the kinds, versions, CRDs and objects a test gives
// it. The real API server is in test/cluster/validate-cluster.test.ts.
import { describe, expect, it } from 'vitest';
import { ClusterError, type ApiResource, type ClusterClient, type GroupVersionKind, type KubeObject, type ListResult } from '../../src/cluster/client.ts';
import { asWritten, complete, storedVersionSteps, unreadText, validateCluster } from '../../src/cluster/validate-cluster.ts';
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
function fakeCluster(
  kinds: FakeKind[],
  opts: {
    forbiddenNamespaces?: string[];
    /** Namespaces that exist (default, team-a, team-b); null: the user may not get namespaces. */
    namespaces?: string[] | null;
    /** Kinds the user may list nowhere. */
    forbiddenKinds?: string[];
    /** The user may list neither across namespaces nor the namespaces: the context's namespace (default) is read. */
    contextNamespaceOnly?: boolean;
  } = {},
): ClusterClient & { listed: string[] } {
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
      if (opts.forbiddenKinds?.includes(k.kind)) throw new ClusterError(`refused to let user u list ${k.plural}.agentplat.dev: 403 Forbidden`, 'ask', 403);
      if (opts.contextNamespaceOnly && o.namespace === undefined) {
        const items = k.objects.filter((x) => x.metadata.namespace === 'default');
        return { items: items.map((x) => ({ ...structuredClone(x), apiVersion: `agentplat.dev/${gvk.version}` })), namespaces: ['default'], forbidden: [], othersUnknown: true };
      }
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

  it('without the right to read CRDs the stored versions go unchecked and the run says so; kinds the target lacks are noted, not checked; -n lists one namespace', async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'ok', { declarative: {} })]), crd: undefined }, { kind: 'Gadget', plural: 'gadgets', versions: ['v1alpha2'], crd: { storage: 'v1alpha2', storedVersions: ['v1alpha2'] }, objects: [] }]);
    const r = await validateCluster(client, { revision: 'B', namespace: 'team-a' });
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual(['not checked: Gadget (agentplat.dev/v1alpha2): revision B has no CRD for this kind']);
    expect(r.unread.crds).toEqual(['agents.agentplat.dev']);
    expect(complete(r.unread)).toBe(false);
    expect(r.read).toEqual(['team-a']);
    expect(client.listed).toEqual(['Agent v1alpha2 team-a']);
  });

  it('namespaces the user may not list are named with the kinds, and the run is incomplete', async () => {
    const client = fakeCluster([agents([live('Agent', 'team-a', 'ok', { declarative: {} }), live('Agent', 'team-b', 'hidden', { type: 'BYO' })])], { forbiddenNamespaces: ['team-b'] });
    const r = await validateCluster(client, { revision: 'B' });
    expect(r.problems).toEqual([]);
    expect(r.read).toEqual(['team-a']);
    expect(unreadText(r.unread)).toBe('Agent in namespace team-b');
    expect(complete(r.unread)).toBe(false);
  });

  it('the stored-version hint switches the storage version first, then writes every object again at it, then drops the old version from the status, then applies the revision\'s CRDs', async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'ok', { declarative: {} })], { storage: 'v1alpha1', storedVersions: ['v1alpha1'] }), versions: ['v1alpha1', 'v1alpha2'] }]);
    for (const revision of ['A', 'B'] as const) {
      const r = await validateCluster(client, { revision });
      expect(r.problems.map((p) => p.rule)).toEqual(['crd/stored-version']);
      expect(r.problems[0]!.hint).toBe(
        'before the upgrade, make v1alpha2 the storage version, write every Agent again (stored at v1alpha2 from then on) and drop v1alpha1 from the CRD\'s status, in this order (one line): ' +
          'kubectl patch crd agents.agentplat.dev --type=json -p \'[{"op":"test","path":"/spec/versions/0/name","value":"v1alpha1"},{"op":"replace","path":"/spec/versions/0/storage","value":false},{"op":"test","path":"/spec/versions/1/name","value":"v1alpha2"},{"op":"replace","path":"/spec/versions/1/storage","value":true}]\'' +
          ' && kubectl get agents.v1alpha2.agentplat.dev -A -o json | kubectl replace -f -' +
          ' && kubectl patch crd agents.agentplat.dev --subresource=status --type=merge -p \'{"status":{"storedVersions":["v1alpha2"]}}\'' +
          `; then apply the CRDs of revision ${revision}: agentplat crds -r ${revision} | kubectl apply --server-side --field-manager agentplat --force-conflicts -f -`,
      );
    }
  });

  it('the stored-version steps leave out the storage switch when the CRD already stores at the target version, and the rewrite when every namespace was read and held no object', () => {
    const versions = [{ name: 'v1alpha1', storage: false }, { name: 'v1alpha2', storage: true }];
    const base = { kind: 'Agent', crdName: 'agents.agentplat.dev', plural: 'agents', versions, to: 'v1alpha2', revision: 'B' as const };
    expect(storedVersionSteps({ ...base, rewrite: true })!.commands).toBe('kubectl get agents.v1alpha2.agentplat.dev -A -o json | kubectl replace -f - && kubectl patch crd agents.agentplat.dev --subresource=status --type=merge -p \'{"status":{"storedVersions":["v1alpha2"]}}\'');
    expect(storedVersionSteps({ ...base, rewrite: false })!.commands).toBe('kubectl patch crd agents.agentplat.dev --subresource=status --type=merge -p \'{"status":{"storedVersions":["v1alpha2"]}}\'');
    // The cluster's CRD has no v1alpha2 to switch to: no commands to paste.
    expect(storedVersionSteps({ ...base, versions: [{ name: 'v1alpha1', storage: true }], rewrite: true })).toBeUndefined();
  });

  it('a CRD without the target version gets the steps in words, the switch before the rewrite', async () => {
    const client = fakeCluster([{ ...agents([live('Agent', 'team-a', 'old', { declarative: {} })], { storage: 'v1alpha1', storedVersions: ['v1alpha1'] }), versions: ['v1alpha1'] }]);
    const r = await validateCluster(client, { revision: 'B' });
    const hint = r.problems.find((p) => p.rule === 'crd/stored-version')!.hint!;
    expect(hint).toMatch(/^the cluster's CRD has no version v1alpha2 to store the objects at: add v1alpha2 to it as the storage version, keeping v1alpha1 served, write every Agent again/);
    expect(hint.indexOf('add v1alpha2')).toBeLessThan(hint.indexOf('kubectl replace'));
    expect(hint.indexOf('kubectl replace')).toBeLessThan(hint.indexOf('storedVersions'));
  });

  it('a cluster without agentplat CRDs has nothing to refuse', async () => {
    const r = await validateCluster(fakeCluster([]), { revision: 'B' });
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual(['the cluster serves no agentplat.dev resources (no agentplat CRD is installed): nothing to check']);
  });
});

describe('validate --cluster: the command', () => {
  const cwd = tempDir('agentplat-vc-');
  const run = async (client: ClusterClient, format: 'text' | 'json' = 'text', namespace?: string) => {
    const io = createMemoryIo({ cwd });
    const code = await runValidateCluster({ io, exitCode: 0 }, { format, revision: 'B', ...(namespace !== undefined ? { namespace } : {}) }, client);
    return { code, out: io.out, err: io.err };
  };
  const modelConfigs = (objects: KubeObject[]): FakeKind => ({ kind: 'ModelConfig', plural: 'modelconfigs', versions: ['v1alpha2'], crd: { storage: 'v1alpha2', storedVersions: ['v1alpha2'] }, objects });

  it('permissions that cover some kinds: what can be read is checked, what could not is named in one line, and the run exits 2', async () => {
    const r = await run(fakeCluster([agents([live('Agent', 'team-a', 'byo', { type: 'BYO' })]), modelConfigs([live('ModelConfig', 'team-b', 'mc', { model: 'm', provider: 'ProviderA' })])], { forbiddenKinds: ['ModelConfig'] }));
    expect(r.code).toBe(2);
    expect(r.out).toContain('<Agent team-a/byo>  error  spec: spec.byo is required when spec.type is BYO  [crd/cel]');
    expect(r.err).toBe(
      'validate: could not read (403 Forbidden): ModelConfig (list refused); ask for get and list on what is named (kubectl auth can-i --list shows what you may do), or check only the namespaces you may read with -n NAMESPACE\n' +
        'validate --cluster (context fake, all namespaces): checked 1 resource (Agent 1) against the CRDs of revision B; refused after the upgrade: 1 (Agent 1); the run is incomplete: see "could not read" above\n',
    );
  });

  it('CRDs the user may not read are named together in the one line, not one line each', async () => {
    const r = await run(fakeCluster([{ ...agents([live('Agent', 'team-a', 'ok', { declarative: {} })]), crd: undefined }, { ...modelConfigs([]), crd: undefined }]));
    expect(r.code).toBe(2);
    expect(r.err.split('\n').filter((l) => l.startsWith('validate: '))).toEqual([
      'validate: could not read (403 Forbidden): the CRDs agents.agentplat.dev, modelconfigs.agentplat.dev (get customresourcedefinitions refused: stored versions not checked); ask for get and list on what is named (kubectl auth can-i --list shows what you may do), or check only the namespaces you may read with -n NAMESPACE',
    ]);
  });

  it('a user who may list only the context\'s namespace: the run names that namespace as the one read, says the others could not be, and exits 2 instead of claiming all namespaces', async () => {
    const r = await run(fakeCluster([agents([live('Agent', 'default', 'ok', { declarative: {} }), live('Agent', 'team-b', 'byo', { type: 'BYO' })])], { contextNamespaceOnly: true }));
    expect(r.code).toBe(2);
    expect(r.err).toContain('could not read (403 Forbidden): Agent in every namespace but default (listing across namespaces and listing the namespaces were refused)');
    expect(r.err).toContain('validate --cluster (context fake, namespace default): checked 1 resource (Agent 1) against the CRDs of revision B; none of these will be refused; the run is incomplete');
    expect(r.err).not.toContain('(context fake, all namespaces)');
  });

  it('-n: a namespace that does not exist is an error, not "checked 0"; a refusal there does not suggest -n again', async () => {
    const cluster = fakeCluster([agents([live('Agent', 'team-a', 'ok', { declarative: {} })])]);
    await expect(run(cluster, 'text', 'team-x')).rejects.toThrow(new ClusterError('namespace team-x not found (context fake)', 'check the spelling of -n; kubectl get namespaces lists them', 404));
    const refused = await run(fakeCluster([agents([])], { forbiddenKinds: ['Agent'] }), 'text', 'team-a');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('could not read (403 Forbidden): Agent in namespace team-a; ask for get and list on what is named (kubectl auth can-i --list shows what you may do)\n');
    expect(refused.err).not.toContain('-n NAMESPACE');
    expect(refused.err).toContain('(context fake, namespace team-a)');
    // Without the right to get namespaces the run goes on and says what it could not tell.
    const unsure = await run(fakeCluster([agents([])], { namespaces: null }), 'text', 'team-x');
    expect(unsure.code).toBe(0);
    expect(unsure.err).toContain('validate: could not check that namespace team-x exists (not allowed to get namespaces): a namespace that does not exist reads as empty\n');
  });

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
