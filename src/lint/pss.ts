// The Kubernetes Pod Security Standards, "baseline" and "restricted" levels, as a pure check of a
// pod spec: which control a pod breaks and where. The security/* lint rules build the pods the
// chart would render from the values and run them through this; the tests run the rendered
// manifests through it. One implementation, so a warning and the proof of it cannot disagree.
//
// Controls (policy version "latest", Kubernetes 1.32):
//   baseline:   host process, host namespaces, privileged, capabilities (default set only),
//               hostPath volumes, host ports, AppArmor, SELinux, /proc mount, seccomp (not
//               Unconfined), sysctls (the safe set only)
//   restricted: baseline, plus volume types, privilege escalation, non-root, non-root user,
//               seccomp (RuntimeDefault or Localhost), capabilities (drop ALL, add only
//               NET_BIND_SERVICE)
// Containers, init containers and ephemeral containers are all checked.

export type PssLevel = 'baseline' | 'restricted';

export type PssControl =
  | 'host-process'
  | 'host-namespaces'
  | 'privileged'
  | 'capabilities'
  | 'host-path'
  | 'host-ports'
  | 'apparmor'
  | 'selinux'
  | 'proc-mount'
  | 'seccomp'
  | 'sysctls'
  | 'volume-types'
  | 'privilege-escalation'
  | 'run-as-non-root'
  | 'run-as-user';

export type PssPath = readonly (string | number)[];

export interface PssViolation {
  control: PssControl;
  /** The lowest level the pod fails with this finding. */
  level: PssLevel;
  /** Where inside the pod spec (`['containers', 0, 'securityContext', 'privileged']`). */
  path: PssPath;
  /** What is wrong, in a few words (`privileged is true`). */
  message: string;
}

/** Capabilities baseline lets a container add (the container runtime's default set). */
export const BASELINE_CAPABILITIES: ReadonlySet<string> = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);
/** The one capability restricted lets a container add back after dropping ALL. */
export const RESTRICTED_CAPABILITIES: ReadonlySet<string> = new Set(['NET_BIND_SERVICE']);
/** Volume sources restricted allows. */
export const RESTRICTED_VOLUME_TYPES: ReadonlySet<string> = new Set([
  'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret',
]);
/** Sysctls baseline allows: namespaced ones that cannot affect other pods on the node. */
export const SAFE_SYSCTLS: ReadonlySet<string> = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);
/** SELinux types baseline allows (an unset type is allowed too). */
export const SELINUX_TYPES: ReadonlySet<string> = new Set(['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
/** The pod annotation prefix of the AppArmor profile of one container (before the appArmorProfile field). */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface PodInput {
  /** The pod spec (`spec.template.spec` of a Deployment). */
  spec: unknown;
  /** The pod's annotations (`spec.template.metadata.annotations`), for the AppArmor annotations. */
  annotations?: unknown;
}

/** Every control the pod breaks at `level` (restricted includes baseline). */
export function checkPod(pod: PodInput, level: PssLevel = 'restricted'): PssViolation[] {
  const out: PssViolation[] = [];
  const spec = obj(pod.spec);
  const add = (control: PssControl, lvl: PssLevel, path: PssPath, message: string) => {
    if (lvl === 'baseline' || level === 'restricted') out.push({ control, level: lvl, path, message });
  };
  const podSc = obj(spec.securityContext);
  const containers = CONTAINER_LISTS.flatMap((list) => arr(spec[list]).map((c, i) => ({ c: obj(c), at: [list, i] as PssPath })));

  // ---- baseline ----
  for (const [sc, at] of [[podSc, ['securityContext']] as const, ...containers.map(({ c, at }) => [obj(c.securityContext), [...at, 'securityContext']] as const)]) {
    if (obj(sc.windowsOptions).hostProcess === true) add('host-process', 'baseline', [...at, 'windowsOptions', 'hostProcess'], 'windowsOptions.hostProcess is true');
  }
  for (const ns of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
    if (spec[ns] === true) add('host-namespaces', 'baseline', [ns], `${ns} is true`);
  }
  for (const { c, at } of containers) {
    const sc = obj(c.securityContext);
    const scAt = [...at, 'securityContext'];
    if (sc.privileged === true) add('privileged', 'baseline', [...scAt, 'privileged'], 'privileged is true');
    arr(obj(sc.capabilities).add).forEach((cap, i) => {
      if (typeof cap !== 'string' || !BASELINE_CAPABILITIES.has(cap)) add('capabilities', 'baseline', [...scAt, 'capabilities', 'add', i], `capability ${String(cap)} is added`);
    });
    arr(c.ports).forEach((p, i) => {
      const hostPort = obj(p).hostPort;
      if (hostPort !== undefined && hostPort !== null && hostPort !== 0) add('host-ports', 'baseline', [...at, 'ports', i, 'hostPort'], `hostPort ${String(hostPort)} is used`);
    });
    if (sc.procMount !== undefined && sc.procMount !== null && sc.procMount !== 'Default') add('proc-mount', 'baseline', [...scAt, 'procMount'], `procMount is ${String(sc.procMount)}`);
  }
  arr(spec.volumes).forEach((v, i) => {
    if (obj(v).hostPath !== undefined) add('host-path', 'baseline', ['volumes', i, 'hostPath'], `volume ${String(obj(v).name ?? i)} mounts a host path`);
  });
  const annotations = obj(pod.annotations);
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(APPARMOR_ANNOTATION_PREFIX) && value !== 'runtime/default' && !(typeof value === 'string' && value.startsWith('localhost/'))) {
      add('apparmor', 'baseline', ['metadata', 'annotations', key], `AppArmor annotation ${key} is ${String(value)}`);
    }
  }
  const scs: [Obj, PssPath][] = [[podSc, ['securityContext']], ...containers.map(({ c, at }): [Obj, PssPath] => [obj(c.securityContext), [...at, 'securityContext']])];
  for (const [sc, at] of scs) {
    const apparmor = obj(sc.appArmorProfile).type;
    if (apparmor !== undefined && apparmor !== 'RuntimeDefault' && apparmor !== 'Localhost') add('apparmor', 'baseline', [...at, 'appArmorProfile', 'type'], `appArmorProfile.type is ${String(apparmor)}`);
    const se = obj(sc.seLinuxOptions);
    if (se.type !== undefined && se.type !== '' && !SELINUX_TYPES.has(String(se.type))) add('selinux', 'baseline', [...at, 'seLinuxOptions', 'type'], `seLinuxOptions.type is ${String(se.type)}`);
    for (const k of ['user', 'role'] as const) {
      if (se[k] !== undefined && se[k] !== '') add('selinux', 'baseline', [...at, 'seLinuxOptions', k], `seLinuxOptions.${k} is set`);
    }
    if (obj(sc.seccompProfile).type === 'Unconfined') add('seccomp', 'baseline', [...at, 'seccompProfile', 'type'], 'seccompProfile.type is Unconfined');
  }
  arr(podSc.sysctls).forEach((s, i) => {
    const name = obj(s).name;
    if (typeof name !== 'string' || !SAFE_SYSCTLS.has(name)) add('sysctls', 'baseline', ['securityContext', 'sysctls', i, 'name'], `sysctl ${String(name)} is not in the safe set`);
  });

  // ---- restricted ----
  if (level !== 'restricted') return out;
  arr(spec.volumes).forEach((v, i) => {
    const types = Object.keys(obj(v)).filter((k) => k !== 'name');
    for (const t of types) {
      if (!RESTRICTED_VOLUME_TYPES.has(t) && t !== 'hostPath') add('volume-types', 'restricted', ['volumes', i, t], `volume ${String(obj(v).name ?? i)} is of type ${t}`);
    }
  });
  const podNonRoot = podSc.runAsNonRoot === true;
  const podSeccomp = obj(podSc.seccompProfile).type;
  const seccompOk = (t: unknown) => t === 'RuntimeDefault' || t === 'Localhost';
  if (podSc.runAsNonRoot === false) add('run-as-non-root', 'restricted', ['securityContext', 'runAsNonRoot'], 'runAsNonRoot is false');
  if (podSc.runAsUser === 0) add('run-as-user', 'restricted', ['securityContext', 'runAsUser'], 'runAsUser is 0 (root)');
  if (podSeccomp !== undefined && podSeccomp !== 'Unconfined' && !seccompOk(podSeccomp)) add('seccomp', 'restricted', ['securityContext', 'seccompProfile', 'type'], `seccompProfile.type is ${String(podSeccomp)}`);
  let nonRootGap = false;
  let seccompGap = false;
  for (const { c, at } of containers) {
    const sc = obj(c.securityContext);
    const scAt = [...at, 'securityContext'];
    if (sc.allowPrivilegeEscalation !== false) add('privilege-escalation', 'restricted', [...scAt, 'allowPrivilegeEscalation'], sc.allowPrivilegeEscalation === true ? 'allowPrivilegeEscalation is true' : 'allowPrivilegeEscalation is not set to false');
    if (sc.runAsNonRoot === false) add('run-as-non-root', 'restricted', [...scAt, 'runAsNonRoot'], 'runAsNonRoot is false');
    else if (sc.runAsNonRoot !== true && !podNonRoot) nonRootGap = true;
    if (sc.runAsUser === 0) add('run-as-user', 'restricted', [...scAt, 'runAsUser'], 'runAsUser is 0 (root)');
    const t = obj(sc.seccompProfile).type;
    if (t !== undefined && t !== 'Unconfined' && !seccompOk(t)) add('seccomp', 'restricted', [...scAt, 'seccompProfile', 'type'], `seccompProfile.type is ${String(t)}`);
    else if (t === undefined && !seccompOk(podSeccomp)) seccompGap = true;
    const caps = obj(sc.capabilities);
    if (!arr(caps.drop).includes('ALL')) add('capabilities', 'restricted', [...scAt, 'capabilities', 'drop'], 'capabilities.drop does not include ALL');
    arr(caps.add).forEach((cap, i) => {
      if (typeof cap === 'string' && BASELINE_CAPABILITIES.has(cap) && !RESTRICTED_CAPABILITIES.has(cap)) add('capabilities', 'restricted', [...scAt, 'capabilities', 'add', i], `capability ${cap} is added`);
    });
  }
  // Pod-level settings cover every container: when a container leaves one open, the pod-level key is where it is missing.
  if (nonRootGap && podSc.runAsNonRoot !== false) add('run-as-non-root', 'restricted', ['securityContext', 'runAsNonRoot'], 'runAsNonRoot is not true for the pod nor for every container');
  if (seccompGap && podSeccomp !== 'Unconfined') add('seccomp', 'restricted', ['securityContext', 'seccompProfile', 'type'], 'no RuntimeDefault or Localhost seccomp profile for the pod nor for every container');
  return out;
}

/** Containers of a pod spec without any resource limit (neither cpu nor memory). */
export function containersWithoutLimits(spec: unknown): { path: PssPath; name: string }[] {
  const s = obj(spec);
  return CONTAINER_LISTS.filter((l) => l !== 'ephemeralContainers').flatMap((list) =>
    arr(s[list]).flatMap((c, i) => {
      const limits = obj(obj(obj(c).resources).limits);
      return limits.cpu === undefined && limits.memory === undefined ? [{ path: [list, i, 'resources', 'limits'] as PssPath, name: String(obj(c).name ?? i) }] : [];
    }),
  );
}

/**
 * The pod template inside a rendered workload object: Deployment, StatefulSet, DaemonSet,
 * ReplicaSet, Job (spec.template), CronJob (spec.jobTemplate.spec.template), Pod (itself), and
 * the substrate's WorkerPool (spec.template, a partial pod spec). Undefined for other kinds.
 */
export function podOf(object: unknown): PodInput | undefined {
  const o = obj(object);
  const spec = obj(o.spec);
  switch (o.kind) {
    case 'Pod':
      return { spec, annotations: obj(o.metadata).annotations };
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job': {
      const t = obj(spec.template);
      return { spec: t.spec, annotations: obj(t.metadata).annotations };
    }
    case 'CronJob': {
      const t = obj(obj(obj(spec.jobTemplate).spec).template);
      return { spec: t.spec, annotations: obj(t.metadata).annotations };
    }
    case 'WorkerPool':
      return spec.template === undefined ? { spec: {} } : { spec: spec.template, annotations: obj(spec.template).annotations };
    default:
      return undefined;
  }
}
