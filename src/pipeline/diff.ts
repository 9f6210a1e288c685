// The `diff` operation: the two sides of compareSides, and with `cluster` the new side against the
// live cluster (src/diff/live.ts), the old side (another render) being what was applied last.
// Returns data; the CLI (cli/commands/diff-run.ts) formats it and picks the exit code.
import type { ValuesChangeEffect } from './no-effect.ts';
import { UsageError } from '../problems/errors.ts';
import { redact } from '../problems/secrets.ts';
import { applySetId, parseApplySetFlag } from '../render/applyset.ts';
import { nameProblem } from '../kube-check/metadata.ts';
import { ClusterError, type ClusterClient, type KubeObject } from '../cluster/client.ts';
import { showChanges, type ShownChange } from '../diff/shown.ts';
import { preflight, type IgnoreRule } from '../diff/live.ts';
import type { ClusterInfo } from '../diff/live.ts';
import { applySetPreflight, resolveParent, type ApplySetPreflight, type ParentFlag } from '../diff/applyset-parent.ts';
import type { ManifestObject } from '../diff/objects.ts';
import { compareSides, comparedObjects, inertValuesChange, maskFor, type CompareRequest, type Sides } from './compare.ts';

/** `diff --cluster`: where the cluster is and how the render would be applied. */
export interface ClusterDiffRequest {
  kubeconfig?: string;
  /** The kubeconfig context (--kube-context). */
  context?: string;
  /** Where the kubeconfig is looked up (KUBECONFIG, HOME). */
  env: Readonly<Record<string, string | undefined>>;
  fieldManager: string;
  /** The ApplySet parent as --applyset takes it: `[KIND/]NAME`, or `RESOURCE.GROUP/NAME`. */
  applyset?: string;
  ignore: readonly IgnoreRule[];
}

export interface DiffRequest extends CompareRequest {
  cluster?: ClusterDiffRequest;
}

export interface LiveComparison {
  result: ApplySetPreflight;
  /** The changes, masked as diff shows them. */
  shown: ShownChange[];
  info: ClusterInfo;
}

export interface DiffOutcome {
  /** The two sides compared; undefined when a side has no objects (see the sides handed to `onSide`). */
  sides?: Sides;
  /** Without `cluster`: the keys at which two values sets of one revision differ, and those of them that change nothing rendered. */
  valuesWithoutEffect?: ValuesChangeEffect;
  /** With `cluster`: the render against the live cluster. */
  live?: LiveComparison;
}

export async function diffOperation(req: DiffRequest): Promise<DiffOutcome> {
  const sides = await compareSides(req);
  if (!sides) return {};
  if (req.cluster) return { sides, live: await liveComparison(req, req.cluster, sides) };
  const inert = await inertValuesChange(sides, req.from, req.to, req.against);
  return { sides, ...(inert ? { valuesWithoutEffect: inert } : {}) };
}

/** The new side's render against the live cluster; the old side, when it is another render, is what was applied last (drift is measured against it). */
async function liveComparison(req: DiffRequest, cluster: ClusterDiffRequest, sides: Sides): Promise<LiveComparison> {
  const { before, after } = sides;
  const single = req.single === true;
  // Checked before any request: a bad --applyset never reaches the cluster.
  const parent = cluster.applyset !== undefined ? applySetParent(cluster.applyset, req.namespace) : undefined;
  const desired: ManifestObject[] = after.objects;
  comparedObjects(single ? [] : before.objects, desired);
  const { connect } = await import('../cluster/connect.ts');
  const client = await connect({ kubeconfig: cluster.kubeconfig, context: cluster.context, contextFlag: '--kube-context', namespace: req.namespace }, { cwd: req.reader.cwd, env: cluster.env });
  await checkReleaseNamespace(client, req.namespace, desired);
  const parentRef = parent === undefined ? undefined : await resolveParent(parent, cluster.applyset!, client);
  const applySet = parentRef === undefined ? undefined : applySetId(parentRef);
  const { secrets, mask } = await maskFor(single ? [after] : [before, after]);
  const checked = await preflight(client, {
    desired,
    ...(single ? {} : { lastApplied: before.objects }),
    release: req.releaseName,
    fieldManager: cluster.fieldManager,
    ...(applySet !== undefined ? { applySetId: applySet } : {}),
    ignore: [...cluster.ignore],
    mask,
    redact: (text) => redact(text, secrets),
  });
  // kubectl's checks and update of the parent, and the members it would really prune.
  const result: ApplySetPreflight = parentRef === undefined ? checked : await applySetPreflight(client, parentRef, applySet!, desired.map((d) => d.object as KubeObject), checked);
  const info: ClusterInfo = { context: client.context, server: client.server, fieldManager: cluster.fieldManager, ...(applySet !== undefined ? { applySet } : {}) };
  return { result, shown: showChanges(result.comparison, mask), info };
}

/**
 * The release's namespace (-n) must exist, unless the render creates it: in a namespace that does
 * not exist every dry run is refused, and the release's objects where it does live would all be
 * listed as not in the render, yours to delete. A user who may not get namespaces goes on.
 */
async function checkReleaseNamespace(client: ClusterClient, namespace: string, desired: readonly ManifestObject[]): Promise<void> {
  if (desired.some(({ object: o }) => o.kind === 'Namespace' && o.apiVersion === 'v1' && (o.metadata as { name?: string } | undefined)?.name === namespace)) return;
  if ((await client.namespaceExists(namespace)) !== false) return;
  throw new ClusterError(`namespace ${namespace} not found (context ${client.context})`, `check the spelling of -n; for a first install create it first (kubectl create namespace ${namespace})`, 404);
}

/**
 * `--applyset`: a Secret or ConfigMap parent as `render --applyset` reads it, or a custom-resource
 * parent spelled as kubectl spells it, `RESOURCE.GROUP/NAME`
 * (`applysets.platform.example.com/agentplat`), whose kind and scope the cluster tells.
 */
function applySetParent(raw: string, namespace: string): ParentFlag {
  const slash = raw.indexOf('/');
  const resource = slash >= 0 ? raw.slice(0, slash) : '';
  if (!resource.includes('.') || resource.endsWith('.')) return parseApplySetFlag(raw, namespace);
  const name = raw.slice(slash + 1);
  const problem = nameProblem(name, 'ApplySet');
  if (problem !== undefined) throw new UsageError(`--applyset ${raw}: "${name}" is not a valid name: ${problem}`, 'e.g. --applyset applysets.platform.example.com/agentplat');
  const dot = resource.indexOf('.');
  return { resource: resource.slice(0, dot), group: resource.slice(dot + 1), name, namespace };
}
