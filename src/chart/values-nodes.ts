// The building blocks of the values model: leaf and group nodes, per-revision defaults, and
// the JSON-schema fragments for the value kinds the spec names (quantity, duration, ports...).

import type { Revision } from './revisions.ts';

export type JsonSchema = { [keyword: string]: unknown };

/** Key names as a tree: each key maps to the names below it (an empty map for a leaf). */
export type KeyTree = { [key: string]: KeyTree };

/** A default that differs between revisions. */
export class ByRevision<T = unknown> {
  constructor(readonly A: T, readonly B: T) {}
}

/** The spec's type words (spec/values-rows.json), so a test can compare them row by row. */
export type TypeWord = 'string' | 'bool' | 'int' | 'quantity' | 'duration' | 'int-or-string' | 'object' | 'list';

interface NodeBase {
  /** One line in our own words; becomes the YAML comment and the schema description. */
  doc: string;
  /** Present in one revision only. */
  only?: Revision;
  /** Known to the schema but not written to the defaults file (absent means "not set"). */
  optional?: boolean;
  /** A section heading written above this key in the defaults file. */
  banner?: string;
}

export interface Leaf extends NodeBase {
  kind: 'leaf';
  type: TypeWord;
  schema: JsonSchema | ByRevision<JsonSchema>;
  default: unknown;
  /** The linter never echoes the value of a secret key. */
  secret?: boolean;
}

export interface Group extends NodeBase {
  kind: 'group';
  children: Record<string, Node>;
  /**
   * Undefined: closed (unknown keys are errors). `true`: other keys allowed, unchecked.
   * A schema with `$ref`: the whole object also validates against it (a Kubernetes type whose
   * documented keys are children here). Any other schema: the schema of the other keys.
   */
  open?: true | JsonSchema;
  patternProperties?: Record<string, JsonSchema> | ByRevision<Record<string, JsonSchema>>;
}

/** A key whose shape differs between revisions (ui.env, rbac). */
export interface Split extends NodeBase {
  kind: 'split';
  A: Node;
  B: Node;
}

export type Node = Leaf | Group | Split;

export type LeafOptions = Partial<Pick<Leaf, 'only' | 'optional' | 'banner' | 'secret'>>;
export type GroupOptions = Partial<Pick<Group, 'only' | 'optional' | 'banner' | 'open' | 'patternProperties'>>;

export function leaf(type: TypeWord, schema: Leaf['schema'], def: unknown, doc: string, opts: LeafOptions = {}): Leaf {
  return { kind: 'leaf', type, schema, default: def, doc, ...opts };
}

export function group(doc: string, children: Record<string, Node>, opts: GroupOptions = {}): Group {
  return { kind: 'group', doc, children, ...opts };
}

export function split(doc: string, a: Node, b: Node): Split {
  return { kind: 'split', doc, A: a, B: b };
}

export const only = (rev: Revision, opts: LeafOptions & GroupOptions = {}) => ({ ...opts, only: rev });

// ---- schema fragments -------------------------------------------------------------------

/** Kubernetes resource quantity: 128Mi, 50m, 1, 0.5, 2Gi, 1e3. */
export const QUANTITY_PATTERN = '^([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$';
/** Go duration (30m, 1h, 1800s, 168h, 250ms, 1h30m) or "0". */
export const DURATION_PATTERN = '^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$';
/** Same, or empty (empty keeps the component's own default). */
export const DURATION_OR_EMPTY_PATTERN = '^$|^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$';
/** An nginx time value (the UI reverse proxy's directives): 1800s, 30m, 1800. */
export const NGINX_TIME_PATTERN = '^([0-9]+(ms|s|m|h|d|w|M|y)?)+$';
/** A DNS-1123 label (namespace names). */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** An HTTP header field name (RFC 9110 token). */
export const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";

/**
 * Bounds of a 32-bit integer: replicas, ports, seconds of a probe and most counts of a Kubernetes
 * object are int32 fields, and the API server refuses anything outside. Every integer of the
 * values stays within them.
 */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

export const S = {
  string: (): JsonSchema => ({ type: 'string' }),
  stringEnum: (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] }),
  stringPattern: (pattern: string): JsonSchema => ({ type: 'string', pattern }),
  bool: (): JsonSchema => ({ type: 'boolean' }),
  int: (min: number = INT32_MIN, max: number = INT32_MAX): JsonSchema => ({ type: 'integer', minimum: min, maximum: max }),
  nullableInt: (min: number = INT32_MIN): JsonSchema => ({ type: ['integer', 'null'], minimum: min, maximum: INT32_MAX }),
  port: (): JsonSchema => ({ type: 'integer', minimum: 1, maximum: 65535 }),
  /** Quantities also accept a bare number, as Kubernetes does (cpu: 1, cpu: 0.5). */
  quantity: (): JsonSchema => ({ anyOf: [{ type: 'string', pattern: QUANTITY_PATTERN }, { type: 'number', minimum: 0 }] }),
  duration: (allowEmpty: boolean): JsonSchema => ({ type: 'string', pattern: allowEmpty ? DURATION_OR_EMPTY_PATTERN : DURATION_PATTERN }),
  /** PDB threshold: a count or a percentage; null leaves it unset. */
  intOrPercent: (nullable: boolean): JsonSchema => ({
    anyOf: [
      { type: 'integer', minimum: 0, maximum: INT32_MAX },
      { type: 'string', pattern: '^([0-9]{1,2}%|100%)$' },
      ...(nullable ? [{ type: 'null' }] : []),
    ],
  }),
  stringMap: (): JsonSchema => ({ type: 'object', additionalProperties: { type: 'string' } }),
  openObject: (): JsonSchema => ({ type: 'object' }),
  stringList: (itemPattern?: string): JsonSchema => ({
    type: 'array',
    items: itemPattern ? { type: 'string', pattern: itemPattern } : { type: 'string' },
  }),
  objectList: (): JsonSchema => ({ type: 'array', items: { type: 'object' } }),
  /** A Kubernetes type from the definitions derived at generation time. */
  k8s: (type: string): JsonSchema => ({ $ref: `#/definitions/${type}` }),
  k8sList: (type: string): JsonSchema => ({ type: 'array', items: { $ref: `#/definitions/${type}` } }),
};

/** Kubernetes types the values pass through; the generator derives these and what they reference. */
export const K8S = {
  affinity: 'IoK8sApiCoreV1Affinity',
  toleration: 'IoK8sApiCoreV1Toleration',
  topologySpread: 'IoK8sApiCoreV1TopologySpreadConstraint',
  resources: 'IoK8sApiCoreV1ResourceRequirements',
  podSecurityContext: 'IoK8sApiCoreV1PodSecurityContext',
  securityContext: 'IoK8sApiCoreV1SecurityContext',
  envVar: 'IoK8sApiCoreV1EnvVar',
  envFrom: 'IoK8sApiCoreV1EnvFromSource',
  volume: 'IoK8sApiCoreV1Volume',
  volumeMount: 'IoK8sApiCoreV1VolumeMount',
  probe: 'IoK8sApiCoreV1Probe',
  localObjectReference: 'IoK8sApiCoreV1LocalObjectReference',
  policyRule: 'IoK8sApiRbacV1PolicyRule',
  container: 'IoK8sApiCoreV1Container',
  lifecycle: 'IoK8sApiCoreV1Lifecycle',
  hostAlias: 'IoK8sApiCoreV1HostAlias',
  resizePolicy: 'IoK8sApiCoreV1ContainerResizePolicy',
} as const;
