// A user's partial `dashboards-mcp.securityContext` (runAsUser alone) is laid over the default
// container context key by key, as Helm coalesces a user map over a sub-chart's defaults: the
// image's group 999 and the top-level settings stay. The lint's rebuilt pod is the rendered one.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { securitySurfaces } from '../../src/lint/security-surfaces.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { REVISION_IDS } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { dataSource } from '../../src/values/source.ts';
import { render, valuesFor } from '../render/_render.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const podSpec = (docs: RenderedDoc[]): any => (docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-dashboards-mcp')!.object as any).spec.template.spec;
const rebuilt = (rev: (typeof REVISION_IDS)[number], user: Values) => securitySurfaces(valuesFor(rev, user).values).find((s) => s.object === 'dashboards MCP server')!.pod.spec as { securityContext?: unknown; containers: { securityContext: unknown }[] };

describe('a partial dashboards-mcp.securityContext never loses a default setting', () => {
  for (const rev of REVISION_IDS) {
    it(`[${rev}] runAsUser: 1234 alone renders user 1234 with group 999 and every other default, and lint rebuilds that pod`, () => {
      const defaults = podSpec(render(rev)).containers[0].securityContext;
      expect(defaults).toMatchObject({ runAsUser: 1000, runAsGroup: 999, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      const user = { 'dashboards-mcp': { securityContext: { runAsUser: 1234 } } };
      const rendered = podSpec(render(rev, user));
      expect(rendered.containers[0].securityContext).toEqual({ ...defaults, runAsUser: 1234 });
      expect(rebuilt(rev, user).containers[0]!.securityContext).toEqual(rendered.containers[0].securityContext);
      // Nothing weakened: the security rules have nothing to say.
      const { problems } = lintValues({ revision: rev, layers: [dataSource('values.yaml', user)] });
      expect(problems.filter((p) => p.rule.startsWith('security/') && p.severity !== 'info')).toEqual([]);
    });

    it(`[${rev}] a key set to null removes that default only (runAsGroup: null), as Helm coalesces`, () => {
      const defaults = podSpec(render(rev)).containers[0].securityContext;
      const user = { 'dashboards-mcp': { securityContext: { runAsGroup: null } } };
      const rendered = podSpec(render(rev, user));
      const { runAsGroup, ...rest } = defaults;
      expect(runAsGroup).toBe(999);
      expect(rendered.containers[0].securityContext).toEqual(rest);
      expect(rebuilt(rev, user).containers[0]!.securityContext).toEqual(rendered.containers[0].securityContext);
    });

    it(`[${rev}] its own podSecurityContext (which replaces the top-level one, as documented) is the pod lint rebuilds`, () => {
      const user = { 'dashboards-mcp': { podSecurityContext: { runAsNonRoot: true, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } } } };
      const rendered = podSpec(render(rev, user));
      expect(rendered.securityContext).toEqual(user['dashboards-mcp'].podSecurityContext);
      expect(rebuilt(rev, user).securityContext).toEqual(rendered.securityContext);
    });
  }
});

describe('the MCP operator\'s own security contexts, which replace the top-level ones (its template\'s choice), are what lint checks', () => {
  for (const rev of REVISION_IDS) {
    it(`[${rev}] mcpop.securityContext with runAsUser alone: lint rebuilds the rendered container and warns that it lost the top-level settings`, () => {
      const user = { mcpop: { enabled: true, securityContext: { runAsUser: 1234 }, podSecurityContext: { runAsNonRoot: true, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } } } };
      const docs = render(rev, user);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const spec = (docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-mcpop-controller-manager')!.object as any).spec.template.spec;
      expect(spec.containers[0].securityContext).toEqual({ runAsUser: 1234 });
      const pod = securitySurfaces(valuesFor(rev, user).values).find((s) => s.object === 'MCP operator')!.pod.spec as { securityContext?: unknown; containers: { securityContext: unknown }[] };
      expect(pod.containers[0]!.securityContext).toEqual(spec.containers[0].securityContext);
      expect(pod.securityContext).toEqual(spec.securityContext);
      const { problems } = lintValues({ revision: rev, layers: [dataSource('values.yaml', user)] });
      expect(problems.filter((p) => p.rule === 'security/privilege-escalation').map((p) => p.path)).toEqual(['mcpop.securityContext.allowPrivilegeEscalation']);
    });
  }
});

