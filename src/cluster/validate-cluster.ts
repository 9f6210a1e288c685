// `validate --cluster`: every custom resource of the agentplat.dev group in a live cluster, checked
// against the CRDs of the target revision before they are applied, with the check `validate` runs
// on files (kube-check/object.ts, checkObject). What it predicts:
// - an object the target CRDs refuse (schema, unknown field, CEL rule): after the upgrade the API
//   server refuses to create it as it is (a restore, a re-create by a GitOps tool) and refuses any
//   update that changes the offending field;
// - objects of a version the target CRD no longer serves;
// - a CRD whose status.storedVersions names a version the target CRD drops: the API server
//   refuses that CRD update itself until the objects are rewritten and the version is removed.
import { GROUP } from '../crds/ids.ts';
import { chartCrdDocs, mcpopCrdDocs } from '../crds/index.ts';
import { checkObject } from '../kube-check/object.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import { asWritten, ClusterError, type ClusterClient, type KubeObject, type ListResult } from './client.ts';

export interface ClusterValidateOptions {
  /** The revision whose CRDs the objects are checked against. */
  revision: Revision;
  /** Only this namespace (`-n`); all namespaces the user can list otherwise. */
  namespace?: string;
}

export interface ClusterValidateResult {
  problems: Problem[];
  /** One label per object checked (`<Agent team-a/support>`), the report's inputs. */
  objects: string[];
  /** Objects checked, by kind. */
  checkedKinds: Record<string, number>;
  /** Objects the target CRDs refuse, by kind. */
  refusedKinds: Record<string, number>;
  /** CRDs the API server will refuse to update to the target revision's (their stored versions). */
  refusedCrds: string[];
  /** What the run could not see or did not check, one sentence each (stderr). */
  notes: string[];
  /** Where the objects were read: every namespace (cluster-wide lists), or these namespaces. */
  read: 'all' | string[];
  /** What the run was refused (403): empty when it read everything it set out to read. */
  unread: Unread;
}

/** What a run could not read, by cause; each list sorted. */
export interface Unread {
  /** Kinds the user may list nowhere (cluster-wide, or namespace by namespace). */
  kinds: string[];
  /** Kinds by the namespaces they could not be listed in (listed one by one, or the -n namespace). */
  namespaces: { kinds: string[]; namespaces: string[] }[];
  /** Kinds read in the context's namespace only: the user may list neither them across namespaces nor the namespaces. */
  othersUnknown: { kinds: string[]; namespace: string }[];
  /** CRDs the user may not get: their status.storedVersions were not checked. */
  crds: string[];
}

/** Whether the run read all it set out to read. */
export function complete(u: Unread): boolean {
  return u.kinds.length + u.namespaces.length + u.othersUnknown.length + u.crds.length === 0;
}

/**
 * What could not be read, as one sentence: `ModelConfig in every namespace; Agent in namespaces
 * team-b, team-c; the CRDs modelconfigs.agentplat.dev (stored versions not checked)`.
 */
export function unreadText(u: Unread): string {
  const parts: string[] = [];
  if (u.kinds.length > 0) parts.push(`${u.kinds.join(', ')} (list refused)`);
  for (const n of u.namespaces) parts.push(`${n.kinds.join(', ')} in namespace${n.namespaces.length === 1 ? '' : 's'} ${n.namespaces.join(', ')}`);
  for (const o of u.othersUnknown) parts.push(`${o.kinds.join(', ')} in every namespace but ${o.namespace} (listing across namespaces and listing the namespaces were refused)`);
  if (u.crds.length > 0) parts.push(`the CRD${u.crds.length === 1 ? '' : 's'} ${u.crds.join(', ')} (get customresourcedefinitions refused: stored versions not checked)`);
  return parts.join('; ');
}

/** The fields the API server sets on an object: not part of what a user writes, dropped before the check. */
export { asWritten };

/** `<Agent team-a/support>`: an object of the cluster where a report names a file. */
export function objectLabel(kind: string, o: { metadata: { name: string; namespace?: string } }): string {
  return `<${kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}>`;
}

interface ClusterKind {
  kind: string;
  plural: string;
  /** Versions the cluster serves, in discovery order. */
  versions: string[];
}

/** The agentplat.dev kinds the cluster serves, with their versions. */
async function servedKinds(client: ClusterClient): Promise<ClusterKind[]> {
  const group = (await client.groups()).find((g) => g.name === GROUP);
  if (!group) return [];
  const kinds = new Map<string, ClusterKind>();
  for (const version of group.versions) {
    for (const r of await client.resources(GROUP, version)) {
      let k = kinds.get(r.kind);
      if (!k) kinds.set(r.kind, (k = { kind: r.kind, plural: r.name, versions: [] }));
      k.versions.push(version);
    }
  }
  return [...kinds.values()];
}

interface CrdFacts {
  storage?: string;
  storedVersions: string[];
  /** spec.versions in their order: the JSON patch of the storage switch names them by index. */
  versions: { name: string; storage: boolean }[];
}

/** The cluster's CRD of a kind: its versions and status.storedVersions; undefined when the user may not read CRDs. */
async function crdFacts(client: ClusterClient, plural: string): Promise<CrdFacts | undefined> {
  try {
    const crd = await client.get({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }, `${plural}.${GROUP}`);
    if (!crd) return undefined;
    const spec = crd.spec as { versions?: { name: string; storage?: boolean }[] } | undefined;
    const status = crd.status as { storedVersions?: string[] } | undefined;
    const versions = (spec?.versions ?? []).map((v) => ({ name: v.name, storage: v.storage === true }));
    return { storage: versions.find((v) => v.storage)?.name, storedVersions: status?.storedVersions ?? [], versions };
  } catch (e) {
    if (e instanceof ClusterError && e.status === 403) return undefined;
    throw e;
  }
}

/** The storage version of each kind's CRD in the target revision. */
function targetStorage(kind: string): string | undefined {
  for (const d of [...chartCrdDocs(), ...mcpopCrdDocs()]) {
    const spec = d.object.spec as { names: { kind: string }; versions: { name: string; storage?: boolean }[] };
    if (spec.names.kind === kind) return spec.versions.find((v) => v.storage)?.name;
  }
  return undefined;
}

/**
 * What clears a stored version the target drops, in the one order that keeps every object
 * readable: (1) the cluster's CRD switched to store at the target's version, the old one still
 * served, so that (2) writing each object again (a no-op replace) stores it at that version; only
 * then (3) the old version leaves status.storedVersions, and (4) the target CRD can be applied.
 * A rewrite before the switch stores the objects at the old version again, and once the target
 * CRD no longer lists it the API server cannot read them (StorageReadError). Undefined when the
 * cluster's CRD has no such version to switch to.
 */
export function storedVersionSteps(o: { kind: string; crdName: string; plural: string; versions: CrdFacts['versions']; to: string; revision: Revision; rewrite: boolean }): { commands: string; apply: string } | undefined {
  const at = o.versions.findIndex((v) => v.name === o.to);
  if (at < 0) return undefined;
  const ops: object[] = [];
  o.versions.forEach((v, i) => {
    const want = i === at;
    if (v.storage === want) return;
    // A test before each change: the patch fails if the CRD changed since it was read.
    ops.push({ op: 'test', path: `/spec/versions/${i}/name`, value: v.name }, { op: 'replace', path: `/spec/versions/${i}/storage`, value: want });
  });
  const commands = [
    ...(ops.length > 0 ? [`kubectl patch crd ${o.crdName} --type=json -p '${JSON.stringify(ops)}'`] : []),
    ...(o.rewrite ? [`kubectl get ${o.plural}.${o.to}.${GROUP} -A -o json | kubectl replace -f -`] : []),
    `kubectl patch crd ${o.crdName} --subresource=status --type=merge -p '${JSON.stringify({ status: { storedVersions: [o.to] } })}'`,
  ];
  return { commands: commands.join(' && '), apply: `agentplat crds -r ${o.revision} | kubectl apply --server-side --field-manager agentplat --force-conflicts -f -` };
}

function count(c: Record<string, number>, k: string): void {
  c[k] = (Object.hasOwn(c, k) ? c[k]! : 0) + 1;
}

/** Checks every agentplat.dev object of the cluster against the target revision's CRDs. */
export async function validateCluster(client: ClusterClient, opts: ClusterValidateOptions): Promise<ClusterValidateResult> {
  const target = crdValidationData();
  const rev = `revision ${opts.revision}`;
  const unread: Unread = { kinds: [], namespaces: [], othersUnknown: [], crds: [] };
  const result: ClusterValidateResult = { problems: [], objects: [], checkedKinds: {}, refusedKinds: {}, refusedCrds: [], notes: [], read: opts.namespace !== undefined ? [opts.namespace] : 'all', unread };
  if (opts.namespace !== undefined) {
    // A namespace that does not exist lists as empty: say so rather than "checked 0".
    const exists = await client.namespaceExists(opts.namespace);
    if (exists === false) throw new ClusterError(`namespace ${opts.namespace} not found (context ${client.context})`, 'check the spelling of -n; kubectl get namespaces lists them', 404);
    if (exists === undefined) result.notes.push(`could not check that namespace ${opts.namespace} exists (not allowed to get namespaces): a namespace that does not exist reads as empty`);
  }
  const kinds = await servedKinds(client);
  if (kinds.length === 0) result.notes.push(`the cluster serves no ${GROUP} resources (no agentplat CRD is installed): nothing to check`);
  /** Namespaces read, when some kind was listed namespace by namespace. */
  const readIn = new Set<string>();
  /** Every kind was listed cluster-wide (no -n). */
  let everywhere = true;
  /** Kinds by the namespaces they could not be listed in (the same namespaces, one entry). */
  const forbiddenIn = new Map<string, { kinds: string[]; namespaces: string[] }>();
  for (const k of kinds) {
    const wanted = Object.hasOwn(target, k.kind) ? target[k.kind]! : undefined;
    if (!wanted) {
      result.notes.push(`not checked: ${k.kind} (${GROUP}/${k.versions.join(', ')}): ${rev} has no CRD for this kind`);
      continue;
    }
    const crdName = `${k.plural}.${GROUP}`;
    const facts = await crdFacts(client, k.plural);
    if (!facts) unread.crds.push(crdName);
    // The version to read the objects at: the cluster's storage version when the target serves
    // it (the objects as stored), else any version both serve.
    const common = k.versions.filter((v) => wanted.versions.includes(v));
    const readAt = facts?.storage && common.includes(facts.storage) ? facts.storage : common[0];
    const listVersion = readAt ?? facts?.storage ?? k.versions[0]!;
    let listed: ListResult | undefined;
    try {
      listed = await client.list({ group: GROUP, version: listVersion, kind: k.kind }, opts.namespace !== undefined ? { namespace: opts.namespace } : {});
    } catch (e) {
      if (!(e instanceof ClusterError && e.status === 403)) throw e;
      if (opts.namespace === undefined) unread.kinds.push(k.kind);
      else {
        const entry = forbiddenIn.get(opts.namespace) ?? { kinds: [], namespaces: [opts.namespace] };
        entry.kinds.push(k.kind);
        forbiddenIn.set(opts.namespace, entry);
      }
    }
    if (listed) {
      if (listed.namespaces !== 'all') {
        for (const ns of listed.namespaces) readIn.add(ns);
        everywhere = false;
      }
      if (listed.othersUnknown) {
        const ns = listed.namespaces === 'all' ? '' : listed.namespaces.join(', ');
        const same = unread.othersUnknown.find((o) => o.namespace === ns);
        if (same) same.kinds.push(k.kind);
        else unread.othersUnknown.push({ kinds: [k.kind], namespace: ns });
      }
      if (listed.forbidden.length > 0) {
        const key = [...listed.forbidden].sort().join(', ');
        const entry = forbiddenIn.get(key) ?? { kinds: [], namespaces: [...listed.forbidden].sort() };
        entry.kinds.push(k.kind);
        forbiddenIn.set(key, entry);
      }
      for (const item of listed.items) {
        const label = objectLabel(k.kind, item);
        result.objects.push(label);
        count(result.checkedKinds, k.kind);
        const problems = readAt === undefined ? notServed(k.kind, listVersion, wanted.versions, rev, label) : refusals(item, label, k.kind);
        if (problems.length > 0) count(result.refusedKinds, k.kind);
        result.problems.push(...problems);
      }
    }
    const dropped = (facts?.storedVersions ?? []).filter((v) => !wanted.versions.includes(v));
    if (facts && dropped.length > 0) {
      result.refusedCrds.push(crdName);
      const to = targetStorage(k.kind) ?? wanted.versions[0]!;
      // Nothing to write again only when every namespace was read and held no object.
      const none = listed !== undefined && listed.items.length === 0 && opts.namespace === undefined && listed.namespaces === 'all';
      const steps = storedVersionSteps({ kind: k.kind, crdName, plural: k.plural, versions: facts.versions, to, revision: opts.revision, rewrite: !none });
      result.problems.push({
        severity: 'error',
        rule: 'crd/stored-version',
        path: 'status.storedVersions',
        message: `status.storedVersions lists ${dropped.join(', ')}, which the CRD of ${rev} does not serve (it serves ${wanted.versions.join(', ')}): the API server refuses to update this CRD`,
        hint: steps
          ? `before the upgrade, make ${to} the storage version, write every ${k.kind} again (stored at ${to} from then on) and drop ${dropped.join(', ')} from the CRD's status, in this order (one line): ${steps.commands}; then apply the CRDs of ${rev}: ${steps.apply}`
          : `the cluster's CRD has no version ${to} to store the objects at: add ${to} to it as the storage version, keeping ${dropped.join(', ')} served, write every ${k.kind} again (kubectl get ${k.plural}.${to}.${GROUP} -A -o json | kubectl replace -f -), then drop ${dropped.join(', ')} from status.storedVersions (kubectl patch crd ${crdName} --subresource=status --type=merge -p '${JSON.stringify({ status: { storedVersions: [to] } })}'); writing the objects before the switch stores them at ${dropped.join(', ')} again, which the new CRD cannot read`,
        file: `<CustomResourceDefinition ${crdName}>`,
      });
    }
  }
  unread.namespaces = [...forbiddenIn.values()].map((n) => ({ ...n, kinds: n.kinds.sort() }));
  for (const o of unread.othersUnknown) o.kinds.sort();
  unread.kinds.sort();
  unread.crds.sort();
  if (opts.namespace === undefined && !everywhere) result.read = [...readIn].sort();
  return result;
}

/** An object the cluster serves only at versions the target CRD drops. */
function notServed(kind: string, version: string, targetVersions: string[], rev: string, label: string): Problem[] {
  const to = `${GROUP}/${targetVersions[0]}`;
  return [{
    severity: 'error',
    rule: 'crd/unknown-version',
    path: 'apiVersion',
    message: `stored at ${GROUP}/${version}, which the ${kind} CRD of ${rev} does not serve (it serves ${targetVersions.map((v) => `${GROUP}/${v}`).join(', ')})`,
    hint: `without a conversion webhook the object cannot be read at ${to} after the upgrade: write it again as ${to} (convert its fields by hand) before upgrading`,
    file: label,
  }];
}

/** The target CRDs' findings on one object as written, each message without the object's own label. */
function refusals(item: KubeObject, label: string, kind: string): Problem[] {
  const written = asWritten(item);
  const own = `${kind} ${written.metadata.name}: `;
  // checkObject's problems carry no place in a file (line 0): the object's label is the place.
  return checkObject(written).map(({ problem: { line: _line, column: _column, excerpt: _excerpt, ...problem } }) => ({
    ...problem,
    message: problem.message.startsWith(own) ? problem.message.slice(own.length) : problem.message,
    file: label,
  }));
}

/** `Agent 3, ModelConfig 1`. */
export function byKind(c: Record<string, number>): string {
  return Object.keys(c).sort().map((k) => `${k} ${c[k]}`).join(', ');
}
