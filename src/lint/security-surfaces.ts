// The pods the chart renders, rebuilt from the merged values with only the parts that decide
// their security profile (pod and container security contexts, user volumes, resources, pod
// annotations), each part tagged with the values key it came from. The security/* rules check
// these pods with the Pod Security Standards checker and point each finding at that key.
// The precedence rules mirror the renderer (src/render/components/workload.ts,
// src/render/subcharts/workload.ts and common.ts); test/security/weakening.test.ts compares the two
// on every weakening the rules know, so they cannot drift apart silently.

import type { RevisionModel } from '../model/revision-model.ts';
import { AUTHPROXY_SECURITY_BASELINE } from '../model/authproxy-plan.ts';
import { DASHBOARDS_MCP_SECURITY_BASELINE, dashboardsMcpSecurityContext } from '../model/dashboards-mcp-security.ts';
import { asMap, at } from '../model/values-access.ts';
import { isPlainMap, splitPath, type Values } from '../values/merge.ts';
import type { PathSegment } from '../values/source.ts';
import type { PodInput, PssPath } from './pss.ts';

/** A part of a pod (a prefix inside the pod spec, or `metadata.annotations`) and the values key it is read from. */
export interface Provenance {
  at: PssPath;
  key: readonly PathSegment[];
  /** Set when `key` is a component override that replaced this top-level key as a whole. */
  replaces?: string;
}

export interface SecuritySurface {
  /** What the user knows the pod as: `controller`, `UI`, `bundled database`, … */
  object: string;
  pod: PodInput;
  from: Provenance[];
}

/** Values keys of one container's resources that never reach a pod (the bundled agents' Agent resources). */
export interface ResourceSurface {
  object: string;
  key: readonly PathSegment[];
  resources: unknown;
}

type Obj = Record<string, unknown>;
const mapAt = (v: Values, path: string): Obj => asMap(at(v, path));
const nonEmpty = (x: unknown): x is Obj => isPlainMap(x) && Object.keys(x).length > 0;

/** The component's own map when it is non-empty, else the top-level one (whole replacement, no merge). */
function pick(v: Values, own: string, global: string): { value: Obj; key: PathSegment[]; replaces?: string } {
  const o = at(v, own);
  return nonEmpty(o) ? { value: o, key: splitPath(own), replaces: global } : { value: mapAt(v, global), key: splitPath(global) };
}

interface PodParts {
  object: string;
  podSc: { value: Obj; key?: PathSegment[]; replaces?: string };
  /** Container security context: a fixed baseline with the values map laid over it key by key. */
  sc: { value: Obj; key?: PathSegment[]; replaces?: string; baseline?: Obj };
  resources: { value: unknown; key?: PathSegment[] };
  volumes?: { list: unknown; key: PathSegment[] };
  annotations?: { value: Obj; key: PathSegment[] };
}

function surface(p: PodParts): SecuritySurface {
  const container: Obj = { name: 'main', securityContext: { ...(p.sc.baseline ?? {}), ...p.sc.value } };
  if (nonEmpty(p.resources.value)) container.resources = p.resources.value;
  const spec: Obj = { containers: [container] };
  if (nonEmpty(p.podSc.value)) spec.securityContext = p.podSc.value;
  const from: Provenance[] = [];
  const prov = (atPath: PssPath, src: { key?: PathSegment[]; replaces?: string }) => {
    if (src.key) from.push({ at: atPath, key: src.key, ...(src.replaces ? { replaces: src.replaces } : {}) });
  };
  prov(['securityContext'], p.podSc);
  prov(['containers', 0, 'securityContext'], p.sc);
  prov(['containers', 0, 'resources'], p.resources);
  if (p.volumes && Array.isArray(p.volumes.list)) {
    spec.volumes = p.volumes.list;
    prov(['volumes'], { key: p.volumes.key });
  }
  if (p.annotations) prov(['metadata', 'annotations'], { key: p.annotations.key });
  return { object: p.object, pod: { spec, ...(p.annotations ? { annotations: p.annotations.value } : {}) }, from };
}

const TOP_POD_SC = (v: Values) => ({ value: mapAt(v, 'podSecurityContext'), key: ['podSecurityContext'] });
const TOP_SC = (v: Values, baseline: Obj = {}) => ({ value: mapAt(v, 'securityContext'), key: ['securityContext'], baseline });
const TOP_ANNOTATIONS = (v: Values) => ({ value: mapAt(v, 'podAnnotations'), key: ['podAnnotations'] });

/** Container security baselines of sub-charts whose upstream image needs a fixed user (subcharts-facts 4 and 5). */
export const SUBCHART_SECURITY_BASELINES: Readonly<Record<string, Obj>> = {
  'dashboards-mcp': DASHBOARDS_MCP_SECURITY_BASELINE,
  authproxy: AUTHPROXY_SECURITY_BASELINE,
};

/** Whether the bundled database is deployed: enabled, and neither url nor urlFile set. */
export function bundledDatabaseDeployed(v: Values): boolean {
  return at(v, 'database.rdb.bundled.enabled') === true && !at(v, 'database.rdb.url') && !at(v, 'database.rdb.urlFile');
}

const enabled = (v: Values, key: string) => at(v, `${key}.enabled`) === true;

/** Every pod the chart renders with these values, rebuilt with the provenance of its security settings. */
export function securitySurfaces(v: Values): SecuritySurface[] {
  const out: SecuritySurface[] = [];
  for (const [component, object] of [['controller', 'controller'], ['ui', 'UI']] as const) {
    const annotations = pick(v, `${component}.podAnnotations`, 'podAnnotations');
    out.push(
      surface({
        object,
        podSc: pick(v, `${component}.podSecurityContext`, 'podSecurityContext'),
        sc: pick(v, `${component}.securityContext`, 'securityContext'),
        resources: { value: at(v, `${component}.resources`), key: [component, 'resources'] },
        ...(component === 'controller' ? { volumes: { list: at(v, 'controller.volumes'), key: ['controller', 'volumes'] } } : {}),
        annotations: { value: annotations.value, key: annotations.key },
      }),
    );
  }
  if (bundledDatabaseDeployed(v)) {
    const b = 'database.rdb.bundled';
    out.push(
      surface({
        object: 'bundled database',
        podSc: { value: mapAt(v, `${b}.podSecurityContext`), key: splitPath(`${b}.podSecurityContext`) },
        sc: { value: mapAt(v, `${b}.securityContext`), key: splitPath(`${b}.securityContext`) },
        resources: { value: at(v, `${b}.resources`), key: splitPath(`${b}.resources`) },
      }),
    );
  }
  if (enabled(v, 'agentplat-tools')) {
    const ownSc = at(v, 'agentplat-tools.securityContext');
    out.push(
      surface({
        object: 'tools server',
        podSc: pick(v, 'agentplat-tools.podSecurityContext', 'podSecurityContext'),
        sc: nonEmpty(ownSc) ? { value: ownSc, key: ['agentplat-tools', 'securityContext'], replaces: 'securityContext' } : TOP_SC(v),
        resources: { value: at(v, 'agentplat-tools.resources'), key: ['agentplat-tools', 'resources'] },
        annotations: TOP_ANNOTATIONS(v),
      }),
    );
  }
  if (enabled(v, 'mcpop')) {
    // its resources are fixed in the sub-chart's template
    // its own pod and container contexts replace the top-level ones when set (as rendered)
    out.push(surface({ object: 'MCP operator', podSc: pick(v, 'mcpop.podSecurityContext', 'podSecurityContext'), sc: pick(v, 'mcpop.securityContext', 'securityContext'), resources: { value: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '10m', memory: '64Mi' } } }, annotations: TOP_ANNOTATIONS(v) }));
  }
  if (enabled(v, 'dashboards-mcp')) {
    out.push(
      surface({
        object: 'dashboards MCP server',
        podSc: pick(v, 'dashboards-mcp.podSecurityContext', 'podSecurityContext'),
        // The block's own map coalesced over the top-level one and the image's user (as rendered).
        sc: nonEmpty(at(v, 'dashboards-mcp.securityContext'))
          ? { value: dashboardsMcpSecurityContext(at(v, 'securityContext'), at(v, 'dashboards-mcp.securityContext')), key: ['dashboards-mcp', 'securityContext'] }
          : TOP_SC(v, SUBCHART_SECURITY_BASELINES['dashboards-mcp']),
        resources: { value: at(v, 'dashboards-mcp.resources'), key: ['dashboards-mcp', 'resources'] },
        annotations: TOP_ANNOTATIONS(v),
      }),
    );
  }
  if (enabled(v, 'authproxy')) {
    // The container context: the proxy baseline, the top-level securityContext over it, the
    // block's own fields over both; `securityContext.enabled: false` writes none at all.
    const ownSc = Object.fromEntries(Object.entries(mapAt(v, 'authproxy.securityContext')).filter(([k, x]) => k !== 'enabled' && x !== null && x !== undefined));
    const scOff = at(v, 'authproxy.securityContext.enabled') === false;
    const sc = scOff
      ? { value: {}, key: ['authproxy', 'securityContext', 'enabled'] }
      : nonEmpty(ownSc)
        ? { value: { ...mapAt(v, 'securityContext'), ...ownSc }, key: ['authproxy', 'securityContext'], baseline: SUBCHART_SECURITY_BASELINES.authproxy }
        : TOP_SC(v, SUBCHART_SECURITY_BASELINES.authproxy);
    const annotations = pick(v, 'authproxy.podAnnotations', 'podAnnotations');
    out.push(
      surface({
        object: 'authentication proxy',
        podSc: pick(v, 'authproxy.podSecurityContext', 'podSecurityContext'),
        sc,
        resources: { value: at(v, 'authproxy.resources'), key: ['authproxy', 'resources'] },
        volumes: { list: at(v, 'authproxy.extraVolumes'), key: ['authproxy', 'extraVolumes'] },
        annotations: { value: annotations.value, key: annotations.key },
      }),
    );
  }
  if (enabled(v, 'substrate')) {
    // no resources key: the API server runs without requests or limits (subcharts-facts 6.1)
    out.push(surface({ object: 'substrate API server', podSc: TOP_POD_SC(v), sc: TOP_SC(v), resources: { value: undefined }, annotations: TOP_ANNOTATIONS(v) }));
  }
  if (at(v, 'controller.substrate.enabled') === true && at(v, 'substrateWorkerPool.create') === true) {
    // The pool's template is passed to the WorkerPool verbatim; the substrate builds the worker pods from it.
    const template = mapAt(v, 'substrateWorkerPool.template');
    out.push({
      object: 'substrate worker pool',
      pod: { spec: template, annotations: template.annotations },
      from: [
        { at: [], key: ['substrateWorkerPool', 'template'] },
        { at: ['metadata', 'annotations'], key: ['substrateWorkerPool', 'template', 'annotations'] },
      ],
    });
  }
  return out;
}

/**
 * Resources that are not a container of a pod the chart renders, but become one elsewhere:
 * each bundled agent's (revision A) goes to the pods the controller creates for that Agent, the
 * worker pool's to the substrate's workers.
 */
export function resourceSurfaces(v: Values, model: Pick<RevisionModel, 'bundledAgents'>): ResourceSurface[] {
  const out: ResourceSurface[] = [];
  if (model.bundledAgents) {
    // the bundled agents are the top-level `<area>-agent` blocks
    for (const key of Object.keys(v).filter((k) => k.endsWith('-agent') && isPlainMap(v[k]))) if (enabled(v, key)) out.push({ object: `${key} Agent`, key: [key, 'resources'], resources: at(v, `${key}.resources`) });
  }
  if (at(v, 'controller.substrate.enabled') === true && at(v, 'substrateWorkerPool.create') === true) {
    const template = mapAt(v, 'substrateWorkerPool.template');
    if ('resources' in template) out.push({ object: 'substrate worker pool', key: ['substrateWorkerPool', 'template', 'resources'], resources: template.resources });
  }
  return out;
}
