// Warnings when the user's values weaken the security profile of the chart's pods: with the
// defaults every pod meets the Pod Security Standards "restricted" level (docs/security.md), so
// any control a pod breaks comes from something the user wrote. Each pod is rebuilt from the
// merged values (../security-surfaces.ts), checked (../pss.ts), and every finding is reported
// once per values key with the pods it affects.
//   warn: securityContext: {privileged: true}             (controller, UI, sub-chart containers)
//   warn: ui.podSecurityContext: {fsGroup: 2000}          (replaces the top-level one: no runAsNonRoot, no seccomp)
//   warn: controller.volumes: [{name: h, hostPath: {path: /var/run}}]
//   warn: controller.resources: {limits: null}

import type { PathSegment } from '../../values/source.ts';
import { joinPath } from '../../values/merge.ts';
import { checkPod, containersWithoutLimits, type PssControl, type PssPath } from '../pss.ts';
import { resourceSurfaces, securitySurfaces, type Provenance } from '../security-surfaces.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import type { RuleContext, ValuesRule } from './types.ts';

interface SecurityRule {
  id: string;
  description: string;
  /** What the weakening allows, for the message. */
  effect: string;
  hint: string;
}

const RULES = {
  privileged: {
    id: 'security/privileged',
    description: 'Containers must not run privileged (nor as Windows host processes)',
    effect: 'a privileged container has every capability and the host devices',
    hint: 'remove the setting (privileged: false is the default; the API server also refuses privileged: true next to allowPrivilegeEscalation: false); grant a single capability instead if the workload needs one',
  },
  escalation: {
    id: 'security/privilege-escalation',
    description: 'Containers keep allowPrivilegeEscalation: false',
    effect: 'a process can gain more privileges than its parent (setuid binaries)',
    hint: 'keep allowPrivilegeEscalation: false in the container security context',
  },
  root: {
    id: 'security/run-as-root',
    description: 'Pods keep runAsNonRoot: true and never run as user 0',
    effect: 'the container may run as root',
    hint: 'keep runAsNonRoot: true and use a non-zero runAsUser',
  },
  capabilities: {
    id: 'security/capabilities',
    description: 'Containers drop ALL capabilities and add back at most NET_BIND_SERVICE',
    effect: 'the container keeps Linux capabilities beyond what it needs',
    hint: 'keep capabilities.drop: [ALL]; add back only NET_BIND_SERVICE',
  },
  hostNamespaces: {
    id: 'security/host-namespaces',
    description: "Pods do not share the host's network, process or IPC namespace, nor bind host ports",
    effect: "the pod shares the node's network, processes or IPC",
    hint: 'remove hostNetwork, hostPID, hostIPC and hostPort; expose the pod through a Service instead',
  },
  hostPath: {
    id: 'security/host-path',
    description: "Volumes do not mount the node's file system (hostPath)",
    effect: "the pod can read or write the node's file system",
    hint: 'use a configMap, secret, emptyDir, persistentVolumeClaim, projected or csi volume instead of hostPath',
  },
  volumeTypes: {
    id: 'security/volume-types',
    description: 'Volumes are of the types the restricted profile allows (configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret)',
    effect: 'the volume type is outside the restricted profile',
    hint: 'mount it through a persistentVolumeClaim or a csi volume instead',
  },
  seccomp: {
    id: 'security/seccomp',
    description: 'Pods keep a RuntimeDefault or Localhost seccomp profile',
    effect: 'system calls are no longer filtered',
    hint: 'keep seccompProfile: {type: RuntimeDefault} in the pod security context (or Localhost with a profile)',
  },
  confinement: {
    id: 'security/confinement',
    description: 'AppArmor, SELinux, /proc mount and sysctl settings stay within the baseline profile',
    effect: 'the container is less confined by the kernel',
    hint: 'leave AppArmor at RuntimeDefault or Localhost, the SELinux type unset or container_t (no user or role), procMount Default, and use only safe sysctls',
  },
  limits: {
    id: 'security/no-resource-limits',
    description: 'Containers whose defaults have resource limits keep them',
    effect: 'the container can use all the CPU and memory of its node',
    hint: 'set limits.memory (and limits.cpu) in the resources block, or keep the defaults',
  },
} as const satisfies Record<string, SecurityRule>;

const CONTROL_RULE: Record<PssControl, SecurityRule> = {
  'host-process': RULES.privileged,
  privileged: RULES.privileged,
  'privilege-escalation': RULES.escalation,
  'run-as-non-root': RULES.root,
  'run-as-user': RULES.root,
  capabilities: RULES.capabilities,
  'host-namespaces': RULES.hostNamespaces,
  'host-ports': RULES.hostNamespaces,
  'host-path': RULES.hostPath,
  'volume-types': RULES.volumeTypes,
  seccomp: RULES.seccomp,
  apparmor: RULES.confinement,
  selinux: RULES.confinement,
  'proc-mount': RULES.confinement,
  sysctls: RULES.confinement,
};

/** The rule ids of this module, for tests and docs. */
export const SECURITY_RULE_IDS: readonly string[] = Object.values(RULES).map((r) => r.id);

interface Finding {
  rule: SecurityRule;
  path: PathSegment[];
  what: Set<string>;
  objects: Set<string>;
  /** The component override that replaced a top-level key, when the finding comes from one. */
  override?: { own: readonly PathSegment[]; global: string };
}

function startsWith(path: PssPath, prefix: PssPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

/** The values key a finding inside the pod comes from: the longest provenance prefix, plus the rest of the path. */
function attribute(path: PssPath, from: readonly Provenance[]): { path: PathSegment[]; prov: Provenance } | undefined {
  let best: Provenance | undefined;
  for (const p of from) if (startsWith(path, p.at) && (!best || p.at.length > best.at.length)) best = p;
  return best ? { path: [...best.key, ...path.slice(best.at.length)], prov: best } : undefined;
}

export const securityRules: ValuesRule = {
  ids: Object.values(RULES).map(({ id, description }) => ({ id, description })),
  check(ctx) {
    // Defaults meet restricted; linting them alone is a smoke check and stays quiet.
    if (!ctx.userSet([])) return;
    const findings = new Map<string, Finding>();
    const note = (rule: SecurityRule, path: PathSegment[], what: string, object: string, prov?: Provenance) => {
      const k = `${rule.id}\0${joinPath(path)}`;
      const f = findings.get(k) ?? { rule, path, what: new Set(), objects: new Set(), ...(prov?.replaces ? { override: { own: prov.key, global: prov.replaces } } : {}) };
      f.what.add(what);
      f.objects.add(object);
      findings.set(k, f);
    };
    for (const s of securitySurfaces(ctx.values)) {
      for (const v of checkPod(s.pod, 'restricted')) {
        const a = attribute(v.path, s.from);
        // Parts without a values key are fixed by the chart (and meet the profile).
        if (!a || !ctx.userSet(a.prov.key)) continue;
        note(CONTROL_RULE[v.control], a.path, v.message, s.object, a.prov);
      }
      for (const c of containersWithoutLimits(s.pod.spec)) {
        const a = attribute(c.path, s.from);
        if (!a || !ctx.userSet(a.prov.key)) continue;
        note(RULES.limits, a.path, 'no resource limits', s.object, a.prov);
      }
    }
    for (const r of resourceSurfaces(ctx.values, revisionModel(ctx.revision, ctx.values))) {
      if (!ctx.userSet(r.key) || hasLimits(r.resources)) continue;
      note(RULES.limits, [...r.key, 'limits'], 'no resource limits', r.object);
    }
    for (const f of findings.values()) report(ctx, f);
  },
};

function hasLimits(resources: unknown): boolean {
  const limits = (resources as { limits?: unknown } | null | undefined)?.limits;
  return limits !== null && typeof limits === 'object' && ('cpu' in limits || 'memory' in limits);
}

function report(ctx: RuleContext, f: Finding): void {
  const objects = [...f.objects];
  const list = objects.length === 1 ? objects[0]! : `${objects.slice(0, -1).join(', ')} and ${objects.at(-1)!}`;
  const pods = `the ${list} pod${objects.length === 1 ? '' : 's'}`;
  const what = f.rule === RULES.limits ? `leaves the container of ${pods} without resource limits` : `weakens the restricted Pod Security Standard of ${pods}: ${[...f.what].join('; ')}`;
  const replaced = f.override ? ` (a non-empty \`${joinPath(f.override.own)}\` replaces the top-level \`${f.override.global}\` as a whole)` : '';
  ctx.report({
    rule: f.rule.id,
    severity: 'warning',
    path: f.path,
    message: `\`${joinPath(f.path)}\` ${what}; ${f.rule.effect}${replaced}`,
    hint: f.rule.hint,
  });
}
