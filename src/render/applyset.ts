// `--applyset [KIND/]NAME`: the release as an ApplySet (KEP-3659). Every object gets the
// applyset.kubernetes.io/part-of label, and a parent object (a Secret or ConfigMap in the release
// namespace) joins the output with the id label and the annotations a pruning tool reads to find
// the members: which group-kinds they are, and which namespaces besides the parent's they live in.
import { UsageError } from '../problems/errors.ts';
import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import { addLabels } from './labels.ts';
import { isCrd } from './crd-protect.ts';

export const APPLYSET_PART_OF = 'applyset.kubernetes.io/part-of';
export const APPLYSET_ID = 'applyset.kubernetes.io/id';
export const APPLYSET_TOOLING = 'applyset.kubernetes.io/tooling';
export const APPLYSET_GROUP_KINDS = 'applyset.kubernetes.io/contains-group-kinds';
export const APPLYSET_NAMESPACES = 'applyset.kubernetes.io/additional-namespaces';

/** The `# Source:` path of the parent object (and its file under --output-dir). */
export const APPLYSET_PARENT_SOURCE = 'agentplat/applyset-parent.yaml';

export interface ApplySetParent {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  namespace: string;
}

/** Resource words kubectl's --applyset takes for the two built-in parent types, and what each is. */
const PARENT_KINDS: Record<string, ApplySetParent['kind']> = { secret: 'Secret', secrets: 'Secret', configmap: 'ConfigMap', configmaps: 'ConfigMap', cm: 'ConfigMap' };
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Reads the flag the way kubectl spells its own: `NAME` (a Secret), `secrets/NAME` or
 * `configmaps/NAME`. Custom-resource parents are refused: kubectl cannot create them, so the
 * parent in the output would be the only place they come from.
 */
export function parseApplySetFlag(raw: string, namespace: string): ApplySetParent {
  const slash = raw.indexOf('/');
  const resource = slash >= 0 ? raw.slice(0, slash).replace(/\.$/, '') : 'secrets';
  const name = slash >= 0 ? raw.slice(slash + 1) : raw;
  const kind = PARENT_KINDS[resource.toLowerCase()];
  if (!kind) {
    throw new UsageError(`--applyset: "${resource}" cannot be an ApplySet parent here`, 'write --applyset NAME (a Secret), secrets/NAME or configmaps/NAME; custom-resource parents must exist before kubectl can use them');
  }
  if (name === '' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    throw new UsageError(`--applyset: "${name}" is not a valid ${kind} name`, 'lower-case letters, digits, "-" and ".", at most 253 characters, e.g. --applyset agentplat');
  }
  return { kind, name, namespace };
}

/**
 * The id kubectl gives an ApplySet: the URL-safe, unpadded base64 of the SHA-256 of
 * `<name>.<namespace>.<kind>.<group>` (the core group is the empty string), wrapped in
 * `applyset-…-v1` so the label value starts and ends with a letter.
 */
export function applySetId(parent: { name: string; namespace: string; kind: string; group?: string }): string {
  // node:crypto when an ApplySet is asked for, not at every start-up (model/checksum.ts says why)
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(`${parent.name}.${parent.namespace}.${parent.kind}.${parent.group ?? ''}`).digest('base64url');
  return `applyset-${digest}-v1`;
}

/** `Kind` for the core group, `Kind.group` otherwise (how the group-kinds annotation names them). */
function groupKind(o: K8sObject): string {
  const slash = o.apiVersion.indexOf('/');
  return slash < 0 ? o.kind : `${o.kind}.${o.apiVersion.slice(0, slash)}`;
}

/** Go's sort.Strings order (bytes), which the annotations are written in, not the locale's. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The documents as an ApplySet: CRDs first (never members), the parent, then every other object
 * labelled as a member. An
 * object without a namespace of a namespaced kind lands in the release namespace, which is the
 * parent's, so only explicit other namespaces are listed. A member that already carries the
 * part-of label with another value belongs to another set: a UsageError.
 */
export function toApplySet(docs: readonly RenderedDoc[], parent: ApplySetParent, tooling: string): RenderedDoc[] {
  const id = applySetId(parent);
  const crds = docs.filter(isCrdDoc);
  const members = addLabels(docs.filter((d) => !isCrdDoc(d)), { [APPLYSET_PART_OF]: id }, '--applyset');
  const kinds = [...new Set(members.map((d) => groupKind(d.object)))].sort(byteOrder);
  const namespaces = [...new Set(members.map((d) => d.object.metadata.namespace).filter((ns): ns is string => typeof ns === 'string' && ns !== '' && ns !== parent.namespace))].sort(byteOrder);
  const object: K8sObject = {
    apiVersion: 'v1',
    kind: parent.kind,
    metadata: {
      name: parent.name,
      namespace: parent.namespace,
      labels: { [APPLYSET_ID]: id },
      annotations: {
        [APPLYSET_NAMESPACES]: namespaces.join(','),
        [APPLYSET_GROUP_KINDS]: kinds.join(','),
        [APPLYSET_TOOLING]: tooling,
      },
    },
  };
  return [...crds, { source: APPLYSET_PARENT_SOURCE, object }, ...members];
}

/**
 * CustomResourceDefinitions stay out of the set: a prune that removes a CRD deletes every custom
 * resource of its kind (all agents), and a later render with the CRDs left out would do just that.
 */
function isCrdDoc(d: RenderedDoc): boolean {
  return isCrd(d.object);
}
