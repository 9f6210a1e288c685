// Pruning with ApplySets against a real kube-apiserver and the kubectl of the same version. The
// commands of docs/commands.md (section "Pruning with ApplySets") are taken from its code blocks and run as
// written through bash, with `agentplat` and that kubectl on PATH: each applies a release, then a
// smaller one (a sub-chart off and, across namespaces, a namespace fewer), and exactly the objects
// the smaller render lacks must be gone, every other object (the cluster's own included) untouched.
// kubectl's parent and labels must be the ones `render --applyset` prints, and the page's claims
// about what does not prune `render --applyset` output are checked against the same server.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { objectsOf } from '../helpers/objects.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { crdProblems, ensureNamespaces, installCrds, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { toolsFor } from './_tools.ts';
import { PRUNE_VERSION } from './_versions.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PART_OF = 'applyset.kubernetes.io/part-of';
const ID = 'applyset.kubernetes.io/id';
const TOOLING = 'applyset.kubernetes.io/tooling';
const GROUP_KINDS = 'applyset.kubernetes.io/contains-group-kinds';
const NAMESPACES = 'applyset.kubernetes.io/additional-namespaces';

type Meta = { name: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type Live = { apiVersion: string; kind: string; metadata: Meta };

// --- the commands of docs/commands.md ---

const PAGE = readFileSync(join(ROOT, 'docs', 'commands.md'), 'utf8');

function pageSection(heading: string): string {
  const start = PAGE.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/commands.md has no heading ${heading}`);
  const rest = PAGE.slice(start + heading.length + 2);
  const end = rest.search(/^#{1,2} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The section's `sh` blocks: one namespace; the parent set-up across namespaces; across namespaces. */
const [ONE_NAMESPACE, PARENT_SETUP, ACROSS] = (() => {
  const blocks = [...pageSection('## Pruning with ApplySets').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  if (blocks.length !== 3) throw new Error(`docs/commands.md "Pruning with ApplySets" has ${blocks.length} sh blocks, the test runs 3`);
  return blocks as [string, string, string];
})();

// --- identities of objects, rendered and live ---

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** `Kind.group ns/name`, the same for a rendered and a live object. */
function key(o: { apiVersion: string; kind: string; metadata: Meta }): string {
  const group = groupOf(o.apiVersion);
  return `${o.kind}${group ? `.${group}` : ''} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

function render(args: string[]): Live[] {
  const r = agentplat(['render', '--skip-crds', ...args]);
  if (r.code !== 0) throw new Error(`agentplat render ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return objectsOf<Live>(r.out);
}

/** The parent and the members of `render --applyset` output. */
function applySetOf(objs: Live[]): { parent: Live; members: Live[] } {
  const parents = objs.filter((o) => o.metadata.labels?.[ID] !== undefined);
  expect(parents).toHaveLength(1);
  return { parent: parents[0]!, members: objs.filter((o) => o !== parents[0]) };
}

/** The id kubectl gives a parent (KEP-3659), written out here independently of src/. */
function kubectlId(name: string, namespace: string, kind: string, group: string): string {
  return `applyset-${createHash('sha256').update(`${name}.${namespace}.${kind}.${group}`).digest('base64url')}-v1`;
}

/**
 * What kubectl wrote to stderr, less its notices that it paced its own requests (it lists every
 * kind of the set in every namespace of it while pruning): anything left is a warning or an error.
 */
function problems(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l !== '' && !/"Waited before sending request".*client-side throttling/.test(l));
}

const difference = <T,>(a: Iterable<T>, b: Set<T>): T[] => [...a].filter((x) => !b.has(x)).sort();

/** The values files the page's commands read (`-f values.yaml`). */
const VALUES = {
  oneFull: '{}\n',
  oneSmaller: 'agentplat-tools:\n  enabled: false\n',
  acrossFull: 'rbac:\n  namespaces: [agentplat, team-a, team-b]\n',
  acrossSmaller: 'rbac:\n  namespaces: [agentplat, team-a]\nagentplat-tools:\n  enabled: false\n',
};
const valuesArgs = (yaml: string, dir: string, name: string): string[] => {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return ['-f', file];
};

// --- a control plane with kubectl and agentplat on PATH ---

interface Bench {
  c: Cluster;
  /** A folder holding values.yaml, the working folder of the page's commands. */
  dir: string;
  sh(script: string): { status: number; out: string; err: string };
  kubectl(args: string[], input?: string): { status: number; out: string; err: string };
  /** Every live object of the given kinds (`kind.group`), in every namespace: uid by key. */
  inventory(kinds: string[]): Map<string, Live>;
  stop(): Promise<void>;
}

async function bench(namespaces: string[]): Promise<Bench> {
  const c = await startCluster(PRUNE_VERSION, inject('clusterBinaries')[PRUNE_VERSION]!);
  const { dir, bin, run, sh, remove } = toolsFor(c, 'agentplat-prune-');
  const crds = (JSON.parse(agentplat(['crds', '-o', 'json']).out) as { items: Obj[] }).items;
  expect(crdProblems(await installCrds(c, crds))).toEqual([]);
  await ensureNamespaces(c, namespaces);
  return {
    c,
    dir,
    sh,
    kubectl: (args, input) => run(join(bin, 'kubectl'), args, input, { KUBECTL_APPLYSET: 'true' }),
    inventory(kinds) {
      const r = run(join(bin, 'kubectl'), ['get', kinds.join(','), '-A', '-o', 'json']);
      if (r.status !== 0) throw new Error(`kubectl get ${kinds.join(',')}: ${r.err}`);
      const items = (JSON.parse(r.out) as { items: Live[] }).items;
      return new Map(items.map((o) => [key(o), o]));
    },
    async stop() {
      remove();
      await c.stop();
    },
  };
}

/** `kind.group` resource words for kubectl get, from rendered objects. */
function kindsOf(objs: Live[]): string[] {
  return [...new Set(objs.map((o) => `${o.kind.toLowerCase()}${groupOf(o.apiVersion) ? `.${groupOf(o.apiVersion)}` : ''}`))].sort();
}

/**
 * Runs `apply` (the smaller release) and checks the prune: the objects gone are exactly
 * `expectedGone`, and every other object of those kinds is still the same object (same uid).
 */
function expectPruned(b: Bench, kinds: string[], apply: () => { status: number; out: string; err: string }, expectedGone: string[]): string {
  const before = b.inventory(kinds);
  for (const k of expectedGone) expect(before.has(k), `${k} is live before the prune`).toBe(true);
  const r = apply();
  expect(problems(r.err)).toEqual([]);
  expect(r.status).toBe(0);
  const after = b.inventory(kinds);
  expect(difference(before.keys(), new Set(after.keys()))).toEqual([...expectedGone].sort());
  expect(difference(after.keys(), new Set(before.keys()))).toEqual([]);
  for (const [k, o] of after) expect(o.metadata.uid, k).toBe(before.get(k)!.metadata.uid);
  return r.out;
}

describe(`prune with ApplySets, Kubernetes ${PRUNE_VERSION}: the release in one namespace (Secret parent)`, () => {
  let b: Bench;
  beforeAll(async () => {
    b = await bench(['agentplat', 'elsewhere']);
  });
  afterAll(async () => b?.stop());

  const full = () => render(['-n', 'agentplat', ...valuesArgs(VALUES.oneFull, b.dir, 'full.yaml')]);
  const smaller = () => render(['-n', 'agentplat', ...valuesArgs(VALUES.oneSmaller, b.dir, 'smaller.yaml')]);
  const ours = () => applySetOf(render(['-n', 'agentplat', '--applyset', 'agentplat', ...valuesArgs(VALUES.oneFull, b.dir, 'full.yaml')]));

  it('kubectl --applyset refuses render --applyset output: it labels the objects itself', () => {
    const yaml = agentplat(['render', '--skip-crds', '-n', 'agentplat', '--applyset', 'agentplat']).out;
    const r = b.kubectl(['apply', '--server-side', '--dry-run=server', '-n', 'agentplat', '--prune', '--applyset=agentplat', '-f', '-'], yaml);
    expect(r.status).not.toBe(0);
    expect(r.err).toContain('ApplySet label "applyset.kubernetes.io/part-of" already set in input data');
  });

  it('docs/commands.md, one namespace: kubectl makes the parent and member labels that render --applyset prints (tooling aside)', () => {
    writeFileSync(join(b.dir, 'values.yaml'), VALUES.oneFull);
    const r = b.sh(ONE_NAMESPACE);
    expect(problems(r.err)).toEqual([]);
    expect(r.status).toBe(0);

    const { parent, members } = ours();
    const liveParent = JSON.parse(b.kubectl(['get', 'secret', '-n', 'agentplat', 'agentplat', '-o', 'json']).out) as Live;
    const id = kubectlId('agentplat', 'agentplat', 'Secret', '');
    expect(liveParent.metadata.labels).toEqual({ [ID]: id });
    expect(parent.metadata.labels).toEqual({ [ID]: id });
    const { [TOOLING]: liveTooling, ...liveAnnotations } = liveParent.metadata.annotations ?? {};
    const { [TOOLING]: ourTooling, ...ourAnnotations } = parent.metadata.annotations ?? {};
    expect(liveAnnotations).toEqual(ourAnnotations);
    expect(Object.keys(liveAnnotations).sort()).toEqual([NAMESPACES, GROUP_KINDS]);
    expect(liveTooling).toMatch(/^kubectl\//);
    expect(ourTooling).toMatch(/^agentplat\/v\d/);

    const labelled = JSON.parse(b.kubectl(['get', kindsOf(members).join(','), '-A', '-l', `${PART_OF}=${id}`, '-o', 'json']).out) as { items: Live[] };
    expect(labelled.items.map(key).sort()).toEqual(members.map(key).sort());
    for (const m of members) expect(m.metadata.labels?.[PART_OF], key(m)).toBe(id);
  });

  it('docs/commands.md, one namespace: a render without agentplat-tools prunes exactly the sub-chart\'s objects', () => {
    const before = full();
    const after = smaller();
    const gone = difference(before.map(key), new Set(after.map(key)));
    expect(gone.some((k) => k.startsWith('Deployment.apps agentplat/agentplat-tools'))).toBe(true);
    writeFileSync(join(b.dir, 'values.yaml'), VALUES.oneSmaller);
    const out = expectPruned(b, kindsOf(before), () => b.sh(ONE_NAMESPACE), gone);
    expect(out.match(/ pruned$/gm)).toHaveLength(gone.length);
  });

  it('kubectl takes no release across namespaces with a Secret parent: -n is required, and refuses the other namespaces\' objects', () => {
    const manifests = agentplat(['render', '--skip-crds', '-n', 'agentplat', ...valuesArgs(VALUES.acrossFull, b.dir, 'across.yaml')]).out;
    const withoutN = b.kubectl(['apply', '--server-side', '--dry-run=server', '--prune', '--applyset=agentplat', '-f', '-'], manifests);
    expect(withoutN.status).not.toBe(0);
    expect(withoutN.err).toContain('namespace is required to use namespace-scoped ApplySet');
    const withN = b.kubectl(['apply', '--server-side', '--dry-run=server', '-n', 'agentplat', '--prune', '--applyset=agentplat', '-f', '-'], manifests);
    expect(withN.status).not.toBe(0);
    expect(withN.err).toContain('the namespace from the provided object "team-a" does not match the namespace "agentplat"');
  });

  it('a parent that render --applyset wrote is not kubectl\'s: kubectl --applyset refuses to manage it', () => {
    const args = ['-n', 'elsewhere', '--release-name', 'elsewhere'];
    const labelled = agentplat(['render', '--skip-crds', ...args, '--applyset', 'agentplat']);
    const plain = b.kubectl(['apply', '--server-side', '-f', '-'], labelled.out);
    expect(problems(plain.err)).toEqual([]);
    expect(plain.status).toBe(0);
    const r = b.kubectl(['apply', '--server-side', '-n', 'elsewhere', '--prune', '--applyset=agentplat', '-f', '-'], agentplat(['render', '--skip-crds', ...args]).out);
    expect(r.status).not.toBe(0);
    expect(r.err).toContain('already exists and is managed by tooling "agentplat" instead of "kubectl"');
  });
});

describe(`prune with ApplySets, Kubernetes ${PRUNE_VERSION}: the release across namespaces (custom-resource parent)`, () => {
  let b: Bench;
  beforeAll(async () => {
    b = await bench(['agentplat', 'team-a', 'team-b', 'legacy', 'team-c', 'team-d']);
  });
  afterAll(async () => b?.stop());

  const FULL = () => render(['-n', 'agentplat', ...valuesArgs(VALUES.acrossFull, b.dir, 'full.yaml')]);
  const SMALLER = () => render(['-n', 'agentplat', ...valuesArgs(VALUES.acrossSmaller, b.dir, 'smaller.yaml')]);

  it('docs/commands.md, across namespaces: after the parent set-up, kubectl labels every object and lists the kinds and namespaces render --applyset prints', () => {
    const setup = b.sh(PARENT_SETUP);
    expect(problems(setup.err)).toEqual([]);
    expect(setup.status).toBe(0);
    writeFileSync(join(b.dir, 'values.yaml'), VALUES.acrossFull);
    const r = b.sh(ACROSS);
    expect(problems(r.err)).toEqual([]);
    expect(r.status).toBe(0);

    const id = kubectlId('agentplat', '', 'ApplySet', 'platform.example.com');
    const liveParent = JSON.parse(b.kubectl(['get', 'applysets.platform.example.com', 'agentplat', '-o', 'json']).out) as Live;
    expect(liveParent.metadata.labels?.[ID]).toBe(id);
    const { parent, members } = applySetOf(render(['-n', 'agentplat', '--applyset', 'agentplat', ...valuesArgs(VALUES.acrossFull, b.dir, 'full.yaml')]));
    expect(liveParent.metadata.annotations?.[GROUP_KINDS]).toBe(parent.metadata.annotations?.[GROUP_KINDS]);
    // A cluster-scoped parent has no namespace of its own: kubectl lists the release namespace too.
    const ourNamespaces = parent.metadata.annotations?.[NAMESPACES]?.split(',') ?? [];
    expect(ourNamespaces).toEqual(['team-a', 'team-b']);
    expect(liveParent.metadata.annotations?.[NAMESPACES]).toBe(['agentplat', ...ourNamespaces].sort().join(','));

    const labelled = JSON.parse(b.kubectl(['get', kindsOf(members).join(','), '-A', '-l', `${PART_OF}=${id}`, '-o', 'json']).out) as { items: Live[] };
    expect(labelled.items.map(key).sort()).toEqual(members.map(key).sort());
  });

  it('docs/commands.md, across namespaces: a render without agentplat-tools and without team-b prunes exactly those objects', () => {
    const before = FULL();
    const after = SMALLER();
    const gone = difference(before.map(key), new Set(after.map(key)));
    expect(gone.some((k) => k.startsWith('Deployment.apps agentplat/agentplat-tools'))).toBe(true);
    expect(gone.filter((k) => k.includes(' team-b/')).length).toBe(before.filter((o) => o.metadata.namespace === 'team-b').length);
    expect(gone.some((k) => k.includes(' team-b/'))).toBe(true);
    writeFileSync(join(b.dir, 'values.yaml'), VALUES.acrossSmaller);
    expectPruned(b, kindsOf(before), () => b.sh(ACROSS), gone);
  });

  it('kubectl\'s selector prune is no way to prune render --applyset output: refused with --server-side; client-side it keeps a dropped namespace and never applies the parent', () => {
    const args = (yaml: string, name: string) => ['-n', 'legacy', '--release-name', 'legacy', '--applyset', 'agentplat', ...valuesArgs(yaml, b.dir, name)];
    const full = render(args('rbac:\n  namespaces: [legacy, team-c, team-d]\n', 'legacy-full.yaml'));
    const smaller = render(args('rbac:\n  namespaces: [legacy, team-c]\nagentplat-tools:\n  enabled: false\n', 'legacy-smaller.yaml'));
    const { parent, members } = applySetOf(full);
    const id = parent.metadata.labels![ID]!;
    const allow = [...new Set(members.map((o) => `${o.apiVersion.includes('/') ? o.apiVersion : `core/${o.apiVersion}`}/${o.kind}`))].map((g) => `--prune-allowlist=${g}`);
    const yaml = (objs: Live[]) => objs.map((o) => JSON.stringify(o)).join('\n---\n');
    const prune = (objs: Live[], extra: string[]) => b.kubectl(['apply', ...extra, '--prune', '-l', `${PART_OF}=${id}`, ...allow, '-f', '-'], yaml(objs));

    const serverSide = prune(full, ['--server-side']);
    expect(serverSide.status).not.toBe(0);
    expect(serverSide.err).toContain("--prune is in alpha and doesn't currently work on objects created by server-side apply");

    const first = prune(full, []);
    expect(first.status, first.err).toBe(0);
    expect(b.kubectl(['get', 'secret', '-n', 'legacy', 'agentplat']).status).not.toBe(0);

    const dropped = difference(members.map(key), new Set(smaller.map(key)));
    const kept = dropped.filter((k) => k.includes(' team-d/'));
    expect(kept.length).toBeGreaterThan(0);
    expectPruned(b, kindsOf(members), () => prune(smaller, []), difference(dropped, new Set(kept)));
    const live = b.inventory(kindsOf(members));
    for (const k of kept) expect(live.has(k), `${k} outlives the prune`).toBe(true);
  });
});
