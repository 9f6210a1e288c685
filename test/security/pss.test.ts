// The security profile of the output: the Pod Security Standards checker itself (each control
// found, each compliant setting left alone), then every pod the chart renders, with the defaults
// and with every component switched on, checked against "restricted". Exceptions would be listed
// in PSS_EXCEPTIONS with their reason; there are none. Containers without resource limits are
// pinned in NO_LIMITS with the fact that decides them.
import { describe, expect, it } from 'vitest';
import { checkPod, containersWithoutLimits, podOf, type PssControl, type PssLevel } from '../../src/lint/pss.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { render } from '../render/_render.ts';

/** A pod that meets restricted: what every pod of the chart looks like with the defaults. */
function compliantPod(): { spec: Record<string, any>; annotations: Record<string, string> } {
  const sc = () => ({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
  return {
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      initContainers: [{ name: 'init', securityContext: sc() }],
      containers: [{ name: 'main', securityContext: sc(), ports: [{ containerPort: 8080 }] }],
      volumes: [{ name: 'tmp', emptyDir: {} }, { name: 'cfg', configMap: { name: 'x' } }, { name: 'claim', persistentVolumeClaim: { claimName: 'y' } }],
    },
    annotations: { 'container.apparmor.security.beta.kubernetes.io/main': 'runtime/default' },
  };
}

interface ControlCase {
  name: string;
  control: PssControl;
  level: PssLevel;
  path: (string | number)[];
  change: (pod: ReturnType<typeof compliantPod>) => void;
}

const controlCases: ControlCase[] = [
  { name: 'host process (Windows)', control: 'host-process', level: 'baseline', path: ['containers', 0, 'securityContext', 'windowsOptions', 'hostProcess'], change: (p) => (p.spec.containers[0].securityContext.windowsOptions = { hostProcess: true }) },
  { name: 'hostNetwork', control: 'host-namespaces', level: 'baseline', path: ['hostNetwork'], change: (p) => (p.spec.hostNetwork = true) },
  { name: 'hostPID', control: 'host-namespaces', level: 'baseline', path: ['hostPID'], change: (p) => (p.spec.hostPID = true) },
  { name: 'hostIPC', control: 'host-namespaces', level: 'baseline', path: ['hostIPC'], change: (p) => (p.spec.hostIPC = true) },
  { name: 'privileged', control: 'privileged', level: 'baseline', path: ['containers', 0, 'securityContext', 'privileged'], change: (p) => (p.spec.containers[0].securityContext.privileged = true) },
  { name: 'privileged init container', control: 'privileged', level: 'baseline', path: ['initContainers', 0, 'securityContext', 'privileged'], change: (p) => (p.spec.initContainers[0].securityContext.privileged = true) },
  { name: 'privileged ephemeral container', control: 'privileged', level: 'baseline', path: ['ephemeralContainers', 0, 'securityContext', 'privileged'], change: (p) => (p.spec.ephemeralContainers = [{ name: 'debug', securityContext: { privileged: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }]) },
  { name: 'a capability outside the default set', control: 'capabilities', level: 'baseline', path: ['containers', 0, 'securityContext', 'capabilities', 'add', 0], change: (p) => (p.spec.containers[0].securityContext.capabilities.add = ['SYS_ADMIN']) },
  { name: 'hostPath volume', control: 'host-path', level: 'baseline', path: ['volumes', 3, 'hostPath'], change: (p) => p.spec.volumes.push({ name: 'h', hostPath: { path: '/' } }) },
  { name: 'hostPort', control: 'host-ports', level: 'baseline', path: ['containers', 0, 'ports', 0, 'hostPort'], change: (p) => (p.spec.containers[0].ports[0].hostPort = 8080) },
  { name: 'AppArmor annotation unconfined', control: 'apparmor', level: 'baseline', path: ['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/main'], change: (p) => (p.annotations['container.apparmor.security.beta.kubernetes.io/main'] = 'unconfined') },
  { name: 'AppArmor profile Unconfined', control: 'apparmor', level: 'baseline', path: ['securityContext', 'appArmorProfile', 'type'], change: (p) => (p.spec.securityContext.appArmorProfile = { type: 'Unconfined' }) },
  { name: 'SELinux type', control: 'selinux', level: 'baseline', path: ['containers', 0, 'securityContext', 'seLinuxOptions', 'type'], change: (p) => (p.spec.containers[0].securityContext.seLinuxOptions = { type: 'spc_t' }) },
  { name: 'SELinux user', control: 'selinux', level: 'baseline', path: ['securityContext', 'seLinuxOptions', 'user'], change: (p) => (p.spec.securityContext.seLinuxOptions = { user: 'system_u' }) },
  { name: '/proc mount Unmasked', control: 'proc-mount', level: 'baseline', path: ['containers', 0, 'securityContext', 'procMount'], change: (p) => (p.spec.containers[0].securityContext.procMount = 'Unmasked') },
  { name: 'seccomp Unconfined', control: 'seccomp', level: 'baseline', path: ['securityContext', 'seccompProfile', 'type'], change: (p) => (p.spec.securityContext.seccompProfile = { type: 'Unconfined' }) },
  { name: 'an unsafe sysctl', control: 'sysctls', level: 'baseline', path: ['securityContext', 'sysctls', 1, 'name'], change: (p) => (p.spec.securityContext.sysctls = [{ name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'kernel.msgmax', value: '1' }]) },
  { name: 'an nfs volume', control: 'volume-types', level: 'restricted', path: ['volumes', 3, 'nfs'], change: (p) => p.spec.volumes.push({ name: 'n', nfs: { server: 's', path: '/' } }) },
  { name: 'allowPrivilegeEscalation unset', control: 'privilege-escalation', level: 'restricted', path: ['initContainers', 0, 'securityContext', 'allowPrivilegeEscalation'], change: (p) => delete p.spec.initContainers[0].securityContext.allowPrivilegeEscalation },
  { name: 'runAsNonRoot false on a container', control: 'run-as-non-root', level: 'restricted', path: ['containers', 0, 'securityContext', 'runAsNonRoot'], change: (p) => (p.spec.containers[0].securityContext.runAsNonRoot = false) },
  { name: 'runAsNonRoot missing everywhere', control: 'run-as-non-root', level: 'restricted', path: ['securityContext', 'runAsNonRoot'], change: (p) => delete p.spec.securityContext.runAsNonRoot },
  { name: 'runAsUser 0', control: 'run-as-user', level: 'restricted', path: ['containers', 0, 'securityContext', 'runAsUser'], change: (p) => (p.spec.containers[0].securityContext.runAsUser = 0) },
  { name: 'seccomp missing everywhere', control: 'seccomp', level: 'restricted', path: ['securityContext', 'seccompProfile', 'type'], change: (p) => delete p.spec.securityContext.seccompProfile },
  { name: 'capabilities not dropping ALL', control: 'capabilities', level: 'restricted', path: ['containers', 0, 'securityContext', 'capabilities', 'drop'], change: (p) => (p.spec.containers[0].securityContext.capabilities.drop = ['NET_RAW']) },
  { name: 'a default-set capability other than NET_BIND_SERVICE', control: 'capabilities', level: 'restricted', path: ['containers', 0, 'securityContext', 'capabilities', 'add', 0], change: (p) => (p.spec.containers[0].securityContext.capabilities.add = ['CHOWN']) },
];

describe('the Pod Security Standards checker', () => {
  it('finds nothing wrong in a pod that meets restricted, nor in its allowed variations', () => {
    const pod = compliantPod();
    expect(checkPod(pod, 'restricted')).toEqual([]);
    // allowed: NET_BIND_SERVICE back, Localhost seccomp per container, container_t, safe sysctls, hostPort 0
    pod.spec.containers[0].securityContext.capabilities.add = ['NET_BIND_SERVICE'];
    pod.spec.containers[0].securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' };
    pod.spec.containers[0].securityContext.seLinuxOptions = { type: 'container_t' };
    pod.spec.securityContext.sysctls = [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }];
    pod.spec.containers[0].ports[0].hostPort = 0;
    expect(checkPod(pod, 'restricted')).toEqual([]);
  });

  it('runAsNonRoot and seccomp may be set on every container instead of the pod', () => {
    const pod = compliantPod();
    pod.spec.securityContext = {};
    for (const c of [...pod.spec.initContainers, ...pod.spec.containers]) Object.assign(c.securityContext, { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(checkPod(pod, 'restricted')).toEqual([]);
    delete pod.spec.initContainers[0].securityContext.runAsNonRoot;
    expect(checkPod(pod, 'restricted').map((v) => v.control)).toEqual(['run-as-non-root']);
  });

  for (const c of controlCases) {
    it(`${c.level} control ${c.control}: ${c.name}`, () => {
      const pod = compliantPod();
      c.change(pod);
      const found = checkPod(pod, 'restricted');
      expect(found.map((v) => ({ control: v.control, path: v.path }))).toEqual([{ control: c.control, path: c.path }]);
      // a baseline control fails baseline too; a restricted-only control passes baseline
      expect(checkPod(pod, 'baseline').map((v) => v.control)).toEqual(c.level === 'baseline' ? [c.control] : []);
    });
  }

  it('finds the pod template of every workload kind (and the worker pool template)', () => {
    const spec = { containers: [{ name: 'c' }] };
    const t = { metadata: { annotations: { a: 'b' } }, spec };
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']) expect(podOf({ kind, spec: { template: t } })).toEqual({ spec, annotations: { a: 'b' } });
    expect(podOf({ kind: 'CronJob', spec: { jobTemplate: { spec: { template: t } } } })).toEqual({ spec, annotations: { a: 'b' } });
    expect(podOf({ kind: 'Pod', metadata: { annotations: { a: 'b' } }, spec })).toEqual({ spec, annotations: { a: 'b' } });
    expect(podOf({ kind: 'WorkerPool', spec: { template: { hostNetwork: true } } })?.spec).toEqual({ hostNetwork: true });
    expect(podOf({ kind: 'ConfigMap' })).toBeUndefined();
  });

  it('lists containers without any resource limit', () => {
    const spec = { containers: [{ name: 'a', resources: { limits: { memory: '1Gi' } } }, { name: 'b', resources: { requests: { cpu: '1' } } }, { name: 'c' }] };
    expect(containersWithoutLimits(spec).map((c) => c.name)).toEqual(['b', 'c']);
  });
});

/**
 * Pods of ours that do not meet restricted with the defaults, each with its reason. Empty: the
 * bundled PostgreSQL runs as user 999 with seccomp RuntimeDefault, no privilege escalation and
 * every capability dropped (spec defaults of database.rdb.bundled.*), which meets restricted.
 */
const PSS_EXCEPTIONS: readonly { object: string; control: PssControl; reason: string }[] = [];

/**
 * Containers that render without resource limits by default, and why: the spec gives these
 * components no resources key, and their upstream charts set none.
 */
const NO_LIMITS: readonly { object: string; container: string; reason: string }[] = [
  { object: 'Deployment/agentplat-authproxy', container: 'authproxy', reason: 'the spec has no authproxy.resources key; the upstream proxy chart renders resources: {} (subcharts-facts 5.3)' },
  { object: 'Deployment/agentplat-substrate-api-server', container: 'api-server', reason: 'the spec has no substrate resources key; the bundled substrate API server renders none' },
];

/** Every component switched on: authproxy, substrate with a worker pool, metrics, dashboards MCP, tools, mcpop, bundled database (and in A the bundled agents, on by default). */
function everything(revision: Revision): Values {
  return {
    controller: { metrics: { enabled: true }, substrate: { enabled: true }, replicas: 2, pdb: { enabled: true } },
    authproxy: { enabled: true, config: { clientID: 'agentplat', clientSecret: 'not-a-real-secret', cookieSecret: '0123456789abcdef0123456789abcdef' } },
    substrate: { enabled: true },
    substrateWorkerPool: { create: true, [revision === 'A' ? 'ateomImage' : 'workerImage']: 'registry.example.com/worker:1' },
    'agentplat-tools': { enabled: true },
    mcpop: { enabled: true },
    'dashboards-mcp': { enabled: true },
    database: { rdb: { bundled: { enabled: true } } },
  };
}

const id = (d: RenderedDoc) => `${d.object.kind}/${d.object.metadata.name}`;

function workloads(docs: RenderedDoc[]): RenderedDoc[] {
  return docs.filter((d) => podOf(d.object) !== undefined);
}

function restrictedFindings(docs: RenderedDoc[]): string[] {
  return workloads(docs).flatMap((d) =>
    checkPod(podOf(d.object)!, 'restricted')
      .filter((v) => !PSS_EXCEPTIONS.some((e) => e.object === id(d) && e.control === v.control))
      .map((v) => `${id(d)} ${v.path.join('.')}: ${v.message}`),
  );
}

describe('security profile of the output: every pod of ours meets restricted', () => {
  const DEFAULT_PODS = ['Deployment/agentplat-controller', 'Deployment/agentplat-ui', 'Deployment/agentplat-postgresql', 'Deployment/agentplat-tools', 'Deployment/agentplat-mcpop-controller-manager', 'Deployment/agentplat-dashboards-mcp'];
  const ALL_PODS = [...DEFAULT_PODS, 'Deployment/agentplat-authproxy', 'Deployment/agentplat-substrate-api-server', 'WorkerPool/agentplat-default'];

  for (const revision of ['A', 'B'] as const) {
    it(`pss-restricted-defaults: revision ${revision} with its default values`, () => {
      const docs = render(revision);
      expect(workloads(docs).map(id).sort()).toEqual([...DEFAULT_PODS].sort());
      expect(restrictedFindings(docs)).toEqual([]);
    });

    it(`pss-restricted-everything-on: revision ${revision} with every component switched on`, () => {
      const docs = render(revision, everything(revision), { apiVersions: ['monitoring.coreos.com/v1'] });
      expect(workloads(docs).map(id).sort()).toEqual([...ALL_PODS].sort());
      expect(restrictedFindings(docs)).toEqual([]);
    });

    it(`pss-resource-limits: revision ${revision}: only the containers listed in NO_LIMITS render without limits`, () => {
      const missing = (docs: RenderedDoc[]) => workloads(docs).flatMap((d) => containersWithoutLimits(podOf(d.object)!.spec).map((c) => `${id(d)}/${c.name}`));
      expect(missing(render(revision))).toEqual([]);
      expect(missing(render(revision, everything(revision))).sort()).toEqual(NO_LIMITS.map((n) => `${n.object}/${n.container}`).sort());
      if (revision === 'A') {
        // the bundled agents' pods are created by the controller from each Agent's resources
        const agents = render(revision).filter((d) => d.object.kind === 'Agent');
        expect(agents).toHaveLength(10);
        for (const a of agents) expect((a.object as any).spec.declarative.deployment.resources.limits, id(a)).toBeDefined();
      }
    });
  }

  it('pss-exceptions: every listed exception has a reason and is still needed', () => {
    for (const e of PSS_EXCEPTIONS) {
      expect(e.reason.length).toBeGreaterThan(20);
      const docs = render('B', everything('B'));
      const d = docs.find((x) => id(x) === e.object);
      expect(d && checkPod(podOf(d.object)!, 'restricted').some((v) => v.control === e.control), `${e.object} ${e.control} no longer needs an exception`).toBe(true);
    }
    for (const n of NO_LIMITS) expect(n.reason.length).toBeGreaterThan(20);
  });
});
