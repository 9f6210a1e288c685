// The API server's Go validation of core objects that their OpenAPI schema cannot say, for the
// faults a chart's objects can have; each is a named rule. What is checked (docs/resource-api.md, "Core
// Kubernetes kinds"):
// - crd/selector-mismatch: a workload's (Deployment, ReplicaSet, StatefulSet, DaemonSet)
//   spec.selector is a valid label selector (as a PodDisruptionBudget's), is not empty and selects
//   its own spec.template.metadata.labels; a ReplicationController's selector, when set, too.
// - crd/containers: every container, init container and ephemeral container of a pod spec has a
//   DNS-1123 label as its name, no two share one, and each has an image (ephemeral ones aside).
// - crd/ports: port numbers are 1-65535 (a container's containerPort, a non-zero hostPort, a
//   Service's port and a non-zero targetPort, probe and lifecycle ports, a NetworkPolicy's ports),
//   a named port is an IANA service name (at most 15 lower-case letters, digits and "-", with a
//   letter, no "-" at either end nor "--"), the named ports of a pod are unique, and a Service's
//   ports are each named (DNS-1123 labels, unique) when it has several, with no port and protocol
//   twice; an Ingress backend's Service port is a number or a name, not both.
// - crd/resources: a container's resource names are standard (cpu, memory, ephemeral-storage,
//   hugepages-<size>) or domain-qualified (example.com/gpu), quantities are not negative, and a
//   request is not above the limit of the same resource; an extended resource is whole and, like
//   hugepages, requested only with an equal limit.
// - The rest of the server's Go rules the cluster corpus found (crd/value, crd/field-combination,
//   crd/selector-mismatch): a Deployment's progress deadline, Ingress hosts, paths and backend
//   Service names, a Job's selector and manualSelector, a ConfigMap key in data and binaryData,
//   the keys of typed Secrets, a ClusterIP Service's nodePort and externalTrafficPolicy, a
//   PodDisruptionBudget's minAvailable and maxUnavailable.
// An empty `containers` list is the schema's required-field finding.
import { isIP } from 'node:net';
import type { OpenapiNode, Path, SchemaIssue } from './openapi-check.ts';
import { isQuantity, pathText } from './openapi-check.ts';
import { nearest } from '../problems/nearest.ts';
import { dnsLabelProblem, labelKeyProblem, labelValueProblem, metadataFindings, nameProblem, type MetaOptions } from './metadata.ts';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((cur, k) => (isObject(cur) ? cur[k] : undefined), v);

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

/**
 * A label selector the API server refuses as one: an operator outside In, NotIn, Exists and
 * DoesNotExist, values missing for In and NotIn or given for Exists and DoesNotExist, a key that
 * is not a label key. (matchLabels are checked as labels by GO_VALIDATION below.)
 */
function labelSelectorIssues(selector: Obj, base: Path): SchemaIssue[] {
  const out: SchemaIssue[] = [];
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

/** matchLabels that are all labels (the API server does not compare an invalid selector with the template). */
function validMatchLabels(selector: Obj): boolean {
  const ml = at(selector, 'matchLabels');
  return !isObject(ml) || Object.entries(ml).every(([k, v]) => labelKeyProblem(k) === undefined && (typeof v !== 'string' || labelValueProblem(v) === undefined));
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
    // A missing selector is the schema's required-field finding when there is a spec.
    if (!isObject(data.spec)) return [{ rule: 'crd/selector-mismatch', path: ['spec', 'selector'], message: 'spec.selector is required: the workload has no spec', at: [] }];
    if (!isObject(selector)) return [];
    const invalid = labelSelectorIssues(selector, ['spec', 'selector']);
    if (invalid.length > 0 || !validMatchLabels(selector)) return invalid;
    const ml = at(selector, 'matchLabels');
    const me = at(selector, 'matchExpressions');
    const empty = !(isObject(ml) && Object.keys(ml).length > 0) && !(Array.isArray(me) && me.length > 0);
    if (empty) {
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'selector'], message: 'spec.selector is empty, and an empty selector is not allowed for a workload: it would select every pod', hint: 'select the pods by the labels of spec.template.metadata.labels under spec.selector.matchLabels' }];
    }
    // The API server names the template's labels (they are what fails to match), as here.
    if (!selects(selector, labelMap)) {
      // The API server names the template's labels, which the selector does not match.
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'template', 'metadata', 'labels'], at: ['spec', 'selector'], message: 'spec.selector does not match spec.template.metadata.labels: the workload would not own the pods it creates', hint: 'give the pod template every label of spec.selector.matchLabels, with the same values' }];
    }
    return [];
  }
  if (key === 'v1/ReplicationController') {
    const selector = at(data, 'spec', 'selector');
    if (isObject(selector) && Object.keys(selector).length > 0 && !selects({ matchLabels: selector }, labelMap)) {
      return [{ rule: 'crd/selector-mismatch', path: ['spec', 'template', 'metadata', 'labels'], at: ['spec', 'selector'], message: 'spec.selector does not match spec.template.metadata.labels', hint: 'give the pod template every label of spec.selector, with the same values' }];
    }
  }
  return [];
}

/** A port number 1-65535 (`zeroOk`: 0 means "not set"), or for `named`, a port name. */
function portIssue(value: unknown, path: Path, opts: { zeroOk?: boolean; named?: boolean }): SchemaIssue | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value === 0 && opts.zeroOk) return undefined;
    if (value < 1 || value > 65535) return { rule: 'crd/ports', path, message: `${pathText(path)} must be a port number from 1 to 65535, found ${value}` };
    return undefined;
  }
  if (typeof value === 'string' && opts.named) {
    if (value === '' && opts.zeroOk) return undefined;
    const why = ianaServiceNameProblem(value);
    if (why) return { rule: 'crd/ports', path, message: `${pathText(path)} ${JSON.stringify(value)} is neither a port number nor a port name: ${why}`, hint: 'a port name is an IANA service name such as http or metrics' };
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
  const portNames = new Map<string, string>();
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      if (!isObject(c)) return;
      const cpath = [...base, list, i];
      const name = c.name;
      if (typeof name === 'string' && name !== '') {
        const why = dnsLabelProblem(name);
        if (why) {
          out.push({ rule: 'crd/containers', path: [...cpath, 'name'], message: `${pathText([...cpath, 'name'])} ${JSON.stringify(name)} is not a container name: ${why}`, hint: 'e.g. my-app' });
        } else if (seen.has(name)) {
          out.push({ rule: 'crd/containers', path: [...cpath, 'name'], message: `${pathText([...cpath, 'name'])} ${JSON.stringify(name)} is also the name of ${seen.get(name)}: container names must be unique in a pod`, hint: 'give each container of the pod its own name' });
        } else seen.set(name, pathText(cpath));
      }
      if (list !== 'ephemeralContainers' && (c.image === undefined || c.image === null || c.image === '')) {
        out.push({ rule: 'crd/containers', path: [...cpath, 'image'], message: `${pathText([...cpath, 'image'])} is required: the API server refuses a container without an image`, hint: 'give the container an image, e.g. registry.example.com/app:1.0', at: cpath });
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
            if (why) out.push({ rule: 'crd/ports', path: [...ppath, 'name'], message: `${pathText([...ppath, 'name'])} ${JSON.stringify(p.name)} is not a port name: ${why}`, hint: 'a port name is an IANA service name such as http or metrics' });
            else if (portNames.has(p.name)) out.push({ rule: 'crd/ports', path: [...ppath, 'name'], message: `${pathText([...ppath, 'name'])} ${JSON.stringify(p.name)} is also the name of ${portNames.get(p.name)}: the named ports of a pod must be unique`, hint: 'give each port of the pod its own name' });
            else portNames.set(p.name, pathText(ppath));
          }
        });
      }
      resourceIssues(c.resources, [...cpath, 'resources'], out);
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
  const headless = at(data, 'spec', 'clusterIP') === 'None';
  if ((!Array.isArray(ports) || ports.length === 0) && !headless && at(data, 'spec', 'type') !== 'ExternalName') {
    out.push({ rule: 'crd/ports', path: ['spec', 'ports'], message: 'spec.ports is required: a Service that is neither headless (clusterIP: None) nor ExternalName needs a port', hint: 'add a port, e.g. ports: [{name: http, port: 80}]', at: ['spec'] });
    return;
  }
  if (!Array.isArray(ports)) return;
  const names = new Map<string, string>();
  const numbers = new Map<string, string>();
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const base: Path = ['spec', 'ports', i];
    for (const issue of [portIssue(p.port, [...base, 'port'], {}), portIssue(p.targetPort, [...base, 'targetPort'], { zeroOk: true, named: true })]) if (issue) out.push(issue);
    const name = typeof p.name === 'string' ? p.name : '';
    if (name === '') {
      if (ports.length > 1) out.push({ rule: 'crd/ports', path: [...base, 'name'], message: `${pathText([...base, 'name'])} is required: each port of a Service with several ports needs a name`, hint: 'name the port, e.g. http or metrics', at: base });
    } else if (dnsLabelProblem(name) !== undefined) {
      out.push({ rule: 'crd/ports', path: [...base, 'name'], message: `${pathText([...base, 'name'])} ${JSON.stringify(name)} is not a port name: ${dnsLabelProblem(name)!}`, hint: 'e.g. http or metrics' });
    } else if (names.has(name)) {
      out.push({ rule: 'crd/ports', path: [...base, 'name'], message: `${pathText([...base, 'name'])} ${JSON.stringify(name)} is also the name of ${names.get(name)}: the ports of a Service need distinct names`, hint: 'give each port its own name' });
    } else names.set(name, pathText(base));
    if (typeof p.port === 'number') {
      const key = `${p.port}/${typeof p.protocol === 'string' && p.protocol !== '' ? p.protocol : 'TCP'}`;
      if (numbers.has(key)) out.push({ rule: 'crd/ports', path: base, at: [...base, 'port'], message: `${pathText([...base, 'port'])}: port ${key} is also ${numbers.get(key)}: a Service takes each port and protocol once`, hint: 'remove the duplicate, or give it another port or protocol' });
      else numbers.set(key, pathText(base));
    }
  });
}

/** The resource names of a container that are not domain-qualified (`example.com/gpu` is any). */
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** A quantity's value as a number (precise enough to compare a request with a limit). */
export function quantityValue(q: string | number): number {
  if (typeof q === 'number') return q;
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(.*)$/.exec(q);
  if (!m) return NaN;
  const n = Number(m[1]);
  const suffix = m[2]!;
  const binary = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'].indexOf(suffix);
  if (binary >= 0) return n * 2 ** (10 * (binary + 1));
  const decimal: Record<string, number> = { '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
  if (Object.hasOwn(decimal, suffix)) return n * decimal[suffix]!;
  return /^[eE][+-]?\d+$/.test(suffix) ? n * 10 ** Number(suffix.slice(1)) : NaN;
}

/** A resource of the kubernetes.io domain (or of none): cpu, memory, hugepages-2Mi, … */
const nativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** An extended resource (example.com/gpu): domain-qualified outside kubernetes.io; counted in whole units. */
export const isExtendedResource = (name: string): boolean => !nativeResource(name) && !name.startsWith('requests.');
/** Native resources other than hugepages may be requested below their limit; the rest need a limit equal to the request. */
const overcommitAllowed = (name: string): boolean => nativeResource(name) && !name.startsWith('hugepages-');

function resourceIssues(resources: unknown, base: Path, out: SchemaIssue[]): void {
  if (!isObject(resources)) return;
  for (const part of ['limits', 'requests']) {
    const list = resources[part];
    if (!isObject(list)) continue;
    for (const [name, q] of Object.entries(list)) {
      const path = [...base, part, name];
      if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.includes('/')) {
        const guess = nearest(name, [...STANDARD_CONTAINER_RESOURCES]);
        out.push({ rule: 'crd/resources', path, message: `${pathText(path)}: ${JSON.stringify(name)} is not a resource a container can ${part === 'limits' ? 'be limited in' : 'request'}: the standard ones are cpu, memory, ephemeral-storage and hugepages-<size>, others are domain-qualified (example.com/gpu)`, ...(guess ? { hint: `did you mean ${guess}?` } : {}) });
        continue;
      }
      if ((typeof q === 'string' || typeof q === 'number') && isQuantity(q) && quantityValue(q) < 0) {
        out.push({ rule: 'crd/resources', path, message: `${pathText(path)} must not be negative, found ${JSON.stringify(q)}` });
      } else if ((typeof q === 'string' || typeof q === 'number') && isQuantity(q) && isExtendedResource(name) && !Number.isInteger(quantityValue(q))) {
        out.push({ rule: 'crd/resources', path, message: `${pathText(path)} must be an integer, found ${JSON.stringify(q)}: ${JSON.stringify(name)} is an extended resource, counted in whole units`, hint: 'e.g. 1' });
      }
    }
  }
  const limits = isObject(resources.limits) ? resources.limits : undefined;
  const requests = resources.requests;
  if (!isObject(requests)) return;
  for (const [name, q] of Object.entries(requests)) {
    const limit = limits?.[name];
    // An extended resource (example.com/gpu) or hugepages cannot be overcommitted: its request needs an equal limit.
    if (!overcommitAllowed(name) && isQuantity(q)) {
      const path = [...base, 'requests', name];
      if (limit === undefined) {
        out.push({ rule: 'crd/resources', path: [...base, 'limits'], at: path, message: `${pathText(path)} needs a limit: ${JSON.stringify(name)} cannot be overcommitted, so the API server requires a limit equal to the request`, hint: `set ${pathText([...base, 'limits', name])} to ${JSON.stringify(q)}` });
        continue;
      }
      if (isQuantity(limit) && quantityValue(q as string | number) !== quantityValue(limit as string | number)) {
        out.push({ rule: 'crd/resources', path: [...base, 'requests'], at: path, message: `${pathText(path)} ${JSON.stringify(q)} must be equal to its limit ${JSON.stringify(limit)}: ${JSON.stringify(name)} cannot be overcommitted`, hint: `make the request and ${pathText([...base, 'limits', name])} the same` });
        continue;
      }
    }
    if (limit === undefined || !isQuantity(q) || !isQuantity(limit)) continue;
    if (quantityValue(q as string | number) > quantityValue(limit as string | number)) {
      // The API server names the requests (the resource is in the message); the position is the request's.
      const path = [...base, 'requests', name];
      out.push({ rule: 'crd/resources', path: [...base, 'requests'], at: path, message: `${pathText(path)} ${JSON.stringify(q)} is above its limit ${JSON.stringify(limit)}: a request must be at most the limit`, hint: `lower the request, or raise ${pathText([...base, 'limits', name])}` });
    }
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

/** A pod template's restartPolicy: Always (or unset) for workloads, OnFailure or Never for Jobs. */
function restartPolicyIssues(key: string, spec: Obj, base: Path, out: SchemaIssue[]): void {
  const policy = spec.restartPolicy;
  const path = [...base, 'restartPolicy'];
  const set = typeof policy === 'string' && policy !== '';
  if (key === 'batch/v1/Job' || key === 'batch/v1/CronJob') {
    if (!set) out.push({ rule: 'crd/restart-policy', path, message: `${pathText(path)} is required for a Job's pods: OnFailure or Never`, hint: 'set restartPolicy: Never (or OnFailure)', at: base });
    else if (policy === 'Always') out.push({ rule: 'crd/restart-policy', path, message: `${pathText(path)} must be OnFailure or Never for a Job's pods, found "Always"`, hint: 'set restartPolicy: Never (or OnFailure)' });
  } else if (key !== 'v1/Pod' && key !== 'v1/PodTemplate' && set && policy !== 'Always') {
    out.push({ rule: 'crd/restart-policy', path, message: `${pathText(path)} must be Always for the pods of a ${key.slice(key.lastIndexOf('/') + 1)}, found ${JSON.stringify(policy)}`, hint: 'remove restartPolicy (it defaults to Always), or run the work as a Job' });
  }
}

/** Volume names are DNS-1123 labels, unique; every volume mount names a volume of the pod. */
function volumeIssues(spec: Obj, base: Path, out: SchemaIssue[]): void {
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  const names = new Map<string, string>();
  volumes.forEach((v, i) => {
    const size = at(v, 'emptyDir', 'sizeLimit');
    if ((typeof size === 'string' || typeof size === 'number') && isQuantity(size) && quantityValue(size) < 0) {
      const path = [...base, 'volumes', i, 'emptyDir', 'sizeLimit'];
      out.push({ rule: 'crd/resources', path, message: `${pathText(path)} must not be negative, found ${JSON.stringify(size)}` });
      return;
    }
    const name = at(v, 'name');
    if (typeof name !== 'string' || name === '') return;
    const path = [...base, 'volumes', i, 'name'];
    const why = dnsLabelProblem(name);
    if (why) out.push({ rule: 'crd/volumes', path, message: `${pathText(path)} ${JSON.stringify(name)} is not a volume name: ${why}`, hint: 'e.g. config or data' });
    else if (names.has(name)) out.push({ rule: 'crd/volumes', path, message: `${pathText(path)} ${JSON.stringify(name)} is also the name of ${names.get(name)}: volume names must be unique in a pod`, hint: 'give each volume its own name' });
    else names.set(name, pathText([...base, 'volumes', i]));
  });
  for (const list of ['containers', 'initContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      for (const [field, what] of [['volumeMounts', 'mount'], ['volumeDevices', 'device']] as const) {
        const mounts = at(c, field);
        if (!Array.isArray(mounts)) continue;
        mounts.forEach((m, j) => {
          const name = at(m, 'name');
          if (typeof name !== 'string' || name === '' || names.has(name)) return;
          const path = [...base, list, i, field, j, 'name'];
          const guess = nearest(name, [...names.keys()]);
          out.push({ rule: 'crd/volumes', path, message: `${pathText(path)}: the pod has no volume ${JSON.stringify(name)} to ${what}`, hint: guess ? `did you mean ${guess}?` : names.size ? `the volumes of the pod: ${[...names.keys()].join(', ')}` : 'add the volume under the pod spec\'s volumes' });
        });
      }
    });
  }
}

/** Fields the API server takes only apart: either one, never both. */
function combinationIssues(key: string, data: Obj, out: SchemaIssue[]): void {
  const both = (path: Path, a: string, b: string, hint: string): void => {
    const o = at(data, ...(path as string[]));
    if (isObject(o) && o[a] !== undefined && o[a] !== null && o[b] !== undefined && o[b] !== null) {
      out.push({ rule: 'crd/field-combination', path: [...path, b], message: `${pathText([...path, a])} and ${pathText([...path, b])} cannot both be set`, hint });
    }
  };
  if (key === 'policy/v1/PodDisruptionBudget') both(['spec'], 'minAvailable', 'maxUnavailable', 'keep one of minAvailable and maxUnavailable');
  if (key === 'apps/v1/Deployment' && at(data, 'spec', 'strategy', 'type') === 'Recreate' && isObject(at(data, 'spec', 'strategy', 'rollingUpdate'))) {
    out.push({ rule: 'crd/field-combination', path: ['spec', 'strategy', 'rollingUpdate'], message: 'spec.strategy.rollingUpdate cannot be set when spec.strategy.type is Recreate', hint: 'remove rollingUpdate, or use type RollingUpdate' });
  }
}

/** Exactly one of `keys` is set in `o` (at `path`): a probe's handler, an env var's source. */
function oneOf(o: unknown, path: Path, keys: readonly string[], what: string, out: SchemaIssue[]): void {
  if (!isObject(o)) return;
  const set = keys.filter((k) => o[k] !== undefined && o[k] !== null);
  if (set.length === 1) return;
  out.push({
    rule: 'crd/field-combination',
    path: set.length === 0 ? path : [...path, set[1]!],
    message: set.length === 0 ? `${pathText(path)} must set one ${what}: ${keys.join(', ')}` : `${pathText(path)} sets ${set.join(' and ')}: it takes only one ${what}`,
    hint: `keep exactly one of ${keys.join(', ')}`,
  });
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'];

/** A container's env (`value` or `valueFrom`, one source) and its probes and hooks (one handler each). */
function envIssues(spec: Obj, base: Path, out: SchemaIssue[]): void {
  for (const list of ['containers', 'initContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      const cpath = [...base, list, i];
      const env = at(c, 'env');
      if (Array.isArray(env)) {
        env.forEach((e, j) => {
          if (!isObject(e) || e.valueFrom === undefined || e.valueFrom === null) return;
          const path = [...cpath, 'env', j, 'valueFrom'];
          if (typeof e.value === 'string' && e.value !== '') {
            out.push({ rule: 'crd/field-combination', path, message: `${pathText(path)} cannot be set when ${pathText([...cpath, 'env', j, 'value'])} is not empty`, hint: 'keep one of value and valueFrom' });
          } else oneOf(e.valueFrom, path, ENV_SOURCES, 'source', out);
        });
      }
      const envFrom = at(c, 'envFrom');
      if (Array.isArray(envFrom)) envFrom.forEach((e, j) => oneOf(e, [...cpath, 'envFrom', j], ['configMapRef', 'secretRef'], 'source', out));
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) oneOf(at(c, probe), [...cpath, probe], PROBE_HANDLERS, 'handler', out);
      for (const hook of ['postStart', 'preStop']) oneOf(at(c, 'lifecycle', hook), [...cpath, 'lifecycle', hook], HOOK_HANDLERS, 'handler', out);
    });
  }
}

/** A Role's or ClusterRole's rules: a resource rule names API groups and resources; URLs are for ClusterRoles. */
function policyRuleIssues(key: string, data: Obj, out: SchemaIssue[]): void {
  const rules = data.rules;
  if (!Array.isArray(rules)) return;
  const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;
  rules.forEach((r, i) => {
    if (!isObject(r)) return;
    const base: Path = ['rules', i];
    if (nonEmpty(r.nonResourceURLs)) {
      if (key.endsWith('/Role')) out.push({ rule: 'crd/value', path: [...base, 'nonResourceURLs'], message: `${pathText([...base, 'nonResourceURLs'])}: a Role cannot grant non-resource URLs; only a ClusterRole can` });
      else if (nonEmpty(r.resources) || nonEmpty(r.apiGroups)) out.push({ rule: 'crd/field-combination', path: [...base, 'nonResourceURLs'], message: `${pathText(base)} mixes resources and nonResourceURLs: a rule grants one or the other`, hint: 'split it into two rules' });
      return;
    }
    for (const field of ['apiGroups', 'resources']) {
      if (!nonEmpty(r[field])) out.push({ rule: 'crd/value', path: [...base, field], message: `${pathText([...base, field])} is required: a resource rule names at least one ${field === 'apiGroups' ? 'API group ("" is the core group)' : 'resource'}`, at: r[field] === undefined ? base : [...base, field] });
    }
  });
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * A service account subject names a service account (a DNS-1123 subdomain) of the core group, in
 * a namespace when cluster-wide; a User or Group subject is of the RBAC group; a
 * ClusterRoleBinding binds a ClusterRole (the kinds themselves are enums in GO_VALIDATION).
 */
function subjectIssues(key: string, data: Obj, out: SchemaIssue[]): void {
  const ref = data.roleRef;
  if (key.endsWith('/ClusterRoleBinding') && isObject(ref) && ref.kind === 'Role') {
    out.push({ rule: 'crd/value', path: ['roleRef', 'kind'], message: 'roleRef.kind must be ClusterRole in a ClusterRoleBinding, found "Role"', hint: 'bind a Role with a RoleBinding in its namespace' });
  }
  const subjects = data.subjects;
  if (!Array.isArray(subjects)) return;
  subjects.forEach((s, i) => {
    if (!isObject(s)) return;
    const base: Path = ['subjects', i];
    const group = typeof s.apiGroup === 'string' ? s.apiGroup : '';
    if (s.kind === 'User' || s.kind === 'Group') {
      if (group !== RBAC_GROUP) out.push({ rule: 'crd/value', path: [...base, 'apiGroup'], message: `${pathText([...base, 'apiGroup'])} must be ${RBAC_GROUP} for a ${s.kind}, found ${JSON.stringify(group)}`, ...(typeof s.apiGroup === 'string' ? {} : { at: base }) });
      return;
    }
    if (s.kind !== 'ServiceAccount') return;
    if (group !== '') out.push({ rule: 'crd/value', path: [...base, 'apiGroup'], message: `${pathText([...base, 'apiGroup'])} must be empty for a ServiceAccount (the core group), found ${JSON.stringify(group)}`, hint: 'leave apiGroup out of ServiceAccount subjects' });
    if (typeof s.name === 'string' && s.name !== '') {
      const why = nameProblem(s.name, 'ServiceAccount');
      if (why) out.push({ rule: 'crd/value', path: [...base, 'name'], message: `${pathText([...base, 'name'])} ${JSON.stringify(s.name)} is not a service account name: ${why}` });
    }
    if (key.endsWith('/ClusterRoleBinding') && (typeof s.namespace !== 'string' || s.namespace === '')) {
      out.push({ rule: 'crd/value', path: [...base, 'namespace'], message: `${pathText([...base, 'namespace'])} is required: a ClusterRoleBinding's service account subject names its namespace`, hint: 'set the namespace of the service account', at: base });
    }
  });
}

/** The fields of a cron schedule: minute, hour, day of month, month, day of week. */
const CRON_FIELDS: [min: number, max: number, names?: string[]][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12, ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']],
  [0, 6, ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']],
];
const CRON_DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Why `schedule` is not a cron schedule the CronJob controller's parser takes, or undefined. */
export function cronScheduleProblem(schedule: string): string | undefined {
  const s = schedule.trim();
  if (/^(CRON_)?TZ=/.test(s)) return 'a time zone (TZ= or CRON_TZ=) is not taken in the schedule: set spec.timeZone';
  if (s.startsWith('@')) {
    if (CRON_DESCRIPTORS.has(s)) return undefined;
    if (/^@every \S+$/.test(s)) return undefined;
    return `${JSON.stringify(s)} is not a schedule descriptor (@hourly, @daily, @weekly, @monthly, @yearly, @every <duration>)`;
  }
  const fields = s.split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields (minute hour day-of-month month day-of-week), found ${fields.length}`;
  for (let f = 0; f < 5; f++) {
    const [min, max, names] = CRON_FIELDS[f]!;
    const value = (v: string): number => {
      const i = names ? names.indexOf(v.toUpperCase()) : -1;
      if (i >= 0) return i + min;
      return /^\d+$/.test(v) ? Number(v) : NaN;
    };
    for (const part of fields[f]!.split(',')) {
      const [range, step, extra] = part.split('/');
      if (extra !== undefined || (step !== undefined && !/^\d+$/.test(step))) return `field ${f + 1} ${JSON.stringify(fields[f])} has a bad step`;
      if (range === '*' || range === '?') continue;
      const [lo, hi, more] = range!.split('-');
      const a = value(lo ?? '');
      const b = hi === undefined ? a : value(hi);
      if (more !== undefined || Number.isNaN(a) || Number.isNaN(b) || a < min || b > max || a > b) return `field ${f + 1} ${JSON.stringify(fields[f])} is outside ${min}-${max}`;
    }
  }
  return undefined;
}

function cronJobIssues(data: Obj, out: SchemaIssue[]): void {
  const schedule = at(data, 'spec', 'schedule');
  if (typeof schedule === 'string' && schedule !== '') {
    const why = cronScheduleProblem(schedule);
    if (why) out.push({ rule: 'crd/cronjob', path: ['spec', 'schedule'], message: `spec.schedule ${JSON.stringify(schedule)} is not a cron schedule: ${why}`, hint: 'e.g. "*/15 * * * *" or @hourly' });
  }
  // A CronJob's name (at most 52 characters) is a metadata rule: src/kube-check/metadata.ts, crd/metadata.
}

/** A PersistentVolumeClaim (also a StatefulSet's claim template) requests storage. */
function claimIssues(spec: unknown, base: Path, out: SchemaIssue[]): void {
  if (!isObject(spec)) return;
  const storage = at(spec, 'resources', 'requests', 'storage');
  const path = [...base, 'resources', 'requests', 'storage'];
  if (storage === undefined || storage === null) {
    out.push({ rule: 'crd/resources', path, message: `${pathText(path)} is required: a claim must request storage`, hint: 'e.g. resources: {requests: {storage: 1Gi}}', at: base });
  } else if ((typeof storage === 'string' || typeof storage === 'number') && isQuantity(storage) && !(quantityValue(storage) > 0)) {
    out.push({ rule: 'crd/resources', path, message: `${pathText(path)} must be greater than zero, found ${JSON.stringify(storage)}`, hint: 'e.g. 1Gi' });
  }
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
      out.push({ rule: 'crd/ports', path: b, message: `${pathText(base)} has both a number and a name; a backend names its port by one of them` });
      continue;
    }
    const issue = portIssue(port.number, [...base, 'number'], {}) ?? portIssue(port.name, [...base, 'name'], { named: true });
    if (issue) out.push(issue);
  }
}

/** The rule's message for a host an Ingress routes (a DNS-1123 subdomain, or one below a `*.` wildcard), or undefined. */
export function ingressHostProblem(host: string): string | undefined {
  if (isIP(host) !== 0 || (/^\d+(\.\d+){3}$/.test(host) && host.split('.').every((o) => Number(o) <= 255))) return 'it must be a DNS name, not an IP address';
  // A wildcard host is checked as the subdomain with a letter for its "*" (the same length).
  const name = host.startsWith('*.') ? `a${host.slice(1)}` : host;
  if (name.includes('*')) return 'a wildcard is only allowed as the whole first label ("*.example.com")';
  const why = nameProblem(name, 'ConfigMap');
  return why ? `it must be a DNS name: ${why.replace(/^it /, 'the name ')}` : undefined;
}

/** What an Exact or Prefix Ingress path must not contain, and not end with. */
const INGRESS_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INGRESS_PATH_SUFFIXES = ['/..', '/.'];

/**
 * Ingress rules as the API server reads them: a host is a DNS name (not an IP address, a `*.`
 * wildcard allowed); a path of pathType Exact or Prefix, and any path given with
 * ImplementationSpecific, is absolute, and an Exact or Prefix one has no "//", "/./", "/../" or
 * "%2f" and does not end with "/." or "/.."; a backend Service's name is one a Service may have
 * on the release (`meta`: a DNS-1035 label before 1.36, a DNS-1123 label from it).
 */
function ingressRuleIssues(data: Obj, meta: MetaOptions, out: SchemaIssue[]): void {
  const serviceName = (backend: unknown, base: Path): void => {
    const name = at(backend, 'service', 'name');
    if (typeof name !== 'string' || name === '') return;
    const why = nameProblem(name, 'Service', meta);
    if (why) out.push({ rule: 'crd/value', path: [...base, 'service', 'name'], message: `${pathText([...base, 'service', 'name'])} ${JSON.stringify(name)} is not a Service name: ${why}`, hint: 'name the Service as its metadata.name, e.g. web' });
  };
  serviceName(at(data, 'spec', 'defaultBackend'), ['spec', 'defaultBackend']);
  const rules = at(data, 'spec', 'rules');
  if (!Array.isArray(rules)) return;
  rules.forEach((r, i) => {
    if (!isObject(r)) return;
    if (typeof r.host === 'string' && r.host !== '') {
      const why = ingressHostProblem(r.host);
      const path: Path = ['spec', 'rules', i, 'host'];
      if (why) out.push({ rule: 'crd/value', path, message: `${pathText(path)} ${JSON.stringify(r.host)} is not a host an Ingress routes: ${why}`, hint: 'e.g. agents.example.com or *.example.com' });
    }
    const paths = at(r, 'http', 'paths');
    if (!Array.isArray(paths)) return;
    paths.forEach((hp, j) => {
      if (!isObject(hp)) return;
      const base: Path = ['spec', 'rules', i, 'http', 'paths', j];
      const p = typeof hp.path === 'string' ? hp.path : '';
      const mustBeAbsolute = hp.pathType === 'Exact' || hp.pathType === 'Prefix' || (hp.pathType === 'ImplementationSpecific' && p !== '');
      if (mustBeAbsolute && !p.startsWith('/')) out.push({ rule: 'crd/value', path: [...base, 'path'], message: `${pathText([...base, 'path'])} ${JSON.stringify(p)} must be an absolute path (start with "/") for pathType ${String(hp.pathType)}`, hint: `e.g. /${p}`, ...(hp.path === undefined ? { at: base } : {}) });
      else if (hp.pathType === 'Exact' || hp.pathType === 'Prefix') {
        const bad = INGRESS_PATH_SEQUENCES.find((q) => p.includes(q)) ?? INGRESS_PATH_SUFFIXES.find((q) => p.endsWith(q));
        if (bad) out.push({ rule: 'crd/value', path: [...base, 'path'], message: `${pathText([...base, 'path'])} ${JSON.stringify(p)} must not ${p.endsWith(bad) && INGRESS_PATH_SUFFIXES.includes(bad) ? 'end with' : 'contain'} ${JSON.stringify(bad)} for pathType ${hp.pathType}`, hint: 'write the path in its plain form, e.g. /api' });
      }
      serviceName(hp.backend, [...base, 'backend']);
    });
  });
}

/** A Deployment's progressDeadlineSeconds (600 when left out: the API server's default) exceeds its minReadySeconds. */
function deploymentIssues(data: Obj, out: SchemaIssue[]): void {
  const min = at(data, 'spec', 'minReadySeconds');
  const given = at(data, 'spec', 'progressDeadlineSeconds');
  const deadline = given === undefined || given === null ? 600 : given;
  if (typeof min !== 'number' || typeof deadline !== 'number' || deadline > min) return;
  out.push({
    rule: 'crd/value',
    path: ['spec', 'progressDeadlineSeconds'],
    message: `spec.progressDeadlineSeconds ${deadline}${given === undefined || given === null ? ' (the default)' : ''} must be greater than spec.minReadySeconds ${min}`,
    hint: `set spec.progressDeadlineSeconds above ${min}, or lower spec.minReadySeconds`,
    ...(given === undefined || given === null ? { at: ['spec', 'minReadySeconds'] } : {}),
  });
}

/**
 * A Job's selector is generated unless spec.manualSelector is true: one given without it is
 * refused; with it, it must select the template's labels. A CronJob's job template takes no selector.
 */
function jobSelectorIssues(key: string, data: Obj, out: SchemaIssue[]): void {
  if (key === 'batch/v1/CronJob') {
    const spec = at(data, 'spec', 'jobTemplate', 'spec');
    if (isObject(spec) && isObject(spec.selector)) out.push({ rule: 'crd/selector-mismatch', path: ['spec', 'jobTemplate', 'spec', 'selector'], message: 'spec.jobTemplate.spec.selector cannot be set: the selector of a CronJob\'s Jobs is generated', hint: 'remove the selector' });
    if (isObject(spec) && spec.manualSelector === true) out.push({ rule: 'crd/selector-mismatch', path: ['spec', 'jobTemplate', 'spec', 'manualSelector'], message: 'spec.jobTemplate.spec.manualSelector cannot be true: the selector of a CronJob\'s Jobs is generated', hint: 'remove manualSelector' });
    return;
  }
  const selector = at(data, 'spec', 'selector');
  if (!isObject(selector)) return;
  if (at(data, 'spec', 'manualSelector') !== true) {
    out.push({ rule: 'crd/selector-mismatch', path: ['spec', 'selector'], message: "spec.selector is set but spec.manualSelector is not true: the API server generates a Job's selector and refuses one it did not generate", hint: 'remove spec.selector (it is generated), or set spec.manualSelector: true' });
    return;
  }
  const invalid = labelSelectorIssues(selector, ['spec', 'selector']);
  if (invalid.length > 0 || !validMatchLabels(selector)) {
    out.push(...invalid);
    return;
  }
  const labels = at(data, 'spec', 'template', 'metadata', 'labels');
  if (!selects(selector, isObject(labels) ? labels : {})) {
    out.push({ rule: 'crd/selector-mismatch', path: ['spec', 'template', 'metadata', 'labels'], at: ['spec', 'selector'], message: 'spec.selector does not match spec.template.metadata.labels: the Job would not own the pods it creates', hint: 'give the pod template every label of spec.selector.matchLabels, with the same values' });
  }
}

/** A ConfigMap's key is in data or in binaryData, not both. */
function configMapIssues(data: Obj, out: SchemaIssue[]): void {
  const text = data.data;
  const binary = data.binaryData;
  if (!isObject(text) || !isObject(binary)) return;
  for (const k of Object.keys(text)) {
    if (Object.hasOwn(binary, k)) out.push({ rule: 'crd/field-combination', path: ['data', k], message: `${pathText(['data', k])}: the key ${JSON.stringify(k)} is also in binaryData; a ConfigMap key is in one of data and binaryData`, hint: 'keep the key in one of them, or rename one' });
  }
}

/** The keys a typed Secret must hold, in data or stringData (the API server merges stringData into data first). */
function secretIssues(data: Obj, out: SchemaIssue[]): void {
  const type = data.type;
  if (typeof type !== 'string') return;
  const bytes = isObject(data.data) ? data.data : {};
  const strings = isObject(data.stringData) ? data.stringData : {};
  const has = (k: string): boolean => Object.hasOwn(bytes, k) || Object.hasOwn(strings, k);
  /** The value of a key as text (a data value is base64), or undefined when it cannot be read. */
  const textOf = (k: string): string | undefined => {
    if (Object.hasOwn(strings, k)) return typeof strings[k] === 'string' ? strings[k] : undefined;
    const v = bytes[k];
    return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined;
  };
  const required = (k: string, why: string): void => {
    out.push({ rule: 'crd/value', path: ['data', k], at: isObject(data.data) ? ['data'] : [], message: `${pathText(['data', k])} is required: ${why}`, hint: `add the key ${k} under data or stringData, or change the type` });
  };
  switch (type) {
    case 'kubernetes.io/service-account-token':
      if (typeof at(data, 'metadata', 'annotations', 'kubernetes.io/service-account.name') !== 'string' || at(data, 'metadata', 'annotations', 'kubernetes.io/service-account.name') === '') {
        out.push({ rule: 'crd/value', path: ['metadata', 'annotations', 'kubernetes.io/service-account.name'], at: ['metadata'], message: 'metadata.annotations["kubernetes.io/service-account.name"] is required: a kubernetes.io/service-account-token Secret names its service account', hint: 'annotate the Secret with kubernetes.io/service-account.name: <service account>' });
      }
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const k = type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(k)) {
        required(k, `a ${type} Secret holds its registry credentials there`);
        break;
      }
      const text = textOf(k);
      let parsed: unknown;
      try {
        parsed = text === undefined ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (text !== undefined && !isObject(parsed)) out.push({ rule: 'crd/value', path: ['data', k], message: `${pathText(['data', k])} must be a JSON object: a ${type} Secret holds its registry credentials as JSON`, hint: 'e.g. {"auths": {...}}' });
      break;
    }
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) {
        required('username', 'a kubernetes.io/basic-auth Secret holds a username or a password (or both)');
        required('password', 'a kubernetes.io/basic-auth Secret holds a username or a password (or both)');
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!has('ssh-privatekey') || textOf('ssh-privatekey') === '') required('ssh-privatekey', 'a kubernetes.io/ssh-auth Secret holds a private key there');
      break;
    case 'kubernetes.io/tls':
      for (const k of ['tls.crt', 'tls.key']) if (!has(k)) required(k, 'a kubernetes.io/tls Secret holds its certificate (tls.crt) and private key (tls.key)');
      break;
    default:
  }
}

/** A ClusterIP Service takes no nodePort, and no externalTrafficPolicy unless it has externalIPs. */
function serviceTypeIssues(data: Obj, out: SchemaIssue[]): void {
  // An empty type is "not set": the API server defaults it to ClusterIP.
  const type = at(data, 'spec', 'type') || 'ClusterIP';
  const externalIPs = at(data, 'spec', 'externalIPs');
  const external = type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && Array.isArray(externalIPs) && externalIPs.length > 0);
  const policy = at(data, 'spec', 'externalTrafficPolicy');
  if (!external && typeof policy === 'string' && policy !== '') {
    out.push({ rule: 'crd/field-combination', path: ['spec', 'externalTrafficPolicy'], message: `spec.externalTrafficPolicy may only be set for a Service reachable from outside the cluster (type NodePort or LoadBalancer, or with externalIPs); this one is ${String(type)}`, hint: 'remove externalTrafficPolicy, or change spec.type' });
  }
  if (type !== 'ClusterIP') return;
  const ports = at(data, 'spec', 'ports');
  if (!Array.isArray(ports)) return;
  ports.forEach((p, i) => {
    if (isObject(p) && p.nodePort !== undefined && p.nodePort !== null && p.nodePort !== 0) {
      out.push({ rule: 'crd/field-combination', path: ['spec', 'ports', i, 'nodePort'], message: `${pathText(['spec', 'ports', i, 'nodePort'])} may not be used when spec.type is ClusterIP`, hint: 'remove nodePort, or set spec.type: NodePort' });
    }
  });
}

/** Why an int-or-string count of pods (a PodDisruptionBudget's minAvailable, maxUnavailable) is refused, or undefined. */
export function intOrPercentProblem(v: unknown): string | undefined {
  if (typeof v === 'number') return v < 0 ? 'it must be greater than or equal to 0' : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return 'it must be a whole number or a percentage such as "50%"';
  return Number(m[1]) > 100 ? 'it must not be greater than 100%' : undefined;
}

function pdbIssues(data: Obj, out: SchemaIssue[]): void {
  for (const f of ['minAvailable', 'maxUnavailable']) {
    const v = at(data, 'spec', f);
    const why = intOrPercentProblem(v);
    if (why) out.push({ rule: 'crd/value', path: ['spec', f], message: `spec.${f} ${JSON.stringify(v)} is not a count of pods: ${why}`, hint: 'e.g. 1 or "50%"' });
  }
}

/** The Go-validation findings of a core object (`key`: `group/version/Kind`) whose schema passed; `meta` says which release's name rules apply. */
export function coreRuleIssues(key: string, data: Obj, meta: MetaOptions = {}): SchemaIssue[] {
  const out: SchemaIssue[] = [...selectorIssues(key, data)];
  for (const p of podSpecPaths(key)) {
    // A pod template's labels and annotations are held to the rules of an object's (its name is not read).
    if (p.length > 1) {
      const meta = [...p.slice(0, -1), 'metadata'];
      for (const f of metadataFindings('Pod', at(data, ...(meta as string[])))) {
        if (f.path[1] === 'labels' || f.path[1] === 'annotations') out.push({ rule: 'crd/metadata', path: [...meta, ...f.path.slice(1)], message: f.message });
      }
    }
    const spec = at(data, ...(p as string[]));
    if (!isObject(spec)) {
      // A pod (template) without a spec has no containers; point at the deepest part that is there.
      let there = p.slice(0, -1);
      while (there.length > 0 && !isObject(at(data, ...(there as string[])))) there = there.slice(0, -1);
      out.push({ rule: 'crd/containers', path: [...p, 'containers'], message: `${pathText([...p, 'containers'])} is required: the pod has no containers`, at: there });
      continue;
    }
    containerIssues(spec, p, out);
    restartPolicyIssues(key, spec, p, out);
    volumeIssues(spec, p, out);
    envIssues(spec, p, out);
  }
  combinationIssues(key, data, out);
  if (key === 'rbac.authorization.k8s.io/v1/RoleBinding' || key === 'rbac.authorization.k8s.io/v1/ClusterRoleBinding') subjectIssues(key, data, out);
  if (key === 'rbac.authorization.k8s.io/v1/Role' || key === 'rbac.authorization.k8s.io/v1/ClusterRole') policyRuleIssues(key, data, out);
  if (key === 'v1/Service') serviceIssues(data, out);
  if (key === 'networking.k8s.io/v1/NetworkPolicy') networkPolicyIssues(data, out);
  if (key === 'batch/v1/CronJob') cronJobIssues(data, out);
  if (key === 'networking.k8s.io/v1/Ingress') {
    ingressIssues(data, out);
    ingressRuleIssues(data, meta, out);
  }
  if (key === 'v1/Service') serviceTypeIssues(data, out);
  if (key === 'apps/v1/Deployment') deploymentIssues(data, out);
  if (key === 'batch/v1/Job' || key === 'batch/v1/CronJob') jobSelectorIssues(key, data, out);
  if (key === 'v1/ConfigMap') configMapIssues(data, out);
  if (key === 'v1/Secret') secretIssues(data, out);
  if (key === 'policy/v1/PodDisruptionBudget') pdbIssues(data, out);
  // A claim without a spec requests nothing (1.34's OpenAPI does not require the spec).
  if (key === 'v1/PersistentVolumeClaim') claimIssues(isObject(data.spec) ? data.spec : {}, ['spec'], out);
  if (key === 'apps/v1/StatefulSet') {
    const templates = at(data, 'spec', 'volumeClaimTemplates');
    if (Array.isArray(templates)) templates.forEach((t, i) => claimIssues(at(t, 'spec'), ['spec', 'volumeClaimTemplates', i, 'spec'], out));
  }
  return out;
}

/**
 * Bounds, enums and formats the API server's Go validation puts on fields whose OpenAPI schema
 * has none (crd/value): counts that cannot be negative, the probe timings, file modes, user and
 * group ids, the HPA's replica bounds, the values it takes for a few plain strings, names of the
 * objects a pod refers to, label selectors, the env's downward-API field paths. By definition,
 * then property; laid over the generated schemas when a release is loaded (./core-kinds.ts).
 */
const NON_NEGATIVE = { minimum: 0 };
const FILE_MODE = { minimum: 0, maximum: 0o777 };
/** User and group ids: 0 to 2^31-1 (int64 fields). */
const ID = { minimum: 0, maximum: 2147483647 };
/** The name of another object (a Secret, a ConfigMap, a claim, a service account): a DNS-1123 subdomain. */
const NAME: Partial<OpenapiNode> = { 'x-agentplat-format': 'object-name' };
const NAMED: Partial<OpenapiNode> = { 'x-agentplat-format': 'object-name', 'x-agentplat-nonempty': true };
/** A key of a ConfigMap or Secret, and a map of them. */
const CONFIG_KEY: Partial<OpenapiNode> = { 'x-agentplat-format': 'config-key' };
const CONFIG_KEYS: Partial<OpenapiNode> = { 'x-agentplat-format': 'config-keys' };
/** A map of label keys to label values (selectors). */
const LABELS: Partial<OpenapiNode> = { 'x-agentplat-format': 'labels' };
export const GO_VALIDATION: Record<string, Record<string, Partial<OpenapiNode>>> = {
  'apps.v1.DeploymentSpec': { replicas: NON_NEGATIVE, minReadySeconds: NON_NEGATIVE, revisionHistoryLimit: NON_NEGATIVE, progressDeadlineSeconds: NON_NEGATIVE },
  'apps.v1.ReplicaSetSpec': { replicas: NON_NEGATIVE, minReadySeconds: NON_NEGATIVE },
  'apps.v1.StatefulSetSpec': { replicas: NON_NEGATIVE, minReadySeconds: NON_NEGATIVE, revisionHistoryLimit: NON_NEGATIVE },
  'apps.v1.DaemonSetSpec': { minReadySeconds: NON_NEGATIVE, revisionHistoryLimit: NON_NEGATIVE },
  'core.v1.ReplicationControllerSpec': { replicas: NON_NEGATIVE, minReadySeconds: NON_NEGATIVE },
  'batch.v1.JobSpec': { parallelism: NON_NEGATIVE, completions: NON_NEGATIVE, activeDeadlineSeconds: NON_NEGATIVE, backoffLimit: NON_NEGATIVE, ttlSecondsAfterFinished: NON_NEGATIVE },
  'batch.v1.CronJobSpec': { startingDeadlineSeconds: NON_NEGATIVE, successfulJobsHistoryLimit: NON_NEGATIVE, failedJobsHistoryLimit: NON_NEGATIVE },
  'core.v1.Probe': { initialDelaySeconds: NON_NEGATIVE, timeoutSeconds: NON_NEGATIVE, periodSeconds: NON_NEGATIVE, successThreshold: NON_NEGATIVE, failureThreshold: NON_NEGATIVE, terminationGracePeriodSeconds: { minimum: 1 } },
  'core.v1.ProjectedVolumeSource': { defaultMode: FILE_MODE },
  'core.v1.DownwardAPIVolumeSource': { defaultMode: FILE_MODE },
  'core.v1.KeyToPath': { mode: FILE_MODE, key: CONFIG_KEY },
  'core.v1.DownwardAPIVolumeFile': { mode: FILE_MODE },
  'autoscaling.v2.HorizontalPodAutoscalerSpec': { minReplicas: { minimum: 1 }, maxReplicas: { minimum: 1 } },
  'autoscaling.v1.HorizontalPodAutoscalerSpec': { minReplicas: { minimum: 1 }, maxReplicas: { minimum: 1 }, targetCPUUtilizationPercentage: { minimum: 1 } },
  'autoscaling.v2.MetricSpec': { type: { enum: ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] } },
  'autoscaling.v2.MetricTarget': { type: { enum: ['AverageValue', 'Utilization', 'Value'] } },
  'rbac.v1.Subject': { kind: { enum: ['Group', 'ServiceAccount', 'User'] } },
  'rbac.v1.RoleRef': { kind: { enum: ['ClusterRole', 'Role'] }, apiGroup: { enum: ['rbac.authorization.k8s.io'] } },
  'core.v1.PodSecurityContext': { runAsUser: ID, runAsGroup: ID, fsGroup: ID },
  'core.v1.SecurityContext': { runAsUser: ID, runAsGroup: ID },
  'core.v1.SecretKeySelector': { name: NAMED, key: CONFIG_KEY },
  'core.v1.ConfigMapKeySelector': { name: NAMED, key: CONFIG_KEY },
  'core.v1.SecretEnvSource': { name: NAMED },
  'core.v1.ConfigMapEnvSource': { name: NAMED },
  'core.v1.SecretVolumeSource': { defaultMode: FILE_MODE },
  'core.v1.ConfigMapVolumeSource': { defaultMode: FILE_MODE },
  'core.v1.ConfigMap': { data: CONFIG_KEYS, binaryData: CONFIG_KEYS },
  'core.v1.Secret': { data: CONFIG_KEYS, stringData: CONFIG_KEYS },
  'core.v1.PodSpec': { activeDeadlineSeconds: { minimum: 1 }, serviceAccountName: NAME, nodeSelector: LABELS },
  'core.v1.ServiceSpec': { selector: LABELS },
  'meta.v1.LabelSelector': { matchLabels: LABELS },
  'core.v1.ObjectFieldSelector': { fieldPath: { 'x-agentplat-format': 'env-field-path' } },
};

/** Fields the Go validation requires that the OpenAPI leaves optional (the names of referenced objects). */
export const GO_REQUIRED: Record<string, string[]> = {
  'core.v1.SecretKeySelector': ['name'],
  'core.v1.ConfigMapKeySelector': ['name'],
  'core.v1.SecretEnvSource': ['name'],
  'core.v1.ConfigMapEnvSource': ['name'],
  'core.v1.SecretVolumeSource': ['secretName'],
  'core.v1.ConfigMapVolumeSource': ['name'],
  'core.v1.PersistentVolumeClaimSpec': ['accessModes'],
  'core.v1.ExecAction': ['command'],
};

/** Fields the OpenAPI marks required that the API server defaults before it validates (so may be left out). */
export const GO_DEFAULTED: Record<string, string[]> = {
  'rbac.v1.RoleRef': ['apiGroup'],
};

/** `def` with the Go validation's bounds, enums and required fields laid over it (./core-kinds.ts). */
export function withGoValidation(name: string, def: OpenapiNode): OpenapiNode {
  const extra = Object.hasOwn(GO_VALIDATION, name) ? GO_VALIDATION[name]! : undefined;
  const required = Object.hasOwn(GO_REQUIRED, name) ? GO_REQUIRED[name]! : [];
  const defaulted = Object.hasOwn(GO_DEFAULTED, name) ? GO_DEFAULTED[name]! : [];
  if ((extra === undefined && required.length === 0 && defaulted.length === 0) || def.properties === undefined) return def;
  const properties = { ...def.properties };
  for (const [prop, constraints] of Object.entries(extra ?? {})) {
    if (Object.hasOwn(properties, prop)) properties[prop] = { ...properties[prop], ...constraints, 'x-agentplat-go-validation': true };
  }
  const all = [...new Set([...(def.required ?? []), ...required])].filter((p) => !defaulted.includes(p));
  const { required: _, ...rest } = def;
  return { ...rest, properties, ...(all.length > 0 ? { required: all } : {}) };
}
