// Whether a kind is namespaced or cluster-scoped, for objects the user adds (extraObjects): a
// namespaced object without a namespace gets the chart namespace like every object of the chart,
// a cluster-scoped one must not get one, and a kind not listed here (a custom resource of
// another project) is one whose scope agentplat cannot know.
//
// Facts from the Kubernetes API reference (`kubectl api-resources`, column NAMESPACED) for the
// built-in groups, and from the CRDs of the projects whose kinds charts commonly add (Gateway API,
// cert-manager, Prometheus operator, External Secrets, Kyverno, Cilium) and this chart's own
// Resource API (agentplat.dev, every kind namespaced).

export type KindScope = 'namespaced' | 'cluster';

/** `group/Kind` (core group: `/Kind`) of every cluster-scoped kind known here. */
const CLUSTER = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/VolumeAttributesClass',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'certificates.k8s.io/CertificateSigningRequest',
  'certificates.k8s.io/ClusterTrustBundle',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'resource.k8s.io/DeviceClass',
  'resource.k8s.io/ResourceSlice',
  'gateway.networking.k8s.io/GatewayClass',
  'cert-manager.io/ClusterIssuer',
  'external-secrets.io/ClusterSecretStore',
  'external-secrets.io/ClusterExternalSecret',
  'kyverno.io/ClusterPolicy',
  'cilium.io/CiliumClusterwideNetworkPolicy',
]);

/** `group/Kind` of every namespaced kind known here. */
const NAMESPACED = new Set([
  ...['Pod', 'Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'PersistentVolumeClaim', 'Endpoints', 'Event', 'LimitRange', 'ResourceQuota', 'PodTemplate', 'ReplicationController'].map((k) => `/${k}`),
  ...['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ControllerRevision'].map((k) => `apps/${k}`),
  'batch/Job',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'policy/PodDisruptionBudget',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'networking.k8s.io/NetworkPolicy',
  'networking.k8s.io/Ingress',
  'discovery.k8s.io/EndpointSlice',
  'coordination.k8s.io/Lease',
  'events.k8s.io/Event',
  'storage.k8s.io/CSIStorageCapacity',
  'resource.k8s.io/ResourceClaim',
  'resource.k8s.io/ResourceClaimTemplate',
  ...['Gateway', 'HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute', 'ReferenceGrant', 'BackendTLSPolicy'].map((k) => `gateway.networking.k8s.io/${k}`),
  'cert-manager.io/Issuer',
  'cert-manager.io/Certificate',
  ...['ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'Probe', 'Prometheus', 'Alertmanager', 'AlertmanagerConfig'].map((k) => `monitoring.coreos.com/${k}`),
  'external-secrets.io/ExternalSecret',
  'external-secrets.io/SecretStore',
  'kyverno.io/Policy',
  'cilium.io/CiliumNetworkPolicy',
  'route.openshift.io/Route',
]);

/** The chart's own API group: every kind of it is namespaced. */
const OWN_GROUP = 'agentplat.dev';

/** The scope of `kind` in `apiVersion` (`group/version`, or `version` for the core group); undefined when not known. */
export function kindScope(apiVersion: string, kind: string): KindScope | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  if (group === OWN_GROUP) return 'namespaced';
  const id = `${group}/${kind}`;
  if (CLUSTER.has(id)) return 'cluster';
  if (NAMESPACED.has(id)) return 'namespaced';
  return undefined;
}
