// CRDs for the kinds the chart renders whose API a bare kube-apiserver does not serve: the
// Prometheus operator's ServiceMonitor, the Gateway API's HTTPRoute, OpenShift's Route and the
// sandbox substrate's WorkerPool. Each schema follows the field structure of the public API
// (names, types, nesting, enums, required fields) for the parts a chart can set, so the API
// server's strict field validation rejects any field those APIs do not have. Fields no chart
// renders (status, rarely used scrape options) are left out: an object using them would be
// refused here, which is the safe direction for this check.

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const bool: Schema = { type: 'boolean' };
const obj = (properties: Record<string, Schema>, required?: string[]): Schema => ({ type: 'object', properties, ...(required ? { required } : {}) });
const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
const map: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };
const free: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const labelSelector = obj({
  matchLabels: map,
  matchExpressions: arr(obj({ key: str(), operator: str(), values: arr(str()) }, ['key', 'operator'])),
});
const secretKeySelector = obj({ name: str(), key: str(), optional: bool }, ['key']);
const configMapKeySelector = secretKeySelector;
const secretOrConfigMap = obj({ secret: secretKeySelector, configMap: configMapKeySelector });
const relabel = obj({
  sourceLabels: arr(str()),
  separator: str(),
  targetLabel: str(),
  regex: str(),
  modulus: int({ format: 'int64' }),
  replacement: str(),
  action: str({ enum: ['replace', 'Replace', 'keep', 'Keep', 'drop', 'Drop', 'hashmod', 'HashMod', 'labelmap', 'LabelMap', 'labeldrop', 'LabelDrop', 'labelkeep', 'LabelKeep', 'lowercase', 'Lowercase', 'uppercase', 'Uppercase', 'keepequal', 'KeepEqual', 'dropequal', 'DropEqual'] }),
});

const endpoint = obj({
  port: str(),
  targetPort: intOrString,
  path: str(),
  scheme: str({ enum: ['http', 'https', 'HTTP', 'HTTPS'] }),
  params: { type: 'object', additionalProperties: arr(str()) },
  interval: str(),
  scrapeTimeout: str(),
  honorLabels: bool,
  honorTimestamps: bool,
  trackTimestampsStaleness: bool,
  bearerTokenFile: str(),
  bearerTokenSecret: secretKeySelector,
  authorization: obj({ type: str(), credentials: secretKeySelector }),
  basicAuth: obj({ username: secretKeySelector, password: secretKeySelector }),
  tlsConfig: obj({
    ca: secretOrConfigMap,
    cert: secretOrConfigMap,
    keySecret: secretKeySelector,
    caFile: str(),
    certFile: str(),
    keyFile: str(),
    serverName: str(),
    insecureSkipVerify: bool,
  }),
  metricRelabelings: arr(relabel),
  relabelings: arr(relabel),
  followRedirects: bool,
  enableHttp2: bool,
  filterRunning: bool,
});

const serviceMonitor = obj(
  {
    spec: obj(
      {
        jobLabel: str(),
        targetLabels: arr(str()),
        podTargetLabels: arr(str()),
        endpoints: arr(endpoint),
        selector: labelSelector,
        namespaceSelector: obj({ any: bool, matchNames: arr(str()) }),
        sampleLimit: int({ format: 'int64' }),
        targetLimit: int({ format: 'int64' }),
        labelLimit: int({ format: 'int64' }),
        attachMetadata: obj({ node: bool }),
        scrapeClass: str(),
      },
      ['selector'],
    ),
  },
  ['spec'],
);

const parentRef = obj(
  {
    group: str({ maxLength: 253 }),
    kind: str({ maxLength: 63, minLength: 1 }),
    namespace: str({ maxLength: 63, minLength: 1 }),
    name: str({ maxLength: 253, minLength: 1 }),
    sectionName: str({ maxLength: 253, minLength: 1 }),
    port: int({ format: 'int32', minimum: 1, maximum: 65535 }),
  },
  ['name'],
);
const headerMatch = obj({ type: str({ enum: ['Exact', 'RegularExpression'] }), name: str({ minLength: 1, maxLength: 256 }), value: str({ minLength: 1, maxLength: 4096 }) }, ['name', 'value']);
const header = obj({ name: str({ minLength: 1, maxLength: 256 }), value: str({ minLength: 1, maxLength: 4096 }) }, ['name', 'value']);
const headerModifier = obj({ set: arr(header, { maxItems: 16 }), add: arr(header, { maxItems: 16 }), remove: arr(str(), { maxItems: 16 }) });
const pathModifier = obj({ type: str({ enum: ['ReplaceFullPath', 'ReplacePrefixMatch'] }), replaceFullPath: str({ maxLength: 1024 }), replacePrefixMatch: str({ maxLength: 1024 }) }, ['type']);
const backendObjectRef = {
  group: str({ maxLength: 253 }),
  kind: str({ maxLength: 63, minLength: 1 }),
  name: str({ maxLength: 253, minLength: 1 }),
  namespace: str({ maxLength: 63, minLength: 1 }),
  port: int({ format: 'int32', minimum: 1, maximum: 65535 }),
};
const filter = obj(
  {
    type: str({ enum: ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'RequestRedirect', 'URLRewrite', 'ExtensionRef', 'CORS'] }),
    requestHeaderModifier: headerModifier,
    responseHeaderModifier: headerModifier,
    requestMirror: obj({ backendRef: obj(backendObjectRef, ['name']), percent: int({ format: 'int32' }), fraction: obj({ numerator: int({ format: 'int32' }), denominator: int({ format: 'int32' }) }) }, ['backendRef']),
    requestRedirect: obj({ scheme: str({ enum: ['http', 'https'] }), hostname: str(), path: pathModifier, port: int({ format: 'int32' }), statusCode: int({ enum: [301, 302, 303, 307, 308] }) }),
    urlRewrite: obj({ hostname: str(), path: pathModifier }),
    extensionRef: obj({ group: str(), kind: str(), name: str() }, ['group', 'kind', 'name']),
  },
  ['type'],
);
const httpRoute = obj({
  spec: obj({
    parentRefs: arr(parentRef, { maxItems: 32 }),
    hostnames: arr(str({ minLength: 1, maxLength: 253 }), { maxItems: 16 }),
    rules: arr(
      obj({
        name: str({ minLength: 1, maxLength: 253 }),
        matches: arr(
          obj({
            path: obj({ type: str({ enum: ['Exact', 'PathPrefix', 'RegularExpression'] }), value: str({ maxLength: 1024 }) }),
            headers: arr(headerMatch, { maxItems: 16 }),
            queryParams: arr(headerMatch, { maxItems: 16 }),
            method: str({ enum: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'] }),
          }),
          { maxItems: 64 },
        ),
        filters: arr(filter, { maxItems: 16 }),
        backendRefs: arr(obj({ ...backendObjectRef, weight: int({ format: 'int32', minimum: 0, maximum: 1000000 }), filters: arr(filter, { maxItems: 16 }) }, ['name']), { maxItems: 16 }),
        timeouts: obj({ request: str(), backendRequest: str() }),
        retry: obj({ codes: arr(int()), attempts: int(), backoff: str() }),
        sessionPersistence: free,
      }),
      { maxItems: 16 },
    ),
  }),
});

const routeTarget = obj({ kind: str({ enum: ['Service', ''] }), name: str(), weight: int({ format: 'int32', minimum: 0, maximum: 256 }) }, ['kind', 'name']);
const route = obj(
  {
    spec: obj(
      {
        host: str({ maxLength: 253 }),
        subdomain: str({ maxLength: 253 }),
        path: str(),
        to: routeTarget,
        alternateBackends: arr(routeTarget, { maxItems: 3 }),
        port: obj({ targetPort: intOrString }, ['targetPort']),
        tls: obj(
          {
            termination: str({ enum: ['edge', 'reencrypt', 'passthrough'] }),
            certificate: str(),
            key: str(),
            caCertificate: str(),
            destinationCACertificate: str(),
            insecureEdgeTerminationPolicy: str({ enum: ['Allow', 'None', 'Redirect', ''] }),
            externalCertificate: obj({ name: str() }),
          },
          ['termination'],
        ),
        wildcardPolicy: str({ enum: ['None', 'Subdomain', ''] }),
        httpHeaders: free,
      },
      ['to'],
    ),
  },
  ['spec'],
);

// The substrate's pool API exists in two shapes (an older single sandbox class plus `ateomImage`,
// a newer one-item `sandboxClasses` list plus `workerImage`); one schema takes both.
const workerPool = obj(
  {
    spec: obj(
      {
        replicas: int({ format: 'int32', minimum: 0 }),
        ateomImage: str({ minLength: 1 }),
        sandboxClass: str({ enum: ['gvisor', 'microvm'] }),
        workerImage: str({ minLength: 1 }),
        sandboxClasses: arr(obj({ name: str({ minLength: 1 }), configRef: obj({ name: str() }) }, ['name']), { minItems: 1, maxItems: 1 }),
        template: free,
      },
      ['replicas'],
    ),
  },
  ['spec'],
);

function crd(group: string, version: string, kind: string, plural: string, schema: Schema, scope = 'Namespaced'): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${plural}.${group}`,
      // Groups under k8s.io are reserved for APIs reviewed upstream; the server wants this marker.
      ...(group.endsWith('.k8s.io') ? { annotations: { 'api-approved.kubernetes.io': 'unapproved, a stand-in of the Gateway API for the agentplat cluster suite' } } : {}),
    },
    spec: {
      group,
      scope,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

/** The CRDs of the foreign kinds, keyed by the `apiVersion/kind` their objects use. */
export const FOREIGN_CRDS: Record<string, Record<string, unknown>> = {
  'monitoring.coreos.com/v1/ServiceMonitor': crd('monitoring.coreos.com', 'v1', 'ServiceMonitor', 'servicemonitors', serviceMonitor),
  'gateway.networking.k8s.io/v1/HTTPRoute': crd('gateway.networking.k8s.io', 'v1', 'HTTPRoute', 'httproutes', httpRoute),
  'route.openshift.io/v1/Route': crd('route.openshift.io', 'v1', 'Route', 'routes', route),
  'ate.dev/v1alpha1/WorkerPool': crd('ate.dev', 'v1alpha1', 'WorkerPool', 'workerpools', workerPool),
};
