// The parts of the controller and UI workloads that follow one rule set, keyed by component:
// the ServiceAccount, the Deployment's pod template settings and the ClusterIP-style Service.
// What differs between the two (env, ports, volumes, config) stays in their own modules.

import type { RenderContext } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import {
  chartLabels,
  deploymentAnnotations,
  overrideOrGlobal,
  podAnnotations,
  podLabels,
  probe,
  pullPolicy,
  scheduling,
  selectorLabels,
  stringMap,
  workloadImage,
  type Labels,
} from '../chart.ts';
import { at, firstOf, map, num, str, type Json, type JsonMap } from '../../model/values-access.ts';
import { chartDocs, meta } from './common.ts';

export type Workload = 'controller' | 'ui';

/** The workload's ServiceAccount: common labels and `<component>.serviceAccount.annotations`. */
export function serviceAccountDocs(ctx: RenderContext, component: Workload, name: string): RenderedDoc[] {
  return chartDocs(`${component}-serviceaccount.yaml`, 'serviceaccount.yaml.hbs', {
    meta: meta(ctx, name, chartLabels(ctx), stringMap(map(ctx.values, `${component}.serviceAccount.annotations`))),
  });
}

export interface PodSettings {
  /** Labels of the Deployment's own metadata. */
  labels: Labels;
  /** Checksum annotations that restart the pods when their config changes. */
  checksums: Labels;
  serviceAccountName: string;
  /** The pull secret list the pod starts from (before [B] global ones). */
  pullSecrets: Json[];
  probes: { startup: JsonMap; readiness: JsonMap };
}

/** Deployment view keys read from `<component>.*` with the chart's top-level fall-backs. */
export function podSettings(ctx: RenderContext, component: Workload, name: string, s: PodSettings) {
  const v = ctx.values;
  return {
    meta: meta(ctx, name, s.labels, deploymentAnnotations(ctx, component)),
    replicas: num(v, `${component}.replicas`, 1),
    selectorLabels: selectorLabels(ctx, component),
    podLabels: podLabels(ctx, component, map(v, `${component}.podLabels`)),
    podAnnotations: podAnnotations(ctx, component, s.checksums),
    serviceAccountName: s.serviceAccountName,
    imagePullSecrets: ctx.model.images.pullSecrets(s.pullSecrets),
    podSecurityContext: overrideOrGlobal(ctx, component, 'podSecurityContext'),
    scheduling: scheduling(ctx, component),
    image: workloadImage(ctx, `${component}.image`),
    imagePullPolicy: pullPolicy(ctx, `${component}.image`),
    resources: map(v, `${component}.resources`),
    securityContext: overrideOrGlobal(ctx, component, 'securityContext'),
    startupProbe: probe(ctx, `${component}.startupProbe`, s.probes.startup),
    readinessProbe: probe(ctx, `${component}.readinessProbe`, s.probes.readiness),
  };
}

/** The workload's Service: one port named after the component, `<component>.service.*` settings. */
export function serviceDocs(ctx: RenderContext, component: Workload, name: string, defaultPort: number, targetPort: unknown): RenderedDoc[] {
  const v = ctx.values;
  return chartDocs(`${component}-service.yaml`, 'service.yaml.hbs', {
    meta: meta(ctx, name, chartLabels(ctx, component), stringMap(map(v, `${component}.service.annotations`))),
    type: firstOf(str(v, `${component}.service.type`), 'ClusterIP'),
    ports: [{ name: component, port: at(v, `${component}.service.ports.port`) ?? defaultPort, targetPort }],
    selector: selectorLabels(ctx, component),
  });
}
