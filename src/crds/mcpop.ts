// The MCP operator's own CRD, MCPServer (agentplat.dev/v1alpha1), shipped with the mcpop sub-chart.

import { bool, cel, field, int, int32, k8s, k8sList, list, obj, str, strList, strMap, type Node } from './dsl.ts';

const nameRefs = (description: string): Node => list(description, obj({ name: str('Name of the object') }, { required: ['name'] }));
const pullPolicy = (d: string): Node => str(d, { enum: ['Always', 'Never', 'IfNotPresent'] });

const MCPServerDeployment = obj(
  {
    image: str('Image of the MCP server'),
    imagePullPolicy: pullPolicy('Image pull policy'),
    imagePullSecrets: k8sList('LocalObjectReference', 'Secrets for pulling the image'),
    cmd: str('Command of the server container'),
    args: strList('Arguments of the command'),
    env: strMap('Environment variables'),
    port: int32('Port the server listens on; the container port', { default: 3000, minimum: 1, maximum: 65535 }),
    replicas: int32('Number of server pods; the Deployment\'s replicas', { default: 1, minimum: 0 }),
    configMapRefs: nameRefs('ConfigMaps mounted as volumes'),
    secretRefs: nameRefs('Secrets mounted as volumes'),
    volumes: k8sList('Volume', 'Extra pod volumes'),
    volumeMounts: k8sList('VolumeMount', 'Extra mounts of the server container'),
    sidecars: k8sList('Container', 'Sidecar containers'),
    initContainer: field(
      'Init container that installs the transport adapter for stdio servers',
      obj({
        image: str('Image of the init container'),
        imagePullPolicy: pullPolicy('Image pull policy'),
        resources: k8s('ResourceRequirements', 'Compute resources'),
        securityContext: k8s('SecurityContext', 'Security context'),
      }),
    ),
    resources: k8s('ResourceRequirements', 'Compute resources of the server container'),
    securityContext: k8s('SecurityContext', 'Security context of the server container'),
    podSecurityContext: k8s('PodSecurityContext', 'Security context of the pod'),
    serviceAccount: field('ServiceAccount created for the server', obj({ annotations: strMap('Annotations'), labels: strMap('Labels') })),
    serviceAccountName: str('Existing ServiceAccount to use'),
    labels: strMap('Labels of the pod template'),
    annotations: strMap('Annotations of the pod template'),
    nodeSelector: strMap('Node selector'),
    affinity: k8s('Affinity', 'Pod affinity rules'),
    tolerations: k8sList('Toleration', 'Pod tolerations'),
  },
  {
    rules: [
      cel('mcpserver-service-account-exclusive', '!(has(self.serviceAccount) && has(self.serviceAccountName))', 'serviceAccount and serviceAccountName are mutually exclusive', '.serviceAccount'),
    ],
  },
);

export const MCPServerSpec = obj(
  {
    deployment: field('How to run the MCP server container', MCPServerDeployment),
    transportType: str('Transport the server speaks', { enum: ['stdio', 'http'] }),
    stdioTransport: field('Marker for the stdio transport', obj({})),
    httpTransport: field(
      'Streamable HTTP transport',
      obj({
        targetPort: int32('HTTP port of the server; the Service\'s target port', { minimum: 1, maximum: 65535 }),
        path: str('Path where MCP is served'),
        tls: field(
          'mTLS to the server',
          obj({
            secretRef: str('Secret with client certificate, key and optional CA'),
            insecureSkipVerify: bool('Skip certificate verification', { default: false }),
          }),
        ),
      }),
    ),
    timeout: str('Default client connection timeout (duration)', { default: '30s' }),
  },
  { required: ['deployment'] },
);

export const MCPServerStatus = obj({
  observedGeneration: int('Generation last processed by the operator'),
  conditions: { ...k8sList('Condition', 'Standard status conditions'), maxItems: 8 },
});

/** The MCPServer kind as the CRD generator takes it (its own version: the operator serves v1alpha1). */
export const MCPSERVER_KIND = {
  version: 'v1alpha1',
  kind: 'MCPServer',
  plural: 'mcpservers',
  singular: 'mcpserver',
  shortNames: [] as string[],
  description: 'An MCP server run by the MCP operator.',
  spec: MCPServerSpec,
  status: MCPServerStatus,
  columns: [
    { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};
