// The API server's rules for object metadata (names, namespaces, label and annotation keys and
// values, owner references), in one place for every stage that checks them: `validate` on the
// user's resources, render on the objects it made, lint on the values that feed them, `-l`.
// Each check returns why a value breaks its rule, or undefined; callers place the finding.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** An owner's apiVersion as the API server parses it: a version alone, or group/version with a version. */
const API_VERSION = /^[^/]*$|^[^/]*\/[^/]+$/;

/** The API server's limit on the bytes of all annotation keys and values of one object. */
export const ANNOTATIONS_TOTAL_MAX = 256 * 1024;

export interface NameRule {
  test(name: string): boolean;
  max: number;
  /** What a valid name is, as a phrase after "must be". */
  what: string;
  /** The rule a generateName prefix is held to, when not this one. */
  prefix?: NameRule;
}

const SUBDOMAIN_RULE: NameRule = {
  test: (n) => DNS1123_SUBDOMAIN.test(n),
  max: 253,
  what: 'a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters)',
};
const LABEL_RULE: NameRule = {
  test: (n) => DNS1123_LABEL.test(n),
  max: 63,
  what: 'a DNS-1123 label (lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters)',
};
const DNS1035_RULE: NameRule = {
  test: (n) => DNS1035_LABEL.test(n),
  max: 63,
  what: 'a DNS-1035 label (lower-case letters, digits and "-", starting with a letter and ending with a letter or digit, at most 63 characters)',
};
/** RBAC objects only need a name that can be one segment of a URL path. */
const PATH_SEGMENT_RULE: NameRule = {
  test: (n) => n !== '' && n !== '.' && n !== '..' && !/[/%]/.test(n),
  max: Infinity,
  what: 'usable as one segment of a URL path (not "." or "..", no "/" or "%")',
};

/** A CronJob's Jobs are named after it plus 11 characters, and a Job name must be a label value. */
const CRONJOB_RULE: NameRule = {
  test: SUBDOMAIN_RULE.test,
  max: 52,
  what: 'a DNS-1123 subdomain of at most 52 characters (the Jobs of a CronJob are named after it, 11 characters longer)',
  prefix: SUBDOMAIN_RULE,
};
/** A Job's name becomes the value of the `batch.kubernetes.io/job-name` label of its Pods. */
const JOB_RULE: NameRule = {
  test: SUBDOMAIN_RULE.test,
  max: 63,
  what: 'a DNS-1123 subdomain of at most 63 characters (it becomes the value of the batch.kubernetes.io/job-name label of its Pods)',
  prefix: SUBDOMAIN_RULE,
};

/** Kinds whose names the API server only requires to be one segment of a URL path. */
const PATH_SEGMENT_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'PodDisruptionBudget']);

/**
 * The first Kubernetes minor version whose API server takes Service names that are DNS-1123
 * labels (a leading digit allowed) rather than DNS-1035 labels: RelaxedServiceNameValidation,
 * beta and on by default from 1.36 (KEP-5311). A 1.34 server refuses `1agent`, a 1.37 one takes it
 * (test/cluster/validate-agreement.test.ts).
 */
export const RELAXED_SERVICE_NAMES_SINCE = '1.36';

export interface MetaOptions {
  /** Service names are DNS-1123 labels (Kubernetes 1.36 and newer); by default DNS-1035 labels, which every version takes. */
  relaxedServiceNames?: boolean;
}

/** The rule the API server applies to `metadata.name` of a kind (custom resources: a subdomain). */
export function nameRuleOf(kind: string, opts: MetaOptions = {}): NameRule {
  if (kind === 'Namespace') return LABEL_RULE;
  if (kind === 'Service') return opts.relaxedServiceNames ? LABEL_RULE : DNS1035_RULE;
  if (kind === 'CronJob') return CRONJOB_RULE;
  if (kind === 'Job') return JOB_RULE;
  if (PATH_SEGMENT_KINDS.has(kind)) return PATH_SEGMENT_RULE;
  return SUBDOMAIN_RULE;
}

/** Why `name` cannot be the name of a `kind` object, or undefined. */
export function nameProblem(name: string, kind: string, opts: MetaOptions = {}): string | undefined {
  const rule = nameRuleOf(kind, opts);
  if (name.length > rule.max) return `it must be ${rule.what}, and it has ${name.length} characters`;
  if (!rule.test(name)) return `it must be ${rule.what}`;
  return undefined;
}

/** The API server cuts a generateName to this many characters before it appends 5 random ones. */
const GENERATED_PREFIX_MAX = 58;

/**
 * Why `prefix` cannot be a `metadata.generateName`, or undefined. The API server checks it even
 * beside a name: by the kind's rule (a subdomain for Jobs and CronJobs) with a trailing "-" masked
 * (its last two characters read as one letter), and for path-segment kinds only for "/" and "%". When the name is to be made from it
 * (`generates`), the name is the prefix cut to 58 characters plus 5, checked by the kind's rule.
 */
export function generateNameProblem(prefix: string, kind: string, generates = true, opts: MetaOptions = {}): string | undefined {
  const rule = nameRuleOf(kind, opts);
  if (rule === PATH_SEGMENT_RULE) return /[/%]/.test(prefix) ? `the prefix must not hold "/" or "%"` : undefined;
  const masked = prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix;
  const own = rule.prefix ?? rule;
  if (masked.length > own.max) return `the prefix must start a name that is ${own.what}, and it has ${prefix.length} characters`;
  if (!own.test(masked)) return `the prefix must start a name that is ${own.what}`;
  const generated = Math.min(prefix.length, GENERATED_PREFIX_MAX) + 5;
  if (generates && generated > rule.max) return `the names made from it have ${generated} characters (the prefix, cut to ${GENERATED_PREFIX_MAX}, and 5 more), and a name must be ${rule.what}`;
  return undefined;
}

/** Why `name` is not a DNS-1123 label (a container's, a volume's, a Service port's name), or undefined. */
export function dnsLabelProblem(name: string): string | undefined {
  if (name.length > LABEL_RULE.max) return `it must be ${LABEL_RULE.what}, and it has ${name.length} characters`;
  if (!LABEL_RULE.test(name)) return `it must be ${LABEL_RULE.what}`;
  return undefined;
}

/** Why `namespace` is not a namespace name, or undefined. */
export function namespaceProblem(namespace: string): string | undefined {
  if (namespace.length > 63) return `a namespace must be ${LABEL_RULE.what}, and it has ${namespace.length} characters`;
  if (!DNS1123_LABEL.test(namespace)) return `a namespace must be ${LABEL_RULE.what}`;
  return undefined;
}

const NAME_PART_RULE = 'at most 63 characters: letters, digits, "-", "_" and ".", starting and ending with a letter or digit';

/** Why `key` is not a qualified name (label and annotation keys: `[prefix/]name`), or undefined. */
export function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'it has more than one "/": a key is name or prefix/name';
  const [prefix, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : [undefined, parts[0]!];
  if (prefix !== undefined && (prefix === '' || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return `its prefix "${prefix}" is not a DNS subdomain (lower-case letters, digits, "-" and ".", at most 253 characters)`;
  }
  if (name === '') return 'it has no name';
  if (name.length > 63 || !QUALIFIED_NAME_PART.test(name)) return `its name "${name}" breaks the rule for key names: ${NAME_PART_RULE}`;
  return undefined;
}

/** Why `key` is not a label key, or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  return qualifiedNameProblem(key);
}

/** Why `value` is not a label value, or undefined (empty is valid). */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63 || !QUALIFIED_NAME_PART.test(value)) return `a label value must be empty or ${NAME_PART_RULE}`;
  return undefined;
}

/** Why `key` is not an annotation key, or undefined (the server checks the lower-cased key). */
export function annotationKeyProblem(key: string): string | undefined {
  return qualifiedNameProblem(key.toLowerCase());
}

/** The bytes the API server counts for an object's annotations (keys and values, UTF-8). */
export function annotationsSize(annotations: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const [k, v] of Object.entries(annotations)) n += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  return n;
}

/** One metadata finding: where in the object, and why. */
export interface MetaFinding {
  path: (string | number)[];
  message: string;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Every way `metadata` of a `kind` object breaks the API server's rules. Types are the schema's
 * business: a field of the wrong type is skipped here.
 */
export function metadataFindings(kind: string, metadata: unknown, opts: MetaOptions = {}): MetaFinding[] {
  const out: MetaFinding[] = [];
  if (!isMap(metadata)) return out;
  const at = (...path: (string | number)[]) => ['metadata', ...path];
  const { name, generateName, namespace, labels, annotations, ownerReferences } = metadata;
  const named = typeof name === 'string' && name !== '';
  if (named) {
    const why = nameProblem(name, kind, opts);
    if (why) out.push({ path: at('name'), message: `metadata.name "${name}" is not a valid ${kind} name: ${why}` });
  }
  if (typeof generateName === 'string' && generateName !== '') {
    const why = generateNameProblem(generateName, kind, !named, opts);
    if (why) out.push({ path: at('generateName'), message: `metadata.generateName "${generateName}" is not valid: ${why}` });
  }
  if (typeof namespace === 'string' && namespace !== '') {
    const why = namespaceProblem(namespace);
    if (why) out.push({ path: at('namespace'), message: `metadata.namespace "${namespace}" is not valid: ${why}` });
  }
  if (isMap(labels)) {
    for (const [k, v] of Object.entries(labels)) {
      const keyWhy = labelKeyProblem(k);
      if (keyWhy) out.push({ path: at('labels', k), message: `label key "${k}" is not valid: ${keyWhy}` });
      const valueWhy = typeof v === 'string' ? labelValueProblem(v) : undefined;
      if (valueWhy) out.push({ path: at('labels', k), message: `label ${k}: "${v as string}" is not a valid value: ${valueWhy}` });
    }
  }
  if (isMap(annotations)) {
    for (const k of Object.keys(annotations)) {
      const why = annotationKeyProblem(k);
      if (why) out.push({ path: at('annotations', k), message: `annotation key "${k}" is not valid: ${why}` });
    }
    const size = annotationsSize(annotations);
    if (size > ANNOTATIONS_TOTAL_MAX) {
      out.push({ path: at('annotations'), message: `the annotations take ${size} bytes; the API server takes at most ${ANNOTATIONS_TOTAL_MAX} (256 KiB) of keys and values together` });
    }
  }
  if (Array.isArray(ownerReferences)) {
    let controllers = 0;
    ownerReferences.forEach((ref, i) => {
      if (!isMap(ref)) return;
      for (const field of ['apiVersion', 'kind', 'name', 'uid']) {
        if (typeof ref[field] !== 'string' || ref[field] === '') out.push({ path: at('ownerReferences', i, field), message: `metadata.ownerReferences[${i}].${field} must not be empty` });
      }
      const { apiVersion, kind: ownerKind } = ref;
      if (typeof apiVersion === 'string' && apiVersion !== '' && !API_VERSION.test(apiVersion)) {
        out.push({ path: at('ownerReferences', i, 'apiVersion'), message: `metadata.ownerReferences[${i}].apiVersion "${apiVersion}" must be <group>/<version> or <version>` });
      } else if (apiVersion === 'v1' && ownerKind === 'Event') {
        out.push({ path: at('ownerReferences', i), message: `metadata.ownerReferences[${i}]: an Event (v1) cannot own other objects` });
      }
      if (ref.controller === true) controllers++;
    });
    if (controllers > 1) out.push({ path: at('ownerReferences'), message: `only one owner reference may have controller: true, found ${controllers}` });
  }
  return out;
}
