// `diff --cluster --applyset`: the ApplySet parent as `kubectl apply --prune --applyset` treats it
// (KEP-3659, kubectl's apply command). Before kubectl applies any object it reads the parent and
// refuses the whole apply when the parent is not one of its own sets: another tool's set (the
// tooling annotation names another tool), an object that is no parent at all (an ordinary Secret:
// no tooling annotation, no id label), a parent of another set (its id label), or one whose kinds
// annotation it cannot read. Else it writes the parent's label and annotations, as field manager
// `kubectl-applyset`, forced: the kinds and namespaces of the set. Those it prunes are the members
// of the kinds and namespaces the parent listed before the apply, no others.
//
// Here the same checks are made on the live parent, in kubectl's order and with kubectl's words,
// and the parent's update is asked as a dry run under kubectl's field manager: the prediction is
// `created`, `changed` (the labels and annotations that change), `unchanged`, or `refused` with
// kubectl's reason. Nothing is written.
import { asWritten, type ApiResource, type ClusterClient, type KubeObject } from '../cluster/client.ts';
import { UsageError } from '../problems/errors.ts';
import { displayId, keyStep, type ObjectChange, type ObjectId } from './objects.ts';
import type { Preflight } from './live.ts';

export const APPLYSET_ID_LABEL = 'applyset.kubernetes.io/id';
export const APPLYSET_TOOLING = 'applyset.kubernetes.io/tooling';
export const APPLYSET_KINDS = 'applyset.kubernetes.io/contains-group-kinds';
/** The annotation older kubectl wrote in place of the kinds (`resource.group` words); still read. */
export const APPLYSET_RESOURCES = 'applyset.kubernetes.io/contains-group-resources';
export const APPLYSET_NAMESPACES = 'applyset.kubernetes.io/additional-namespaces';
const PARENT_TYPE_LABEL = 'applyset.kubernetes.io/is-parent-type';

/** The tool the apply runs: kubectl names its sets after itself, and updates parents as `<tool>-applyset`. */
export const KUBECTL = 'kubectl';
export const KUBECTL_PARENT_MANAGER = `${KUBECTL}-applyset`;
/** kubectl writes `kubectl/` and its own version, which no request to the cluster tells. */
export const KUBECTL_TOOLING_UNKNOWN = `${KUBECTL}/<kubectl version>`;

const CRD = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };

/** `--applyset` as given: a Secret or ConfigMap (resolved offline), or a custom resource `RESOURCE.GROUP/NAME`. */
export type ParentFlag = { kind: 'Secret' | 'ConfigMap'; name: string; namespace: string } | { resource: string; group: string; name: string; namespace: string };

/** The parent, resolved against the cluster's discovery as kubectl resolves the flag. */
export interface ParentRef extends ObjectId {
  version: string;
  /** The plural of its REST path (`secrets`, `applysets`). */
  resource: string;
  /** A Secret or ConfigMap: kubectl creates it when it does not exist. */
  builtin: boolean;
}

export interface ParentChange {
  /** `metadata.labels["applyset.kubernetes.io/id"]`, as diff spells a field. */
  path: string;
  /** Absent: the key is not there (before), or kubectl's update removes it (after). */
  live?: string;
  new?: string;
}

export type ParentStatus = 'created' | 'changed' | 'unchanged' | 'refused';

/** What `kubectl apply --prune --applyset` does to the parent (JSON: `applySet`). */
export interface ParentPrediction extends ObjectId {
  /** The set's id (`applyset.kubernetes.io/id`, the members' `part-of`). */
  id: string;
  status: ParentStatus;
  /** refused: kubectl's reason, in its words. */
  message?: string;
  /** refused: what to do about it. */
  hint?: string;
  /** created, changed: the labels and annotations kubectl writes, live → new. */
  changes: ParentChange[];
}

/** The preflight with the parent's prediction (diff --cluster --applyset). */
export type ApplySetPreflight = Preflight & { applySet?: ParentPrediction };

/**
 * The parent the flag names, as the cluster serves it. A custom resource the cluster does not
 * serve is a usage error (kubectl stops at the flag too); its CRD's label is checked later, as
 * kubectl checks it, and reported as a refusal.
 */
export async function resolveParent(flag: ParentFlag, raw: string, cluster: ClusterClient): Promise<ParentRef> {
  if ('kind' in flag) return { group: '', version: 'v1', kind: flag.kind, resource: `${flag.kind.toLowerCase()}s`, namespace: flag.namespace, name: flag.name, builtin: true };
  const served = (await cluster.groups()).find((g) => g.name === flag.group);
  const res = served && (await cluster.resources(flag.group, served.preferredVersion)).find((r) => r.name === flag.resource);
  if (!res) {
    throw new UsageError(`--applyset ${raw}: the cluster serves no resource ${flag.resource}.${flag.group}`, 'a custom-resource parent is RESOURCE.GROUP/NAME of a CRD labelled applyset.kubernetes.io/is-parent-type (kubectl api-resources lists the names); a Secret parent is NAME');
  }
  return { group: flag.group, version: res.version, kind: res.kind, resource: res.name, namespace: res.namespaced ? flag.namespace : '', name: flag.name, builtin: false };
}

/** kubectl's `<resource>.<group>/<name>`, how its messages name the parent. */
function kubectlRef(p: ParentRef): string {
  return `${p.resource}.${p.group}/${p.name}`;
}

/** The tool a tooling annotation names: `helm/v3` → `helm`, everything before the last `/`. */
export function toolingName(tooling: string): string {
  const i = tooling.lastIndexOf('/');
  return i < 0 ? tooling : tooling.slice(0, i);
}

/** `Kind` or `Kind.group`, as the kinds annotation spells a group-kind. */
const groupKind = (group: string, kind: string): string => (group === '' ? kind : `${kind}.${group}`);

/** Go's sort.Strings order (bytes), in which kubectl writes both annotations. */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The cluster's resources of one group, every version it serves (a kind is found at any of them). */
async function groupResources(cluster: ClusterClient, group: string, cache: Map<string, Promise<ApiResource[]>>): Promise<ApiResource[]> {
  let hit = cache.get(group);
  if (!hit) {
    hit = (async () => {
      const versions = group === '' ? ['v1'] : ((await cluster.groups()).find((g) => g.name === group)?.versions ?? []);
      return (await Promise.all(versions.map((v) => cluster.resources(group, v)))).flat();
    })();
    cache.set(group, hit);
  }
  return hit;
}

type Refusal = { message: string; hint: string };

/**
 * The kinds the live parent lists, read as kubectl reads them: the kinds annotation (present and
 * empty is an empty set), else the older resources annotation, else a refusal; a kind the cluster
 * does not serve is a refusal too.
 */
async function currentKinds(annotations: Record<string, string>, cluster: ClusterClient, cache: Map<string, Promise<ApiResource[]>>): Promise<Set<string> | Refusal> {
  const out = new Set<string>();
  const fix = `apply the release with the kinds it had, or set ${APPLYSET_KINDS} on the parent to the kinds its members have now`;
  if (Object.hasOwn(annotations, APPLYSET_KINDS)) {
    const text = annotations[APPLYSET_KINDS]!;
    if (text === '') return out;
    for (const word of text.split(',')) {
      const dot = word.indexOf('.');
      const [kind, group] = dot < 0 ? [word, ''] : [word.slice(0, dot), word.slice(dot + 1)];
      if (!(await groupResources(cluster, group, cache)).some((r) => r.kind === kind)) {
        return { message: `could not find mapping for kind in "${APPLYSET_KINDS}" annotation: no matches for kind "${kind}" in group "${group}"`, hint: `the cluster no longer serves ${word} (its CRD was removed?): ${fix}` };
      }
      out.add(groupKind(group, kind));
    }
    return out;
  }
  const resources = annotations[APPLYSET_RESOURCES] ?? '';
  if (resources === '') {
    return { message: `kubectl requires the "${APPLYSET_KINDS}" annotation to be set on all ApplySet parent objects`, hint: `annotate the parent with ${APPLYSET_KINDS} (the kinds of its members, e.g. "ConfigMap,Deployment.apps"; "" for none), or name another parent with --applyset` };
  }
  for (const word of resources.split(',')) {
    const dot = word.indexOf('.');
    const [resource, group] = dot < 0 ? [word, ''] : [word.slice(0, dot), word.slice(dot + 1)];
    const found = (await groupResources(cluster, group, cache)).find((r) => r.name === resource);
    if (!found) return { message: `invalid group resource in "${APPLYSET_RESOURCES}" annotation: the server does not serve ${word}`, hint: fix };
    out.add(groupKind(group, found.kind));
  }
  return out;
}

/** kubectl's checks of the live parent, in its order: the first that fails is its refusal. */
async function refusalOf(p: ParentRef, id: string, live: KubeObject | undefined, cluster: ClusterClient, cache: Map<string, Promise<ApiResource[]>>): Promise<Refusal | Set<string> | undefined> {
  const ref = kubectlRef(p);
  if (!live) {
    if (p.builtin) return undefined;
    return {
      message: 'custom resource ApplySet parents cannot be created automatically',
      hint: `create ${p.kind} ${p.name} once, labelled ${APPLYSET_ID_LABEL}: ${id} and annotated ${APPLYSET_TOOLING}: kubectl/v1 and ${APPLYSET_KINDS}: "" (docs/commands.md, "Pruning with ApplySets")`,
    };
  }
  const labels = (live.metadata.labels ?? {}) as Record<string, string>;
  const annotations = (live.metadata.annotations ?? {}) as Record<string, string>;
  const what = `${p.kind} ${p.namespace ? `${p.namespace}/` : ''}${p.name}`;
  if (!Object.hasOwn(annotations, APPLYSET_TOOLING)) {
    return {
      message: `ApplySet parent object "${ref}" already exists and is missing required annotation "${APPLYSET_TOOLING}"`,
      hint: `${what} is not an ApplySet parent (an object of its own, or made by hand): name another --applyset parent for this release; kubectl creates a Secret or ConfigMap parent that does not exist`,
    };
  }
  const tool = toolingName(annotations[APPLYSET_TOOLING]!);
  if (tool !== KUBECTL) {
    return {
      message: `ApplySet parent object "${ref}" already exists and is managed by tooling "${tool}" instead of "${KUBECTL}"`,
      hint: `${what} is the parent of a set ${tool === '' ? 'no tool claims' : `"${tool}" manages`} (${APPLYSET_TOOLING}: ${JSON.stringify(annotations[APPLYSET_TOOLING])}), and kubectl never takes another tool's set over: name another --applyset parent for this release, or let ${tool === '' ? 'its owner' : tool} apply it`,
    };
  }
  if (!Object.hasOwn(labels, APPLYSET_ID_LABEL)) {
    return { message: `ApplySet parent object "${ref}" exists and does not have required label ${APPLYSET_ID_LABEL}`, hint: `label ${what} ${APPLYSET_ID_LABEL}=${id} (the id kubectl computes for it), or name another --applyset parent` };
  }
  if (labels[APPLYSET_ID_LABEL] !== id) {
    return {
      message: `ApplySet parent object "${ref}" exists and has incorrect value for label "${APPLYSET_ID_LABEL}" (got: ${labels[APPLYSET_ID_LABEL]}, want: ${id})`,
      hint: `${what} carries the id of another parent (copied from another name, namespace or kind): its members are labelled with that id, not this one; name the parent the set was made with in --applyset`,
    };
  }
  const kinds = await currentKinds(annotations, cluster, cache);
  if (kinds instanceof Set) return kinds;
  return { message: `parsing ApplySet annotation on "${ref}": ${kinds.message}`, hint: kinds.hint };
}

function isCrd(o: KubeObject): boolean {
  return o.kind === 'CustomResourceDefinition' && o.apiVersion.startsWith(`${CRD.group}/`);
}

/**
 * The kinds and namespaces this apply adds to the set, as kubectl counts them: every object it
 * can map (its kind served; CRDs stay out of a set, the release applies them apart), a namespaced
 * object in its namespace or the parent's.
 */
async function renderedScope(desired: readonly KubeObject[], parentNs: string, cluster: ClusterClient): Promise<{ kinds: Set<string>; namespaces: Set<string> }> {
  const kinds = new Set<string>();
  const namespaces = new Set<string>();
  for (const o of desired) {
    if (isCrd(o)) continue;
    const slash = o.apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', o.apiVersion] : [o.apiVersion.slice(0, slash), o.apiVersion.slice(slash + 1)];
    const res = (await cluster.resources(group, version)).find((r) => r.kind === o.kind);
    if (!res) continue;
    kinds.add(groupKind(group, o.kind));
    if (res.namespaced) namespaces.add(typeof o.metadata.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : parentNs);
  }
  return { kinds, namespaces };
}

function metadataChanges(before: KubeObject | undefined, after: KubeObject): ParentChange[] {
  const out: ParentChange[] = [];
  for (const field of ['labels', 'annotations'] as const) {
    const old = (before?.metadata[field] ?? {}) as Record<string, string>;
    const now = (after.metadata[field] ?? {}) as Record<string, string>;
    for (const k of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort(byteOrder)) {
      if (old[k] === now[k]) continue;
      out.push({ path: keyStep(`metadata.${field}`, k), ...(old[k] !== undefined ? { live: old[k] } : {}), ...(now[k] !== undefined ? { new: now[k] } : {}) });
    }
  }
  return out;
}

/**
 * kubectl's part of `--applyset` for this preflight: the parent's checks and update (with the
 * render's kinds and namespaces; with those it had as well when kubectl skips the prune, which
 * keeps the superset), and the members it would prune, narrowed to the kinds and namespaces the
 * live parent lists (a member elsewhere is named in a note: kubectl does not look there).
 */
export async function applySetPreflight(cluster: ClusterClient, p: ParentRef, id: string, desired: readonly KubeObject[], result: Preflight): Promise<ApplySetPreflight> {
  const cache = new Map<string, Promise<ApiResource[]>>();
  const head = { group: p.group, kind: p.kind, namespace: p.namespace, name: p.name, id };
  const refuse = (r: Refusal): ApplySetPreflight => ({ ...result, applySet: { ...head, status: 'refused', message: r.message, hint: r.hint, changes: [] } });

  if (!p.builtin) {
    const crd = await cluster.get(CRD, `${p.resource}.${p.group}`);
    const labels = (crd?.metadata.labels ?? {}) as Record<string, string>;
    if (!Object.hasOwn(labels, PARENT_TYPE_LABEL)) {
      return refuse({
        message: `resource "${p.group}/${p.version}, Resource=${p.resource}" is not permitted as an ApplySet parent`,
        hint: `kubectl takes a custom-resource parent only of a kind whose CRD is labelled ${PARENT_TYPE_LABEL}: label CustomResourceDefinition ${p.resource}.${p.group} ${PARENT_TYPE_LABEL}=true`,
      });
    }
  }
  const gvk = { group: p.group, version: p.version, kind: p.kind };
  const live = await cluster.get(gvk, p.name, p.namespace || undefined);
  const checked = await refusalOf(p, id, live, cluster, cache);
  if (checked !== undefined && !(checked instanceof Set)) return refuse(checked);

  const before = { kinds: checked ?? new Set<string>(), namespaces: new Set<string>(((live?.metadata.annotations as Record<string, string> | undefined)?.[APPLYSET_NAMESPACES] ?? '').split(',').filter((n) => n !== '')) };
  if (p.namespace !== '') before.namespaces.add(p.namespace);
  const rendered = await renderedScope(desired, p.namespace, cluster);
  // kubectl writes the superset before the apply, and the render's own set after a prune.
  const pruneSkipped = result.rejections.length + result.conflicts.length + result.unchecked.length > 0;
  const kinds = pruneSkipped ? new Set([...before.kinds, ...rendered.kinds]) : rendered.kinds;
  const namespaces = pruneSkipped ? new Set([...before.namespaces, ...rendered.namespaces]) : rendered.namespaces;
  namespaces.delete(p.namespace);
  const liveTooling = (live?.metadata.annotations as Record<string, string> | undefined)?.[APPLYSET_TOOLING];
  const parent: KubeObject = {
    apiVersion: p.group === '' ? p.version : `${p.group}/${p.version}`,
    kind: p.kind,
    metadata: {
      name: p.name,
      ...(p.namespace !== '' ? { namespace: p.namespace } : {}),
      labels: { [APPLYSET_ID_LABEL]: id },
      annotations: {
        [APPLYSET_TOOLING]: liveTooling ?? KUBECTL_TOOLING_UNKNOWN,
        [APPLYSET_KINDS]: [...kinds].sort(byteOrder).join(','),
        [APPLYSET_NAMESPACES]: [...namespaces].sort(byteOrder).join(','),
      },
    },
  };
  // kubectl forces the parent's update when another manager owns a field of it.
  const answer = await cluster.applyDryRun(parent, { fieldManager: KUBECTL_PARENT_MANAGER, force: true });
  if (!answer.ok) return refuse({ message: `failed to update ApplySet: ${answer.refusal.message}`, hint: `kubectl updates the parent as field manager ${KUBECTL_PARENT_MANAGER} (server-side apply): see the server's reason` });
  const changes = metadataChanges(live ? asWritten(live) : undefined, answer.object);
  const status: ParentStatus = !live ? 'created' : changes.length > 0 ? 'changed' : 'unchanged';

  // The members kubectl would prune: only of the kinds, and in the namespaces, the parent listed.
  const inScope = (c: ObjectChange): boolean => before.kinds.has(groupKind(c.group, c.kind)) && (c.namespace === '' || before.namespaces.has(c.namespace));
  const outside = result.comparison.changes.filter((c) => c.status === 'removed' && !inScope(c));
  const notes = [...result.notes];
  if (outside.length > 0) {
    const n = outside.length;
    notes.push(
      `${n} member${n === 1 ? '' : 's'} of the ApplySet ${n === 1 ? 'is' : 'are'} not in the render, but the parent ${live ? 'does not list' : 'does not exist yet to list'} ${n === 1 ? 'its' : 'their'} kind or namespace (${APPLYSET_KINDS}, ${APPLYSET_NAMESPACES}): kubectl apply --prune --applyset does not look there and leaves ${n === 1 ? 'it' : 'them'}; delete ${n === 1 ? 'it' : 'them'} by hand: ${outside.map(displayId).join(', ')}`,
    );
  }
  return {
    ...result,
    comparison: { ...result.comparison, changes: result.comparison.changes.filter((c) => !outside.includes(c)) },
    notes,
    applySet: { ...head, status, changes },
  };
}
