// The API server's Go validation of core objects that their OpenAPI schema cannot say, for the
// faults a chart's objects can have; each is a named rule. What is checked (README, "What
// validate checks in core objects"):
// - crd/selector-mismatch: a workload's (Deployment, ReplicaSet, StatefulSet, DaemonSet)
//   spec.selector is a valid label selector (as a PodDisruptionBudget's), is not empty and selects
//   its own spec.template.metadata.labels; a ReplicationController's selector, when set, too.
// - crd/container-name: every container, init container and ephemeral container of a pod spec
//   has a DNS-1123 label as its name, and no two share one.
// - crd/port-range: port numbers are 1-65535 (a container's containerPort, a non-zero hostPort,
//   a Service's port and a non-zero targetPort, probe and lifecycle ports, a NetworkPolicy's
//   ports), and a named port is an IANA service name (at most 15 lower-case letters, digits and
//   "-", with a letter, no "-" at either end nor "--").
// - crd/port-range also: an Ingress backend's Service port (a number or a name, not both), a
//   Service port's name (a DNS-1123 label, unique, required when there are several ports).
// - crd/pod-template: a container's image is set, a volume mount names a volume of the pod, a
//   workload's pods restart Always and a Job's OnFailure or Never.
// - crd/rbac-binding: a RoleBinding's or ClusterRoleBinding's roleRef and subjects are of the
//   kinds and API groups the API server takes.
// An empty `containers` list is the schema's required-field finding.
import type { Path, SchemaIssue } from './openapi-check.ts';
import { pathText } from './openapi-check.ts';
import { labelKeyProblem, labelValueProblem } from '../k8s-meta.ts';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((cur, k) => (isObject(cur) ? cur[k] : undefined), v);

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `name` is not an IANA service name (a port's name), or undefined. */
export function ianaServiceNameProblem(name: string): string | undefined {
  if (name.length > 15) return 'it must be at most 15 characters';
  if (!/^[-a-z0-9]+$/.test(name)) return 'it must be lower-case letters, digits and "-"';
  if (!/[a-z]/.test(name)) return 'it must contain at least one letter';
  if (name.startsWith('-') || name.endsWith('-')) return 'it must not begin or end with "-"';
  if (name.includes('--')) return 'it must not contain "--"';
  return undefined;
}

const WORKLOADS = new Set(['apps/v1/Deployment', 'apps/v1/ReplicaSet', 'apps/v1/StatefulSet', 'apps/v1/DaemonSet']);

/** Where the pod specs of an object of `key` (`group/version/Kind`) are. */
function podSpecPaths(key: string): Path[] {
  switch (key) {
    case 'v1/Pod':
      return [['spec']];
    case 'v1/PodTemplate':
      return [['template', 'spec']];
    case 'v1/ReplicationController':
    case 'batch/v1/Job':
      return [['spec', 'template', 'spec']];
    case 'batch/v1/CronJob':
      return [['spec', 'jobTemplate', 'spec', 'template', 'spec']];
    default:
      return WORKLOADS.has(key) ? [['spec', 'template', 'spec']] : [];
  }
}

/** Does the label selector select `labels`? Unknown operators select nothing. */
function selects(selector: Obj, labels: Obj): boolean {
  const ml = at(selector, 'matchLabels');
  if (isObject(ml)) for (const [k, v] of Object.entries(ml)) if (labels[k] !== v) return false;
  const me = at(selector, 'matchExpressions');
  if (Array.isArray(me)) {
    for (const e of me) {
      if (!isObject(e)) return false;
      const key = String(e.key);
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      const has = Object.hasOwn(labels, key);
      switch (e.operator) {
        case 'In':
          if (!has || !values.includes(String(labels[key]))) return false;
          break;
        case 'NotIn':
          if (has && values.includes(String(labels[key]))) return false;
          break;
        case 'Exists':
          if (!has) return false;
          break;
        case 'DoesNotExist':
          if (has) return false;
          break;
        default:
          return false;
      }
    }
  }
  return true;
}

/** Where to point for the template's labels when they are not there: the nearest part that is. */
function templateLabelsAt(data: Obj): { at?: Path } {
  const full: Path = ['spec', 'template', 'metadata', 'labels'];
  for (let n = full.length; n > 0; n--) if (at(data, ...(full.slice(0, n) as string[])) !== undefined) return n === full.length ? {} : { at: full.slice(0, n) };
  return { at: [] };
}

/**
 * A label selector the API server refuses as one: matchLabels that are not labels, an operator
 * outside In, NotIn, Exists and DoesNotExist, values missing for In and NotIn or given for Exists
 * and DoesNotExist, a key that is not a label key.
 */
function labelSelectorIssues(selector: Obj, base: Path): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const ml = at(selector, 'matchLabels');
  if (isObject(ml)) {
    for (const [k, v] of Object.entries(ml)) {
      const why = labelKeyProblem(k) ?? (typeof v === 'string' ? labelValueProblem(v) : undefined);
      if (why) out.push({ rule: 'crd/selector-mismatch', path: [...base, 'matchLabels', k], message: `${pathText([...base, 'matchLabels'])}: ${k}: ${JSON.stringify(v)} is not a label: ${why}`, hint: 'a selector selects by labels the pods can carry' });
    }
  }
  const me = at(selector, 'matchExpressions');
  if (Array.isArray(me)) {
    me.forEach((e, i) => {
      if (!isObject(e)) return;
      const p: Path = [...base, 'matchExpressions', i];
      const values = Array.isArray(e.values) ? e.values : [];
      const keyWhy = typeof e.key === 'string' ? labelKeyProblem(e.key) : undefined;
      if (keyWhy) out.push({ rule: 'crd/selector-mismatch', path: [...p, 'key'], message: `${pathText([...p, 'key'])} ${JSON.stringify(e.key)} is not a label key: ${keyWhy}` });
      if (e.operator === 'In' || e.operator === 'NotIn') {
        if (values.length === 0) out.push({ rule: 'crd/selector-mismatch', path: [...p, 'values'], message: `${pathText([...p, 'values'])} must hold at least one value when the operator is ${e.operator}`, at: p });
      } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
        if (values.length > 0) out.push({ rule: 'crd/selector-mismatch', path: [...p, 'values'], message: `${pathText([...p, 'values'])} must be empty when the operator is ${e.operator}` });
      } else if (typeof e.operator === 'string') {
        out.push({ rule: 'crd/selector-mismatch', path: [...p, 'operator'], message: `${pathText([...p, 'operator'])} ${JSON.stringify(e.operator)} is not a selector operator: In, NotIn, Exists or DoesNotExist` });
      }
    });
  }
  return out;
}

function selectorIssues(key: string, data: Obj): SchemaIssue[] {
  const labels = at(data, 'spec', 'template', 'metadata', 'labels');
  const labelMap = isObject(labels) ? labels : {};
  if (key === 'policy/v1/PodDisruptionBudget') {
    const selector = at(data, 'spec', 'selector');
    return isObject(selector) ? labelSelectorIssues(selector, ['spec', 'selector']) : [];
  }
  if (WORKLOADS.has(key)) {
    const selector = at(data, 'spec', 'selector');
    // A missing selector is the schema's required-field finding.
    if (!isObject(selector)) return [];
    const invalid = labelSelectorIssues(selector, ['spec', 'selector']);
    if (invalid.length > 0) return invalid;
    const ml = at(selector, 'matchLabels');
    const me = at(selector, 'matchExpressions');
    const empty = !(isObject(ml) && Object.keys(ml).length > 0) && !(Array.isArray(me) && me.length > 0);
    if (empty) {
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'selector'], message: 'spec.selector is empty, and an empty selector is not allowed for a workload: it would select every pod', hint: 'select the pods by the labels of spec.template.metadata.labels under spec.selector.matchLabels' }];
    }
    // The API server names the template's labels (they are what fails to match), as here.
    if (!selects(selector, labelMap)) {
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'template', 'metadata', 'labels'], message: 'spec.selector does not match spec.template.metadata.labels: the workload would not own the pods it creates', hint: 'give the pod template every label of spec.selector.matchLabels, with the same values', ...templateLabelsAt(data) }];
    }
    return [];
  }
  if (key === 'v1/ReplicationController') {
    const selector = at(data, 'spec', 'selector');
    if (isObject(selector) && Object.keys(selector).length > 0 && !selects({ matchLabels: selector }, labelMap)) {
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'template', 'metadata', 'labels'], message: 'spec.selector does not match spec.template.metadata.labels', hint: 'give the pod template every label of spec.selector, with the same values', ...templateLabelsAt(data) }];
    }
  }
  return [];
}

/** A port number 1-65535 (`zeroOk`: 0 means "not set"), or for `named`, a port name. */
function portIssue(value: unknown, path: Path, opts: { zeroOk?: boolean; named?: boolean }): SchemaIssue | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value === 0 && opts.zeroOk) return undefined;
    if (value < 1 || value > 65535) return { rule: 'crd/port-range', path, message: `${pathText(path)} must be a port number from 1 to 65535, found ${value}` };
    return undefined;
  }
  if (typeof value === 'string' && opts.named) {
    if (value === '' && opts.zeroOk) return undefined;
    const why = ianaServiceNameProblem(value);
    if (why) return { rule: 'crd/port-range', path, message: `${pathText(path)} ${JSON.stringify(value)} is neither a port number nor a port name: ${why}`, hint: 'a port name is an IANA service name such as http or metrics' };
  }
  return undefined;
}

const HANDLER_PORTS: [string, string][] = [
  ['httpGet', 'port'],
  ['tcpSocket', 'port'],
  ['grpc', 'port'],
];

function containerIssues(spec: Obj, base: Path, out: SchemaIssue[]): void {
  const seen = new Map<string, string>();
  const volumes = new Set((Array.isArray(spec.volumes) ? spec.volumes : []).map((v) => (isObject(v) ? v.name : undefined)).filter((n): n is string => typeof n === 'string'));
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      if (!isObject(c)) return;
      const cpath = [...base, list, i];
      const name = c.name;
      if (typeof name === 'string' && name !== '') {
        if (name.length > 63 || !DNS1123_LABEL.test(name)) {
          out.push({ rule: 'crd/container-name', path: [...cpath, 'name'], message: `${pathText([...cpath, 'name'])} ${JSON.stringify(name)} must be a DNS-1123 label (lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters)`, hint: 'e.g. my-app' });
        } else if (seen.has(name)) {
          out.push({ rule: 'crd/container-name', path: [...cpath, 'name'], message: `${pathText([...cpath, 'name'])} ${JSON.stringify(name)} is also the name of ${seen.get(name)}: container names must be unique in a pod`, hint: 'give each container of the pod its own name' });
        } else seen.set(name, pathText(cpath));
      }
      if (list !== 'ephemeralContainers' && (c.image === undefined || c.image === '')) {
        out.push({ rule: 'crd/pod-template', path: [...cpath, 'image'], message: `${pathText([...cpath, 'image'])} is required`, hint: 'name the container image, e.g. registry.example.com/app:1.0', at: cpath });
      }
      const mounts = c.volumeMounts;
      if (Array.isArray(mounts)) {
        mounts.forEach((m, j) => {
          if (isObject(m) && typeof m.name === 'string' && m.name !== '' && !volumes.has(m.name)) {
            out.push({ rule: 'crd/pod-template', path: [...cpath, 'volumeMounts', j, 'name'], message: `${pathText([...cpath, 'volumeMounts', j, 'name'])} ${JSON.stringify(m.name)} names no volume of the pod`, hint: `add a volume named ${m.name} under ${pathText([...base, 'volumes'])}, or mount one that is there` });
          }
        });
      }
      const ports = c.ports;
      if (Array.isArray(ports)) {
        ports.forEach((p, j) => {
          if (!isObject(p)) return;
          const ppath = [...cpath, 'ports', j];
          const issue = portIssue(p.containerPort, [...ppath, 'containerPort'], {}) ?? portIssue(p.hostPort, [...ppath, 'hostPort'], { zeroOk: true });
          if (issue) out.push(issue);
          if (typeof p.name === 'string' && p.name !== '') {
            const why = ianaServiceNameProblem(p.name);
            if (why) out.push({ rule: 'crd/port-range', path: [...ppath, 'name'], message: `${pathText([...ppath, 'name'])} ${JSON.stringify(p.name)} is not a port name: ${why}`, hint: 'a port name is an IANA service name such as http or metrics' });
          }
        });
      }
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        for (const [handler, field] of HANDLER_PORTS) {
          const v = at(c, probe, handler, field);
          const issue = v === undefined ? undefined : portIssue(v, [...cpath, probe, handler, field], { named: handler !== 'grpc' });
          if (issue) out.push(issue);
        }
      }
      for (const hook of ['postStart', 'preStop']) {
        for (const [handler, field] of HANDLER_PORTS.slice(0, 2)) {
          const v = at(c, 'lifecycle', hook, handler, field);
          const issue = v === undefined ? undefined : portIssue(v, [...cpath, 'lifecycle', hook, handler, field], { named: true });
          if (issue) out.push(issue);
        }
      }
    });
  }
}

function serviceIssues(data: Obj, out: SchemaIssue[]): void {
  const ports = at(data, 'spec', 'ports');
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const base: Path = ['spec', 'ports', i];
    for (const issue of [portIssue(p.port, [...base, 'port'], {}), portIssue(p.targetPort, [...base, 'targetPort'], { zeroOk: true, named: true })]) if (issue) out.push(issue);
    // A Service port's name is a DNS-1123 label, unique, and required once there are two ports.
    const name = p.name;
    if (typeof name === 'string' && name !== '') {
      if (name.length > 63 || !DNS1123_LABEL.test(name)) out.push({ rule: 'crd/port-range', path: [...base, 'name'], message: `${pathText([...base, 'name'])} ${JSON.stringify(name)} must be a DNS-1123 label (lower-case letters, digits and "-", at most 63 characters)`, hint: 'e.g. http or metrics' });
      else if (names.has(name)) out.push({ rule: 'crd/port-range', path: [...base, 'name'], message: `${pathText([...base, 'name'])} ${JSON.stringify(name)} is the name of another port of the Service`, hint: 'give each port its own name' });
      names.add(name);
    } else if (ports.length > 1) {
      out.push({ rule: 'crd/port-range', path: [...base, 'name'], message: `${pathText([...base, 'name'])} is required when a Service has more than one port`, hint: 'name each port, e.g. http and metrics', at: base });
    }
  });
}

/** Each backend of an Ingress names its Service's port by a number from 1 to 65535 or by a port name, not both. */
function ingressIssues(data: Obj, out: SchemaIssue[]): void {
  const backends: Path[] = [['spec', 'defaultBackend']];
  const rules = at(data, 'spec', 'rules');
  if (Array.isArray(rules)) {
    rules.forEach((r, i) => {
      const paths = at(r, 'http', 'paths');
      if (Array.isArray(paths)) paths.forEach((_, j) => backends.push(['spec', 'rules', i, 'http', 'paths', j, 'backend']));
    });
  }
  const atPath = (v: unknown, path: Path): unknown => path.reduce<unknown>((cur, k) => (typeof k === 'number' ? (Array.isArray(cur) ? cur[k] : undefined) : isObject(cur) ? cur[k] : undefined), v);
  for (const b of backends) {
    const port = atPath(data, [...b, 'service', 'port']);
    if (!isObject(port)) continue;
    const base: Path = [...b, 'service', 'port'];
    if (port.number !== undefined && port.name !== undefined && port.name !== '') {
      out.push({ rule: 'crd/port-range', path: b, message: `${pathText(base)} has both a number and a name; a backend names its port by one of them` });
      continue;
    }
    const issue = portIssue(port.number, [...base, 'number'], {}) ?? portIssue(port.name, [...base, 'name'], { named: true });
    if (issue) out.push(issue);
  }
}

function networkPolicyIssues(data: Obj, out: SchemaIssue[]): void {
  for (const dir of ['ingress', 'egress']) {
    const rules = at(data, 'spec', dir);
    if (!Array.isArray(rules)) continue;
    rules.forEach((r, i) => {
      const ports = at(r, 'ports');
      if (!Array.isArray(ports)) return;
      ports.forEach((p, j) => {
        if (!isObject(p)) return;
        const base: Path = ['spec', dir, i, 'ports', j];
        for (const issue of [portIssue(p.port, [...base, 'port'], { named: true }), portIssue(p.endPort, [...base, 'endPort'], {})]) if (issue) out.push(issue);
      });
    });
  }
}

/**
 * The restart policies a pod template may have: a workload's pods always restart, a Job's never
 * restart in place or restart on failure (an unset policy defaults to Always, which a Job refuses).
 */
function restartPolicyIssue(key: string, spec: unknown, base: Path): SchemaIssue | undefined {
  const policy = isObject(spec) ? spec.restartPolicy : undefined;
  const path: Path = [...base, 'restartPolicy'];
  if (WORKLOADS.has(key) && typeof policy === 'string' && policy !== 'Always') {
    return { rule: 'crd/pod-template', path, message: `${pathText(path)} must be Always in a ${key.split('/').pop()}, found ${JSON.stringify(policy)}`, hint: 'leave restartPolicy out (it defaults to Always), or run the work as a Job' };
  }
  if ((key === 'batch/v1/Job' || key === 'batch/v1/CronJob') && policy !== 'OnFailure' && policy !== 'Never') {
    const found = typeof policy === 'string' ? `found ${JSON.stringify(policy)}` : 'and it is not set (it would default to Always)';
    return { rule: 'crd/pod-template', path, message: `${pathText(path)} must be OnFailure or Never in a Job, ${found}`, hint: 'set restartPolicy: Never (or OnFailure) in the pod template', ...(isObject(spec) ? {} : { at: base.slice(0, -1) }) };
  }
  return undefined;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * A RoleBinding's or ClusterRoleBinding's references: the role is a Role or ClusterRole (a
 * ClusterRoleBinding's only a ClusterRole) of the RBAC group; a subject is a ServiceAccount (of the
 * core group, with a namespace in a ClusterRoleBinding), a User or a Group (of the RBAC group).
 */
function bindingIssues(key: string, data: Obj, out: SchemaIssue[]): void {
  const cluster = key.endsWith('/ClusterRoleBinding');
  const kinds = cluster ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  const ref = data.roleRef;
  if (isObject(ref)) {
    if (typeof ref.apiGroup === 'string' && ref.apiGroup !== RBAC_GROUP) out.push({ rule: 'crd/rbac-binding', path: ['roleRef', 'apiGroup'], message: `roleRef.apiGroup must be ${RBAC_GROUP}, found ${JSON.stringify(ref.apiGroup)}` });
    if (typeof ref.kind === 'string' && ref.kind !== '' && !kinds.includes(ref.kind)) out.push({ rule: 'crd/rbac-binding', path: ['roleRef', 'kind'], message: `roleRef.kind must be ${kinds.join(' or ')}, found ${JSON.stringify(ref.kind)}` });
  }
  const subjects = data.subjects;
  if (!Array.isArray(subjects)) return;
  subjects.forEach((sub, i) => {
    if (!isObject(sub)) return;
    const base: Path = ['subjects', i];
    const group = typeof sub.apiGroup === 'string' ? sub.apiGroup : '';
    if (sub.kind === 'ServiceAccount') {
      if (group !== '') out.push({ rule: 'crd/rbac-binding', path: [...base, 'apiGroup'], message: `subjects[${i}].apiGroup must be empty for a ServiceAccount (the core group), found ${JSON.stringify(group)}`, hint: 'leave apiGroup out of ServiceAccount subjects' });
      if (cluster && (typeof sub.namespace !== 'string' || sub.namespace === '')) out.push({ rule: 'crd/rbac-binding', path: [...base, 'namespace'], message: `subjects[${i}].namespace is required for a ServiceAccount in a ClusterRoleBinding`, hint: 'name the namespace of the ServiceAccount', at: base });
    } else if (sub.kind === 'User' || sub.kind === 'Group') {
      if (group !== RBAC_GROUP) out.push({ rule: 'crd/rbac-binding', path: [...base, 'apiGroup'], message: `subjects[${i}].apiGroup must be ${RBAC_GROUP} for a ${sub.kind}, found ${JSON.stringify(group)}`, ...(typeof sub.apiGroup === 'string' ? {} : { at: base }) });
    } else if (typeof sub.kind === 'string') {
      out.push({ rule: 'crd/rbac-binding', path: [...base, 'kind'], message: `subjects[${i}].kind must be ServiceAccount, User or Group, found ${JSON.stringify(sub.kind)}` });
    }
  });
}

/** The Go-validation findings of a core object (`key`: `group/version/Kind`) whose schema passed. */
export function coreRuleIssues(key: string, data: Obj): SchemaIssue[] {
  const out: SchemaIssue[] = [...selectorIssues(key, data)];
  for (const p of podSpecPaths(key)) {
    const spec = at(data, ...(p as string[]));
    if (isObject(spec)) containerIssues(spec, p, out);
    // A template left without its spec is a pod spec without containers or restart policy.
    if (isObject(at(data, ...(p.slice(0, -1) as string[])))) {
      const issue = restartPolicyIssue(key, spec, p);
      if (issue) out.push(issue);
    }
  }
  if (key === 'networking.k8s.io/v1/Ingress') ingressIssues(data, out);
  if (key === `${RBAC_GROUP}/v1/RoleBinding` || key === `${RBAC_GROUP}/v1/ClusterRoleBinding`) bindingIssues(key, data, out);
  if (key === 'v1/Service') serviceIssues(data, out);
  if (key === 'networking.k8s.io/v1/NetworkPolicy') networkPolicyIssues(data, out);
  return out;
}
