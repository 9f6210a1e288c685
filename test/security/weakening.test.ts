// Each security/* rule, triggered by a fixture under fixtures/lint/ through representative values
// keys (top-level, a sub-chart's own key, a per-component override; both revisions where the key
// exists), and checked twice: the rendered pod really breaks the restricted profile (or really
// has no limits), and lint reports the rule with its values path, file, line and column.
import { storedForm } from '../../src/render/server-form.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { ruleCatalog } from '../../src/lint/config.ts';
import { lintValues } from '../../src/lint/lint.ts';
import { checkPod, containersWithoutLimits, podOf, type PssControl } from '../../src/lint/pss.ts';
import { SECURITY_RULE_IDS } from '../../src/lint/rules/security.ts';
import { securitySurfaces } from '../../src/lint/security-surfaces.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { render, valuesFor } from '../render/_render.ts';
import { runInProcess } from '../cli/in-process.ts';

interface Case {
  name: string;
  fixture: string;
  revisions: Revision[];
  rule: string;
  path: string;
  line: number;
  column: number;
  /** The rendered object that must fail, and how: a PSS control, or 'limits'. */
  object: string;
  breaks: PssControl | 'limits';
}

const BOTH: Revision[] = ['A', 'B'];

const cases: Case[] = [
  { name: 'security/privileged: top-level securityContext.privileged reaches the controller', fixture: 'security-privileged.yaml', revisions: BOTH, rule: 'security/privileged', path: 'securityContext.privileged', line: 3, column: 3, object: 'Deployment/agentplat-controller', breaks: 'privileged' },
  { name: 'security/privileged: top-level securityContext.privileged reaches the MCP operator sub-chart', fixture: 'security-privileged.yaml', revisions: BOTH, rule: 'security/privileged', path: 'securityContext.privileged', line: 3, column: 3, object: 'Deployment/agentplat-mcpop-controller-manager', breaks: 'privileged' },
  { name: "security/privileged: the tools sub-chart's own agentplat-tools.securityContext", fixture: 'security-privileged-tools.yaml', revisions: BOTH, rule: 'security/privileged', path: 'agentplat-tools.securityContext.privileged', line: 6, column: 5, object: 'Deployment/agentplat-tools', breaks: 'privileged' },
  { name: 'security/privileged: the ui.securityContext override', fixture: 'security-privileged-ui-override.yaml', revisions: BOTH, rule: 'security/privileged', path: 'ui.securityContext.privileged', line: 3, column: 5, object: 'Deployment/agentplat-ui', breaks: 'privileged' },
  { name: 'security/privileged: a Windows host process container', fixture: 'security-host-process.yaml', revisions: BOTH, rule: 'security/privileged', path: 'securityContext.windowsOptions.hostProcess', line: 3, column: 5, object: 'Deployment/agentplat-controller', breaks: 'host-process' },
  { name: 'security/privilege-escalation: a ui.securityContext override without allowPrivilegeEscalation', fixture: 'security-privileged-ui-override.yaml', revisions: BOTH, rule: 'security/privilege-escalation', path: 'ui.securityContext.allowPrivilegeEscalation', line: 2, column: 3, object: 'Deployment/agentplat-ui', breaks: 'privilege-escalation' },
  { name: 'security/privilege-escalation: top-level securityContext.allowPrivilegeEscalation true (dashboards MCP sub-chart)', fixture: 'security-privilege-escalation.yaml', revisions: BOTH, rule: 'security/privilege-escalation', path: 'securityContext.allowPrivilegeEscalation', line: 2, column: 3, object: 'Deployment/agentplat-dashboards-mcp', breaks: 'privilege-escalation' },
  { name: 'security/privilege-escalation: database.rdb.bundled.securityContext.allowPrivilegeEscalation removed', fixture: 'security-privilege-escalation-database.yaml', revisions: BOTH, rule: 'security/privilege-escalation', path: 'database.rdb.bundled.securityContext.allowPrivilegeEscalation', line: 5, column: 9, object: 'Deployment/agentplat-postgresql', breaks: 'privilege-escalation' },
  { name: 'security/run-as-root: top-level podSecurityContext.runAsNonRoot false', fixture: 'security-run-as-root.yaml', revisions: BOTH, rule: 'security/run-as-root', path: 'podSecurityContext.runAsNonRoot', line: 2, column: 3, object: 'Deployment/agentplat-controller', breaks: 'run-as-non-root' },
  { name: "security/run-as-root: the tools sub-chart's agentplat-tools.podSecurityContext.runAsUser 0", fixture: 'security-run-as-root-tools.yaml', revisions: BOTH, rule: 'security/run-as-root', path: 'agentplat-tools.podSecurityContext.runAsUser', line: 3, column: 5, object: 'Deployment/agentplat-tools', breaks: 'run-as-user' },
  { name: 'security/run-as-root: database.rdb.bundled.podSecurityContext.runAsUser 0', fixture: 'security-run-as-root-database.yaml', revisions: BOTH, rule: 'security/run-as-root', path: 'database.rdb.bundled.podSecurityContext.runAsUser', line: 5, column: 9, object: 'Deployment/agentplat-postgresql', breaks: 'run-as-user' },
  { name: 'security/run-as-root: a ui.podSecurityContext override replaces the top-level one and drops runAsNonRoot', fixture: 'security-run-as-root-ui-override.yaml', revisions: BOTH, rule: 'security/run-as-root', path: 'ui.podSecurityContext.runAsNonRoot', line: 3, column: 3, object: 'Deployment/agentplat-ui', breaks: 'run-as-non-root' },
  { name: 'security/run-as-root: top-level securityContext.runAsNonRoot false reaches the authentication proxy sub-chart', fixture: 'security-run-as-root-authproxy.yaml', revisions: BOTH, rule: 'security/run-as-root', path: 'securityContext.runAsNonRoot', line: 8, column: 3, object: 'Deployment/agentplat-authproxy', breaks: 'run-as-non-root' },
  { name: 'security/capabilities: top-level securityContext.capabilities.add SYS_ADMIN', fixture: 'security-capabilities-add.yaml', revisions: BOTH, rule: 'security/capabilities', path: 'securityContext.capabilities.add[0]', line: 3, column: 11, object: 'Deployment/agentplat-controller', breaks: 'capabilities' },
  { name: 'security/capabilities: top-level securityContext.capabilities.drop emptied', fixture: 'security-capabilities-no-drop.yaml', revisions: BOTH, rule: 'security/capabilities', path: 'securityContext.capabilities.drop', line: 3, column: 5, object: 'Deployment/agentplat-dashboards-mcp', breaks: 'capabilities' },
  { name: "security/capabilities: the tools sub-chart's agentplat-tools.securityContext adds CHOWN", fixture: 'security-capabilities-tools.yaml', revisions: BOTH, rule: 'security/capabilities', path: 'agentplat-tools.securityContext.capabilities.add[0]', line: 4, column: 13, object: 'Deployment/agentplat-tools', breaks: 'capabilities' },
  { name: 'security/capabilities: a ui.securityContext override without drop ALL', fixture: 'security-privileged-ui-override.yaml', revisions: BOTH, rule: 'security/capabilities', path: 'ui.securityContext.capabilities.drop', line: 2, column: 3, object: 'Deployment/agentplat-ui', breaks: 'capabilities' },
  { name: 'security/host-namespaces: substrateWorkerPool.template.hostNetwork (revision A)', fixture: 'security-host-namespaces-worker-pool-a.yaml', revisions: ['A'], rule: 'security/host-namespaces', path: 'substrateWorkerPool.template.hostNetwork', line: 8, column: 5, object: 'WorkerPool/agentplat-default', breaks: 'host-namespaces' },
  { name: 'security/host-namespaces: substrateWorkerPool.template.hostNetwork (revision B)', fixture: 'security-host-namespaces-worker-pool-b.yaml', revisions: ['B'], rule: 'security/host-namespaces', path: 'substrateWorkerPool.template.hostNetwork', line: 8, column: 5, object: 'WorkerPool/agentplat-default', breaks: 'host-namespaces' },
  { name: 'security/host-path: a hostPath volume in controller.volumes', fixture: 'security-host-path-controller.yaml', revisions: BOTH, rule: 'security/host-path', path: 'controller.volumes[0].hostPath', line: 4, column: 7, object: 'Deployment/agentplat-controller', breaks: 'host-path' },
  { name: 'security/host-path: a hostPath volume in the authentication proxy sub-chart (authproxy.extraVolumes)', fixture: 'security-host-path-authproxy.yaml', revisions: BOTH, rule: 'security/host-path', path: 'authproxy.extraVolumes[0].hostPath', line: 7, column: 7, object: 'Deployment/agentplat-authproxy', breaks: 'host-path' },
  { name: 'security/volume-types: an nfs volume in controller.volumes', fixture: 'security-volume-types.yaml', revisions: BOTH, rule: 'security/volume-types', path: 'controller.volumes[0].nfs', line: 4, column: 7, object: 'Deployment/agentplat-controller', breaks: 'volume-types' },
  { name: 'security/seccomp: top-level podSecurityContext.seccompProfile Unconfined', fixture: 'security-seccomp-unconfined.yaml', revisions: BOTH, rule: 'security/seccomp', path: 'podSecurityContext.seccompProfile.type', line: 3, column: 5, object: 'Deployment/agentplat-ui', breaks: 'seccomp' },
  { name: 'security/seccomp: top-level podSecurityContext.seccompProfile removed (MCP operator sub-chart)', fixture: 'security-seccomp-removed.yaml', revisions: BOTH, rule: 'security/seccomp', path: 'podSecurityContext.seccompProfile.type', line: 2, column: 3, object: 'Deployment/agentplat-mcpop-controller-manager', breaks: 'seccomp' },
  { name: 'security/seccomp: a ui.securityContext override with an Unconfined container profile', fixture: 'security-seccomp-ui-container.yaml', revisions: BOTH, rule: 'security/seccomp', path: 'ui.securityContext.seccompProfile.type', line: 7, column: 7, object: 'Deployment/agentplat-ui', breaks: 'seccomp' },
  { name: 'security/seccomp: a ui.podSecurityContext override without a seccomp profile', fixture: 'security-run-as-root-ui-override.yaml', revisions: BOTH, rule: 'security/seccomp', path: 'ui.podSecurityContext.seccompProfile.type', line: 3, column: 3, object: 'Deployment/agentplat-ui', breaks: 'seccomp' },
  { name: 'security/confinement: an unsafe sysctl in podSecurityContext.sysctls', fixture: 'security-confinement-sysctls.yaml', revisions: BOTH, rule: 'security/confinement', path: 'podSecurityContext.sysctls[0].name', line: 3, column: 7, object: 'Deployment/agentplat-controller', breaks: 'sysctls' },
  { name: 'security/confinement: an SELinux type outside the container types', fixture: 'security-confinement-selinux.yaml', revisions: BOTH, rule: 'security/confinement', path: 'securityContext.seLinuxOptions.type', line: 3, column: 5, object: 'Deployment/agentplat-ui', breaks: 'selinux' },
  { name: 'security/confinement: procMount Unmasked', fixture: 'security-confinement-proc-mount.yaml', revisions: BOTH, rule: 'security/confinement', path: 'securityContext.procMount', line: 2, column: 3, object: 'Deployment/agentplat-controller', breaks: 'proc-mount' },
  { name: 'security/confinement: an unconfined AppArmor annotation in the controller.podAnnotations override', fixture: 'security-confinement-apparmor.yaml', revisions: BOTH, rule: 'security/confinement', path: 'controller.podAnnotations.container\\.apparmor\\.security\\.beta\\.kubernetes\\.io/controller', line: 3, column: 5, object: 'Deployment/agentplat-controller', breaks: 'apparmor' },
  { name: 'security/no-resource-limits: controller.resources.limits removed', fixture: 'security-no-limits-controller.yaml', revisions: BOTH, rule: 'security/no-resource-limits', path: 'controller.resources.limits', line: 3, column: 5, object: 'Deployment/agentplat-controller', breaks: 'limits' },
  { name: 'security/no-resource-limits: dashboards-mcp.resources without limits (sub-chart)', fixture: 'security-no-limits-dashboards.yaml', revisions: BOTH, rule: 'security/no-resource-limits', path: 'dashboards-mcp.resources.limits', line: 5, column: 5, object: 'Deployment/agentplat-dashboards-mcp', breaks: 'limits' },
  { name: 'security/no-resource-limits: database.rdb.bundled.resources removed', fixture: 'security-no-limits-database.yaml', revisions: BOTH, rule: 'security/no-resource-limits', path: 'database.rdb.bundled.resources.limits', line: 4, column: 7, object: 'Deployment/agentplat-postgresql', breaks: 'limits' },
  { name: "security/no-resource-limits: a bundled agent's resources without limits (revision A)", fixture: 'security-no-limits-agent-a.yaml', revisions: ['A'], rule: 'security/no-resource-limits', path: 'cluster-agent.resources.limits', line: 3, column: 5, object: 'Agent/cluster-agent', breaks: 'limits' },
  { name: 'security/no-resource-limits: substrateWorkerPool.template.resources without limits (revision B)', fixture: 'security-no-limits-worker-pool-b.yaml', revisions: ['B'], rule: 'security/no-resource-limits', path: 'substrateWorkerPool.template.resources.limits', line: 8, column: 5, object: 'WorkerPool/agentplat-default', breaks: 'limits' },
];

function load(fixture: string) {
  const file = join('fixtures/lint', fixture);
  const parsed = parseValuesText(readFileSync(file, 'utf8'), file);
  expect(parsed.problems).toEqual([]);
  return { file, source: parsed.source! };
}

/** Whether the rendered object has no resource limits where its pods take them from. */
function lacksLimits(object: any): boolean {
  if (object.kind === 'Agent') return object.spec.declarative.deployment.resources?.limits === undefined;
  if (object.kind === 'WorkerPool') return object.spec.template?.resources !== undefined && object.spec.template.resources.limits === undefined;
  return containersWithoutLimits(podOf(object)!.spec).length > 0;
}

describe('security/* rules: each weakening is real and reported where the user wrote it', () => {
  for (const c of cases) {
    for (const revision of c.revisions) {
      it(`${c.name} [${revision}]`, () => {
        const { file, source } = load(c.fixture);
        // (a) the rendered object really breaks the profile
        const docs = render(revision, source.data);
        const doc = docs.find((d) => `${d.object.kind}/${d.object.metadata.name}` === c.object);
        expect(doc, `${c.object} is rendered`).toBeDefined();
        if (c.breaks === 'limits') expect(lacksLimits(doc!.object)).toBe(true);
        else expect(checkPod(podOf(doc!.object)!, 'restricted').map((v) => v.control)).toContain(c.breaks);
        // ...which it does not with the defaults
        const before = render(revision).find((d) => `${d.object.kind}/${d.object.metadata.name}` === c.object);
        if (before && c.breaks !== 'limits') expect(checkPod(podOf(before.object)!, 'restricted')).toEqual([]);
        // (b) lint warns with the rule, the values path and the position of the key
        const problems = lintValues({ revision, layers: [source] }).problems;
        const hit = problems.find((p) => p.rule === c.rule && p.path === c.path);
        expect(hit, JSON.stringify(problems, null, 1)).toBeDefined();
        expect(hit).toMatchObject({ severity: 'warning', file, line: c.line, column: c.column });
        expect(hit!.hint).toBeTruthy();
        expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      });
    }
  }

  it('every security rule is pinned by at least one weakening case', () => {
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(SECURITY_RULE_IDS));
  });

  it('security/privileged: the message names what was weakened and every pod it affects', () => {
    const { source } = load('security-privileged.yaml');
    const hit = lintValues({ revision: 'B', layers: [source] }).problems.find((p) => p.rule === 'security/privileged')!;
    expect(hit.message).toMatch(/privileged is true/);
    for (const pod of ['controller', 'UI', 'MCP operator', 'dashboards MCP server']) expect(hit.message).toContain(pod);
    // the tools server brings its own complete security context and is not affected
    expect(hit.message).not.toContain('tools server');
  });

  it('security/run-as-root: a per-component override says that it replaced the top-level key', () => {
    const { source } = load('security-run-as-root-ui-override.yaml');
    const hit = lintValues({ revision: 'A', layers: [source] }).problems.find((p) => p.rule === 'security/run-as-root')!;
    expect(hit.message).toMatch(/non-empty `ui\.podSecurityContext` replaces the top-level `podSecurityContext`/);
  });

  it.each(['A', 'B'] as const)('security rules: the defaults of revision %s and values that keep the profile do not warn', (revision) => {
    const quiet = (text: string) => {
      const parsed = parseValuesText(text, 'ok.yaml');
      return lintValues({ revision, layers: [parsed.source!] }).problems.filter((p) => p.rule.startsWith('security/'));
    };
    expect(lintValues({ revision, layers: [] }).problems.filter((p) => p.rule.startsWith('security/'))).toEqual([]);
    expect(quiet('controller:\n  replicas: 2\n')).toEqual([]);
    // a complete override that keeps the profile, more limits, an allowed volume, NET_BIND_SERVICE
    expect(
      quiet(
        [
          'ui:',
          '  podSecurityContext: {runAsNonRoot: true, runAsUser: 1001, fsGroup: 1001, seccompProfile: {type: RuntimeDefault}}',
          '  securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL], add: [NET_BIND_SERVICE]}}',
          '  resources: {limits: {memory: 2Gi}}',
          'controller:',
          '  volumes: [{name: db-url, secret: {secretName: db}}]',
          '  resources: {requests: {cpu: 200m}}',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('security rules are registered: in the rule catalog and tunable with --rule', async () => {
    const catalog = ruleCatalog();
    for (const id of SECURITY_RULE_IDS) expect(catalog.get(id), id).toBeTruthy();
    const args = ['lint', '--revision', 'B', '-f', 'fixtures/lint/security-privileged.yaml', '--format', 'json'];
    const io = await runInProcess([...args, '--rule', 'security/privileged=error']);
    expect(io.code).toBe(1);
    const problems = (out: string) => (JSON.parse(out).files as { problems: { rule: string; severity: string }[] }[]).flatMap((f) => f.problems).filter((p) => p.rule === 'security/privileged');
    expect(problems(io.stdout).map((p) => p.severity)).toEqual(['error']);
    const off = await runInProcess([...args, '--rule', 'security/privileged=off']);
    expect(off.code).toBe(0);
    expect(problems(off.stdout)).toEqual([]);
  });
});

/** The rendered object of each pod the rules rebuild. */
const OBJECT_OF: Record<string, string> = {
  controller: 'Deployment/agentplat-controller',
  UI: 'Deployment/agentplat-ui',
  'bundled database': 'Deployment/agentplat-postgresql',
  'tools server': 'Deployment/agentplat-tools',
  'MCP operator': 'Deployment/agentplat-mcpop-controller-manager',
  'dashboards MCP server': 'Deployment/agentplat-dashboards-mcp',
  'authentication proxy': 'Deployment/agentplat-authproxy',
  'substrate API server': 'Deployment/agentplat-substrate-api-server',
  'substrate worker pool': 'WorkerPool/agentplat-default',
};

describe('the pods the security rules rebuild from values are the pods the chart renders', () => {
  const fixtures = [...new Set(cases.map((c) => c.fixture))];
  for (const fixture of fixtures) {
    for (const revision of cases.find((c) => c.fixture === fixture)!.revisions) {
      it(`security surfaces match the rendered pods: ${fixture} [${revision}]`, () => {
        const { source } = load(fixture);
        const docs = render(revision, source.data);
        const surfaces = securitySurfaces(valuesFor(revision, source.data).values);
        expect(surfaces.length).toBeGreaterThan(0);
        for (const s of surfaces) {
          const doc = docs.find((d) => `${d.object.kind}/${d.object.metadata.name}` === OBJECT_OF[s.object]);
          expect(doc, s.object).toBeDefined();
          const pod = podOf(doc!.object)!;
          const mine = s.pod.spec as any;
          const theirs = pod.spec as any;
          if (doc!.object.kind === 'WorkerPool') {
            expect(mine, s.object).toEqual(theirs);
            continue;
          }
          expect(mine.securityContext ?? {}, `${s.object} pod securityContext`).toEqual(theirs.securityContext ?? {});
          expect(mine.containers[0].securityContext, `${s.object} container securityContext`).toEqual(theirs.containers[0].securityContext ?? {});
          // The render writes quantities as the API server stores them (cpu: 2 → "2"); the rules read the values.
          const stored = (storedForm({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: mine }).spec as any).containers[0].resources;
          expect(stored ?? {}, `${s.object} resources`).toEqual(theirs.containers[0].resources ?? {});
          // volume sources are compared by type (the authentication proxy's pass through the template engine)
          const shape = (v: any) => [v.name, ...Object.keys(v).filter((k) => k !== 'name').sort()].join(' ');
          for (const v of mine.volumes ?? []) expect((theirs.volumes ?? []).map(shape), `${s.object} volume ${v.name}`).toContain(shape(v));
          for (const [k, v] of Object.entries(s.pod.annotations ?? {})) expect((pod.annotations as any)?.[k], `${s.object} annotation ${k}`).toBe(v);
        }
      });
    }
  }
});
