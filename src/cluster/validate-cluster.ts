// `validate --cluster`: every custom resource of the agentplat.dev group in a live cluster, checked
// against the CRDs of the target revision before they are applied, with the check `validate` runs
// on files (crds/validate.ts, checkObject). What it predicts:
// - an object the target CRDs refuse (schema, unknown field, CEL rule): after the upgrade the API
//   server refuses to create it as it is (a restore, a re-create by a GitOps tool) and refuses any
//   update that changes the offending field;
// - objects of a version the target CRD no longer serves;
// - a CRD whose status.storedVersions names a version the target CRD drops: the API server
//   refuses that CRD update itself until the objects are rewritten and the version is removed.
import { GROUP } from '../crds/ids.ts';
import { checkObject } from '../crds/validate.ts';
import { crdValidationData } from '../crds/validation-data.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../spec/revisions.ts';
import { asWritten, ClusterError, type ClusterClient, type KubeObject } from './client.ts';

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
}

/** The cluster's CRD of a kind: its storage version and status.storedVersions; undefined when the user may not read CRDs. */
async function crdFacts(client: ClusterClient, plural: string): Promise<CrdFacts | undefined> {
  try {
    const crd = await client.get({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }, `${plural}.${GROUP}`);
    if (!crd) return undefined;
    const spec = crd.spec as { versions?: { name: string; storage?: boolean }[] } | undefined;
    const status = crd.status as { storedVersions?: string[] } | undefined;
    return { storage: spec?.versions?.find((v) => v.storage)?.name, storedVersions: status?.storedVersions ?? [] };
  } catch (e) {
    if (e instanceof ClusterError && e.status === 403) return undefined;
    throw e;
  }
}

function count(c: Record<string, number>, k: string): void {
  c[k] = (Object.hasOwn(c, k) ? c[k]! : 0) + 1;
}

/** Checks every agentplat.dev object of the cluster against the target revision's CRDs. */
export async function validateCluster(client: ClusterClient, opts: ClusterValidateOptions): Promise<ClusterValidateResult> {
  const target = crdValidationData();
  const rev = `revision ${opts.revision}`;
  const result: ClusterValidateResult = { problems: [], objects: [], checkedKinds: {}, refusedKinds: {}, refusedCrds: [], notes: [] };
  const kinds = await servedKinds(client);
  if (kinds.length === 0) result.notes.push(`the cluster serves no ${GROUP} resources (no agentplat CRD is installed): nothing to check`);
  const forbidden = new Set<string>();
  for (const k of kinds) {
    const wanted = Object.hasOwn(target, k.kind) ? target[k.kind]! : undefined;
    if (!wanted) {
      result.notes.push(`not checked: ${k.kind} (${GROUP}/${k.versions.join(', ')}): ${rev} has no CRD for this kind`);
      continue;
    }
    const facts = await crdFacts(client, k.plural);
    if (!facts) result.notes.push(`could not read the CRD ${k.plural}.${GROUP} (not allowed to get customresourcedefinitions): its stored versions were not checked`);
    const crdName = `${k.plural}.${GROUP}`;
    const dropped = (facts?.storedVersions ?? []).filter((v) => !wanted.versions.includes(v));
    if (dropped.length > 0) {
      result.refusedCrds.push(crdName);
      const keep = wanted.versions.join(', ');
      result.problems.push({
        severity: 'error',
        rule: 'crd/stored-version',
        path: 'status.storedVersions',
        message: `status.storedVersions lists ${dropped.join(', ')}, which the CRD of ${rev} does not serve (it serves ${keep}): the API server refuses to update this CRD`,
        hint: `write every ${k.kind} again at ${GROUP}/${wanted.versions[0]} (kubectl get ${crdName} -A -o json | kubectl replace -f -), then drop ${dropped.join(', ')} from the CRD's status (kubectl patch crd ${crdName} --subresource=status --type=merge -p '{"status":{"storedVersions":["${wanted.versions[0]}"]}}')`,
        file: `<CustomResourceDefinition ${crdName}>`,
      });
    }
    // The version to read the objects at: the cluster's storage version when the target serves
    // it (the objects as stored), else any version both serve.
    const common = k.versions.filter((v) => wanted.versions.includes(v));
    const readAt = facts?.storage && common.includes(facts.storage) ? facts.storage : common[0];
    const listVersion = readAt ?? facts?.storage ?? k.versions[0]!;
    const listed = await client.list({ group: GROUP, version: listVersion, kind: k.kind }, opts.namespace !== undefined ? { namespace: opts.namespace } : {});
    for (const ns of listed.forbidden) forbidden.add(ns);
    for (const item of listed.items) {
      const label = objectLabel(k.kind, item);
      result.objects.push(label);
      count(result.checkedKinds, k.kind);
      const problems = readAt === undefined ? notServed(k.kind, listVersion, wanted.versions, rev, label) : refusals(item, label, k.kind);
      if (problems.length > 0) count(result.refusedKinds, k.kind);
      result.problems.push(...problems);
    }
  }
  if (forbidden.size > 0) result.notes.push(`not checked: namespaces where you may not list these resources: ${[...forbidden].sort().join(', ')}`);
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
