// Role and binding documents of the main chart (templates/chart/rbac/*): the controller's RBAC
// and the substrate env-source access build them the same way, so the kinds of a pair always
// agree (a namespace means Role + RoleBinding there, none means the cluster-wide kinds).

import type { RenderContext } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import type { Labels } from '../chart.ts';
import { chartDocs, meta } from './common.ts';

export interface Rule {
  apiGroups: string[] | null;
  resources: string[] | null;
  nonResourceURLs: string[] | null;
  verbs: string[];
}

export const rule = (apiGroups: string[], resources: string[], verbs: string[]): Rule => ({ apiGroups, resources, nonResourceURLs: null, verbs });

export const nonResourceRule = (nonResourceURLs: string[], verbs: string[]): Rule => ({ apiGroups: null, resources: null, nonResourceURLs, verbs });

export interface Subject {
  name: string;
  namespace: string;
}

/** A Role in `namespace`, or a ClusterRole when it is null. */
export function roleDocs(ctx: RenderContext, file: string, name: string, rules: Rule[], labels: Labels, namespace: string | null): RenderedDoc[] {
  const kind = namespace === null ? 'ClusterRole' : 'Role';
  return chartDocs(file, 'rbac/role.yaml.hbs', { kind, meta: meta(ctx, name, labels, {}, namespace), rules });
}

/** A binding of the role `roleName` of the same scope: RoleBinding in `namespace`, or ClusterRoleBinding when null. */
export function bindingDocs(ctx: RenderContext, file: string, name: string, roleName: string, subjects: Subject[], labels: Labels, namespace: string | null): RenderedDoc[] {
  const roleKind = namespace === null ? 'ClusterRole' : 'Role';
  return chartDocs(file, 'rbac/binding.yaml.hbs', { kind: `${roleKind}Binding`, meta: meta(ctx, name, labels, {}, namespace), roleKind, roleName, subjects });
}

export interface RolePair {
  files: { role: string; binding: string };
  names: { role: string; binding: string };
  rules: Rule[];
  subjects: Subject[];
  labels: Labels;
  namespace: string | null;
}

/** A role and its binding to `subjects`, in that order. */
export function rolePairDocs(ctx: RenderContext, p: RolePair): RenderedDoc[] {
  return [
    ...roleDocs(ctx, p.files.role, p.names.role, p.rules, p.labels, p.namespace),
    ...bindingDocs(ctx, p.files.binding, p.names.binding, p.names.role, p.subjects, p.labels, p.namespace),
  ];
}
