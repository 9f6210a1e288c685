// The API server's rules for object metadata (names, namespaces, label and annotation keys and
// values, owner references), in one place for every stage that checks them: `validate` on the
// user's resources, render on the objects it made, lint on the values that feed them, `-l`.
// Each check returns why a value breaks its rule, or undefined; callers place the finding.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** The API server's limit on the bytes of all annotation keys and values of one object. */
export const ANNOTATIONS_TOTAL_MAX = 256 * 1024;

export interface NameRule {
  test(name: string): boolean;
  max: number;
  /** What a valid name is, as a phrase after "must be". */
  what: string;
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

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** The rule the API server applies to `metadata.name` of a kind (custom resources: a subdomain). */
export function nameRuleOf(kind: string): NameRule {
  if (kind === 'Namespace') return LABEL_RULE;
  if (kind === 'Service') return DNS1035_RULE;
  if (RBAC_KINDS.has(kind)) return PATH_SEGMENT_RULE;
  return SUBDOMAIN_RULE;
}

/** Why `name` cannot be the name of a `kind` object, or undefined. */
export function nameProblem(name: string, kind: string): string | undefined {
  const rule = nameRuleOf(kind);
  if (name.length > rule.max) return `it must be ${rule.what}, and it has ${name.length} characters`;
  if (!rule.test(name)) return `it must be ${rule.what}`;
  return undefined;
}

/**
 * Why `prefix` cannot be a `metadata.generateName`: the server appends five characters and checks
 * the result by the kind's name rule, so a trailing "-" is fine and the prefix must leave room.
 */
export function generateNameProblem(prefix: string, kind: string): string | undefined {
  const rule = nameRuleOf(kind);
  const masked = prefix.replace(/-$/, 'a');
  if (masked.length > rule.max) return `the prefix must leave room in ${rule.max} characters, and it has ${prefix.length}`;
  if (!rule.test(masked)) return `the prefix must start a name that is ${rule.what}`;
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
export function metadataFindings(kind: string, metadata: unknown): MetaFinding[] {
  const out: MetaFinding[] = [];
  if (!isMap(metadata)) return out;
  const at = (...path: (string | number)[]) => ['metadata', ...path];
  const { name, generateName, namespace, labels, annotations, ownerReferences } = metadata;
  if (typeof name === 'string' && name !== '') {
    const why = nameProblem(name, kind);
    if (why) out.push({ path: at('name'), message: `metadata.name "${name}" is not a valid ${kind} name: ${why}` });
  }
  if (typeof generateName === 'string' && generateName !== '' && (typeof name !== 'string' || name === '')) {
    const why = generateNameProblem(generateName, kind);
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
      if (ref.controller === true) controllers++;
    });
    if (controllers > 1) out.push({ path: at('ownerReferences'), message: `only one owner reference may have controller: true, found ${controllers}` });
  }
  return out;
}
