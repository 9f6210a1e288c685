// The authentication proxy sub-chart (`authproxy.*`, off by default): the upstream OAuth2
// proxy in front of the UI. The sign-in templates ConfigMap it mounts belongs to the main chart
// (src/render/components/platform.ts); the checksum include of its default extraEnv is
// registered by src/model/sign-in-template.ts.
// Not rendered (out of scope, no values key reaches them): redis session storage objects,
// autoscaling, disruption budget, ingress and metrics scraping objects.

import type { Component, RenderContext } from '../../model/context.ts';
import { checksum } from '../../model/checksum.ts';
import { subchartNamespace } from './common.ts';
import { asList, asMap, asStr } from '../../model/values-access.ts';
import { authproxyFullname } from './names.ts';
import { evalTplDeep } from './tpl-values.ts';
// registers the `agentplat.authproxy.signInChecksum` include the default extraEnv uses
import '../../model/sign-in-template.ts';
import { AUTHPROXY_SECRET_KEYS } from '../../model/authproxy-secret-keys.ts';
import { podView, subchartComponent, subchartDocs, subchartLabels } from './workload.ts';

export { AUTHPROXY_SECRET_KEYS };

const CHART = 'authproxy';
/** The upstream proxy the sub-chart (10.7.x) ships: image registry, repository and version. */
export const AUTHPROXY_IMAGE = { registry: 'quay.io', repository: 'oauth2-proxy/oauth2-proxy', version: '7.15.3' } as const;
export const AUTHPROXY_HTTP_PORT = 4180;
export const AUTHPROXY_METRICS_PORT = 44180;

function labels(ctx: RenderContext, name: string, chartVersion: string) {
  return subchartLabels(ctx, {
    name,
    chart: CHART,
    chartVersion,
    appVersion: AUTHPROXY_IMAGE.version,
    extra: { 'app.kubernetes.io/component': 'authentication-proxy', 'app.kubernetes.io/part-of': 'agentplat' },
  });
}

/** One container flag per extraArgs entry, sorted by key: `--key=value` (a list is appended as written). */
export function proxyArgs(extraArgs: unknown): string[] {
  if (Array.isArray(extraArgs)) return extraArgs.map((a) => asStr(a, JSON.stringify(a)));
  const m = asMap(extraArgs);
  return Object.keys(m)
    .sort()
    .map((k) => {
      const v = m[k];
      if (v === null || v === undefined) return `--${k}`;
      return `--${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
    });
}

export const authproxyComponent: Component = subchartComponent(CHART, (ctx, b, version) => {
  const config = asMap(b.config);
  const fullname = authproxyFullname(ctx);
  const namespace = subchartNamespace(ctx, b);
  // The chart's name, nameOverride when set, names its container and its labels.
  const name = asStr(b.nameOverride) || CHART;
  const { labels: l, selector } = labels(ctx, name, version);
  const existingSecret = asStr(config.existingSecret);
  const secretName = existingSecret || fullname;

  // Inline secret values are taken as written and base64-encoded; nothing is generated: a
  // missing value is a lint error (lint/rules/subcharts.ts).
  const secretData: Record<string, string> = {};
  for (const s of AUTHPROXY_SECRET_KEYS) {
    secretData[s.key] = Buffer.from(asStr(config[s.value]), 'utf8').toString('base64');
  }

  const env: unknown[] = AUTHPROXY_SECRET_KEYS.map((s) => ({
    name: s.env,
    valueFrom: { secretKeyRef: { name: secretName, key: s.key } },
  }));
  const sessionType = asStr(asMap(b.sessionStorage).type) || 'cookie';
  env.push({ name: 'OAUTH2_PROXY_SESSION_STORE_TYPE', value: sessionType });
  for (const e of asList(evalTplDeep(ctx, asList(b.extraEnv)))) env.push(e);

  const podAnn: Record<string, string> = {};
  if (!existingSecret) podAnn['checksum/secret'] = checksum(secretData);

  const service = asMap(b.service);
  const view = {
    name: fullname,
    containerName: name,
    namespace,
    labels: l,
    selector,
    serviceType: asStr(service.type) || 'ClusterIP',
    servicePort: typeof service.portNumber === 'number' ? service.portNumber : AUTHPROXY_HTTP_PORT,
    httpPort: AUTHPROXY_HTTP_PORT,
    metricsPort: AUTHPROXY_METRICS_PORT,
    secretData,
    args: [
      `--http-address=0.0.0.0:${AUTHPROXY_HTTP_PORT}`,
      `--metrics-address=0.0.0.0:${AUTHPROXY_METRICS_PORT}`,
      ...proxyArgs(evalTplDeep(ctx, b.extraArgs)),
    ],
    env,
    volumeMounts: asList(b.extraVolumeMounts),
    volumes: asList(evalTplDeep(ctx, asList(b.extraVolumes))),
    ...podView(ctx, {
      image: { ...AUTHPROXY_IMAGE, tag: `v${AUTHPROXY_IMAGE.version}` },
      podAnnotations: podAnn,
      securityBaseline: { runAsNonRoot: true, runAsUser: 2000, runAsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
    }),
  };

  // An existing Secret is the user's: the chart renders none (and no checksum of one).
  return subchartDocs(CHART, [
    ['serviceaccount.yaml', 'authproxy/serviceaccount.yaml.hbs'],
    ...(existingSecret ? [] : ([['secret.yaml', 'authproxy/secret.yaml.hbs']] as const)),
    ['service.yaml', 'authproxy/service.yaml.hbs'],
    ['deployment.yaml', 'authproxy/deployment.yaml.hbs'],
  ], view);
});
