// The two chart revisions and the versions each pins. Revision-specific facts live here as
// data so shared code asks `REVISIONS[rev]` instead of branching on the revision id.

export type Revision = 'A' | 'B';
export const REVISION_IDS: readonly Revision[] = ['A', 'B'];

export interface RevisionInfo {
  id: Revision;
  /** Chart version; image tags default to it. */
  chartVersion: string;
  /** Sub-chart version pins (section 2.1 of the values document; build-time pins chosen by us). */
  subcharts: Record<string, string>;
  /** Version constraints the chart declares where it pins a range rather than one version. */
  constraints: Record<string, string>;
  /** The words `controller.auth.mode` accepts, the default first (each revision has its own word for no authentication). */
  authModes: readonly string[];
  /** [A] the chart ships the ten bundled agent sub-charts, pinned to the chart version; B has none. */
  bundledAgents: boolean;
}

export const REVISIONS: Record<Revision, RevisionInfo> = {
  A: {
    id: 'A',
    bundledAgents: true,
    chartVersion: '0.10.0',
    subcharts: {
      authproxy: '10.7.0',
      'agentplat-tools': '0.2.1',
      'dashboards-mcp': '0.10.0',
      mcpop: '0.3.0',
      substrate: '0.0.9',
    },
    constraints: { authproxy: '~10.7.0' },
    authModes: ['unsecure', 'trusted-proxy'],
  },
  B: {
    id: 'B',
    bundledAgents: false,
    chartVersion: '0.11.0',
    subcharts: {
      authproxy: '10.7.0',
      'agentplat-tools': '0.3.0',
      'dashboards-mcp': '1.0.0-alpha8',
      mcpop: '0.3.0',
      substrate: '0.0.9',
    },
    constraints: { authproxy: '~10.7.0' },
    authModes: ['insecure', 'trusted-proxy'],
  },
};

/** The revision a finding or a reference compares with. */
export function otherRevision(r: Revision): Revision {
  return r === 'A' ? 'B' : 'A';
}

export function parseRevision(raw: string): Revision | undefined {
  const up = raw.trim().toUpperCase();
  return up === 'A' || up === 'B' ? up : undefined;
}

export const CHART_NAME = 'agentplat';

/** The areas of the ten agents revision A bundles, each a sub-chart keyed `<area>-agent`. */
export const AGENT_AREAS = [
  'rollouts', 'network-debug', 'network-manager', 'network-policy', 'package-manager',
  'service-mesh', 'cluster', 'gateway', 'observability', 'query-language',
] as const;
export type AgentArea = (typeof AGENT_AREAS)[number];
