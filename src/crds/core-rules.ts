// The API server's Go validation of core objects that their OpenAPI schema cannot say, for the
// faults a chart's objects can have; each is a named rule. What is checked (README, "What
// validate checks in core objects"):
// - crd/selector-mismatch: a workload's (Deployment, ReplicaSet, StatefulSet, DaemonSet)
//   spec.selector is not empty and selects its own spec.template.metadata.labels; a
//   ReplicationController's selector, when set, too.
// - crd/container-name: every container, init container and ephemeral container of a pod spec
//   has a DNS-1123 label as its name, and no two share one.
// - crd/port-range: port numbers are 1-65535 (a container's containerPort, a non-zero hostPort,
//   a Service's port and a non-zero targetPort, probe and lifecycle ports, a NetworkPolicy's
//   ports), and a named port is an IANA service name (at most 15 lower-case letters, digits and
//   "-", with a letter, no "-" at either end nor "--").
// An empty `containers` list is the schema's required-field finding.
import type { Path, SchemaIssue } from './openapi-check.ts';
import { pathText } from './openapi-check.ts';

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

function selectorIssues(key: string, data: Obj): SchemaIssue[] {
  const labels = at(data, 'spec', 'template', 'metadata', 'labels');
  const labelMap = isObject(labels) ? labels : {};
  if (WORKLOADS.has(key)) {
    const selector = at(data, 'spec', 'selector');
    // A missing selector is the schema's required-field finding.
    if (!isObject(selector)) return [];
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
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const base: Path = ['spec', 'ports', i];
    for (const issue of [portIssue(p.port, [...base, 'port'], {}), portIssue(p.targetPort, [...base, 'targetPort'], { zeroOk: true, named: true })]) if (issue) out.push(issue);
  });
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

/** The Go-validation findings of a core object (`key`: `group/version/Kind`) whose schema passed. */
export function coreRuleIssues(key: string, data: Obj): SchemaIssue[] {
  const out: SchemaIssue[] = [...selectorIssues(key, data)];
  for (const p of podSpecPaths(key)) {
    const spec = at(data, ...(p as string[]));
    if (isObject(spec)) containerIssues(spec, p, out);
  }
  if (key === 'v1/Service') serviceIssues(data, out);
  if (key === 'networking.k8s.io/v1/NetworkPolicy') networkPolicyIssues(data, out);
  return out;
}
