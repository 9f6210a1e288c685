// Install order and the duplicate check. The project's order (design.md), helm's install order
// trimmed to it: Namespace, CRDs, ServiceAccounts, Secrets, ConfigMaps, storage, ClusterRoles,
// ClusterRoleBindings, Roles, RoleBindings, Services, workloads, then every other kind by name
// (PodDisruptionBudget, ServiceMonitor, custom resources, …); within a kind by source path,
// then namespace and name.

import type { RenderedDoc } from '../model/objects.ts';

const KIND_ORDER = [
  'Namespace',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];

/** Helm's install order puts CRDs first of all (its crds/ directory), then this kind order. */
function rank(kind: string): number {
  if (kind === 'Namespace') return -2;
  if (kind === 'CustomResourceDefinition') return -1;
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function orderDocs(docs: readonly RenderedDoc[]): RenderedDoc[] {
  return docs
    .map((d, i) => ({ d, i }))
    .sort(
      (x, y) =>
        rank(x.d.object.kind) - rank(y.d.object.kind) ||
        (rank(x.d.object.kind) === KIND_ORDER.length ? cmp(x.d.object.kind, y.d.object.kind) : 0) ||
        cmp(x.d.source, y.d.source) ||
        cmp(x.d.object.metadata.namespace ?? '', y.d.object.metadata.namespace ?? '') ||
        cmp(x.d.object.metadata.name, y.d.object.metadata.name) ||
        x.i - y.i,
    )
    .map(({ d }) => d);
}

export class DuplicateObjectError extends Error {}

/** Two objects with the same apiVersion group, kind, namespace and name would overwrite each other. */
export function assertUnique(docs: readonly RenderedDoc[]): void {
  const seen = new Map<string, string>();
  for (const { source, object } of docs) {
    const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
    const key = `${group}/${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    const prev = seen.get(key);
    if (prev !== undefined) {
      throw new DuplicateObjectError(
        `two objects are both ${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name} (from ${prev} and ${source})`,
      );
    }
    seen.set(key, source);
  }
}
