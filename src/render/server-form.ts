// The rendered objects written as the API server stores them. A field the render writes in
// another form than the server keeps (a quantity not in canonical form, a field left for the
// server to default inside a field the server owns whole, an empty value the server drops, a
// Secret's write-only stringData) is owned by whoever applied it, yet differs from the stored
// object: a second field manager applying the same render (`kubectl apply --server-side` under
// another name) is then refused with a conflict on it. Written in the stored form, every apply of
// the render, under any field manager, agrees with the server. Only the kinds of the core API
// are rewritten (the server stores a custom resource's fields as they are sent).
//
// Each rule is one the cluster suite found by applying every fixture's render twice, under two
// field managers (test/cluster/second-manager.test.ts), and checks again there:
// - quantities in their stored form (./quantity.ts) wherever the core API has a Quantity;
// - `fieldRef` (the downward API's ObjectFieldSelector, an atomic field) with `apiVersion: v1`,
//   which the server defaults;
// - an env var's `value: ""`, a probe's `initialDelaySeconds: 0`, and an empty `data`,
//   `stringData` or `binaryData` of a Secret or ConfigMap: dropped, as the server drops them;
// - a Secret's `stringData` merged into `data`, base64-encoded, as the server stores it.

import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import { storedQuantity } from './quantity.ts';

const REMOVE = Symbol('remove');
type Edit = (v: unknown) => unknown;

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The rules of one kind as a tree of path segments (`[]`: each list item, `*`: each map value),
 * so that an object is walked once for all of them: at each place, the edits under it first,
 * then its own. The rules of a kind touch places that do not hold one another's edits (an env
 * var's `value`, its `valueFrom.fieldRef`), so the order between them is not seen.
 */
interface RuleTree {
  edits: Edit[];
  each?: RuleTree;
  any?: RuleTree;
  keys?: Map<string, RuleTree>;
}

function ruleTree(list: readonly Rule[]): RuleTree {
  const root: RuleTree = { edits: [] };
  for (const r of list) {
    let t = root;
    for (const seg of r.path.split('.')) {
      if (seg === '[]') t = t.each ??= { edits: [] };
      else if (seg === '*') t = t.any ??= { edits: [] };
      else {
        t.keys ??= new Map();
        let next = t.keys.get(seg);
        if (!next) t.keys.set(seg, (next = { edits: [] }));
        t = next;
      }
    }
    t.edits.push(r.edit);
  }
  return root;
}

/** `node` with every edit of `t` applied where its path reaches; the same object where nothing changed. An edit returning REMOVE deletes the key (or the list item). */
function applyTree(t: RuleTree, node: unknown): unknown {
  let out = node;
  if (Array.isArray(node)) {
    if (t.each) {
      const each = t.each;
      const items = node.map((x) => applyTree(each, x));
      if (items.some((y, k) => y !== node[k])) out = items.filter((y) => y !== REMOVE);
    }
  } else if (isMap(node)) {
    let copy: Record<string, unknown> | undefined;
    if (t.any) {
      for (const k of Object.keys(node)) {
        const y = applyTree(t.any, node[k]);
        if (y === node[k]) continue;
        copy ??= { ...node };
        if (y === REMOVE) delete copy[k];
        else copy[k] = y;
      }
    }
    if (t.keys) {
      for (const [k, sub] of t.keys) {
        const at = copy ?? node;
        if (!Object.hasOwn(at, k)) continue;
        const y = applyTree(sub, at[k]);
        if (y === at[k]) continue;
        copy ??= { ...node };
        if (y === REMOVE) delete copy[k];
        else copy[k] = y;
      }
    }
    out = copy ?? node;
  }
  for (const edit of t.edits) {
    if (out === REMOVE) break;
    out = edit(out);
  }
  return out;
}

const listQuantity: Edit = (v) => storedQuantity(v, true);
const quantity: Edit = (v) => storedQuantity(v, false);
const emptyMapDropped: Edit = (v) => (isMap(v) && Object.keys(v).length === 0 ? REMOVE : v);
const fieldRefDefaulted: Edit = (v) => (isMap(v) && v.apiVersion === undefined ? { apiVersion: 'v1', ...v } : v);

interface Rule {
  path: string;
  edit: Edit;
}

const rules = (base: string, list: [string, Edit][]): Rule[] => list.map(([p, edit]) => ({ path: base ? `${base}.${p}` : p, edit }));

/** What the server stores differently inside a pod spec, relative to it. */
const POD_SPEC: [string, Edit][] = [
  ...['containers', 'initContainers', 'ephemeralContainers'].flatMap((c): [string, Edit][] => [
    [`${c}.[].resources.limits.*`, listQuantity],
    [`${c}.[].resources.requests.*`, listQuantity],
    [`${c}.[].env.[].valueFrom.resourceFieldRef.divisor`, quantity],
    [`${c}.[].env.[].valueFrom.fieldRef`, fieldRefDefaulted],
    [`${c}.[].env.[]`, (e) => (isMap(e) && e.value === '' ? withoutKey(e, 'value') : e)],
    ...['livenessProbe', 'readinessProbe', 'startupProbe'].map((p): [string, Edit] => [`${c}.[].${p}.initialDelaySeconds`, (v) => (v === 0 ? REMOVE : v)]),
  ]),
  ['overhead.*', listQuantity],
  ['resources.limits.*', listQuantity],
  ['resources.requests.*', listQuantity],
  ['volumes.[].emptyDir.sizeLimit', quantity],
  ['volumes.[].ephemeral.volumeClaimTemplate.spec.resources.limits.*', listQuantity],
  ['volumes.[].ephemeral.volumeClaimTemplate.spec.resources.requests.*', listQuantity],
  ...['volumes.[].downwardAPI', 'volumes.[].projected.sources.[].downwardAPI'].flatMap((d): [string, Edit][] => [
    [`${d}.items.[].resourceFieldRef.divisor`, quantity],
    [`${d}.items.[].fieldRef`, fieldRefDefaulted],
  ]),
];

const HPA_TARGETS = ['resource', 'containerResource', 'pods', 'object', 'external'].flatMap((m): [string, Edit][] => [
  [`spec.metrics.[].${m}.target.value`, quantity],
  [`spec.metrics.[].${m}.target.averageValue`, quantity],
]);

/** `group/Kind` (the core group empty) → its rules. */
const KIND_RULES: Record<string, Rule[]> = {
  '/Pod': rules('spec', POD_SPEC),
  '/PodTemplate': rules('template.spec', POD_SPEC),
  '/ReplicationController': rules('spec.template.spec', POD_SPEC),
  'apps/Deployment': rules('spec.template.spec', POD_SPEC),
  'apps/ReplicaSet': rules('spec.template.spec', POD_SPEC),
  'apps/DaemonSet': rules('spec.template.spec', POD_SPEC),
  'apps/StatefulSet': [
    ...rules('spec.template.spec', POD_SPEC),
    ...rules('spec.volumeClaimTemplates.[].spec.resources', [
      ['limits.*', listQuantity],
      ['requests.*', listQuantity],
    ]),
  ],
  'batch/Job': rules('spec.template.spec', POD_SPEC),
  'batch/CronJob': rules('spec.jobTemplate.spec.template.spec', POD_SPEC),
  '/PersistentVolumeClaim': rules('spec.resources', [
    ['limits.*', listQuantity],
    ['requests.*', listQuantity],
  ]),
  '/PersistentVolume': rules('spec', [['capacity.*', listQuantity]]),
  '/ResourceQuota': rules('spec', [['hard.*', listQuantity]]),
  '/LimitRange': rules('spec.limits.[]', ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'].map((k): [string, Edit] => [`${k}.*`, listQuantity])),
  'autoscaling/HorizontalPodAutoscaler': rules('', [...HPA_TARGETS, ['spec.behavior.scaleUp.tolerance', quantity], ['spec.behavior.scaleDown.tolerance', quantity]]),
  '/ConfigMap': rules('', [
    ['data', emptyMapDropped],
    ['binaryData', emptyMapDropped],
  ]),
};

/** Each kind's rules as a tree, made the first time an object of the kind is written. */
const KIND_TREES = new Map<string, RuleTree>();

function kindTree(kind: string): RuleTree | undefined {
  let tree = KIND_TREES.get(kind);
  if (tree === undefined && Object.hasOwn(KIND_RULES, kind)) KIND_TREES.set(kind, (tree = ruleTree(KIND_RULES[kind]!)));
  return tree;
}

function withoutKey(m: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = m;
  return rest;
}

/** A Secret as stored: stringData (write-only) merged into data, base64; no empty maps. */
function storedSecret(o: K8sObject): K8sObject {
  let out: Record<string, unknown> = o;
  if (isMap(o.stringData)) {
    const encoded = Object.fromEntries(Object.entries(o.stringData).map(([k, v]) => [k, Buffer.from(String(v), 'utf8').toString('base64')]));
    out = { ...withoutKey(o, 'stringData'), data: { ...(isMap(o.data) ? o.data : {}), ...encoded } };
  }
  if (isMap(out.data) && Object.keys(out.data).length === 0) out = withoutKey(out, 'data');
  return out as K8sObject;
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** One object as the API server stores it (the same object when nothing differs). */
export function storedForm(o: K8sObject): K8sObject {
  const group = groupOf(o.apiVersion);
  if (group === '' && o.kind === 'Secret') return storedSecret(o);
  const tree = kindTree(`${group}/${o.kind}`);
  return tree ? (applyTree(tree, o) as K8sObject) : o;
}

/** The rendered documents, each object as the API server stores it. */
export function storedForms(docs: readonly RenderedDoc[]): RenderedDoc[] {
  return docs.map((d) => {
    const object = storedForm(d.object);
    return object === d.object ? d : { ...d, object };
  });
}
