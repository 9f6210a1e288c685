// extraObjects: each entry passes through the values template evaluator with the release
// context. A map entry has every string (and key) evaluated, so a template can change a value
// but never the entry's structure; a string entry is evaluated as a whole and must then parse
// as YAML objects with apiVersion, kind and metadata.name (several documents allowed).
// An object without metadata.namespace of a namespaced kind gets the chart namespace, as every
// other object of the chart does (kubectl would otherwise put it in the kubeconfig's current
// namespace); a kind whose scope is not known (kind-scope.ts) is left as written and listed.
// Shared by the renderer and by the lint rules `values/templated-values` and
// `values/extra-object-scope`.

import { parseAllDocuments } from 'yaml';
import { evaluateDeep, evaluateTpl, TplError, type TplProblem, type TplScope } from './tpl.ts';
import type { K8sObject } from './objects.ts';
import { kindScope } from './kind-scope.ts';

export interface ExpandedExtraObjects {
  objects: { index: number; object: K8sObject }[];
  problems: TplProblem[];
  /** Objects written without a namespace whose kind's scope is not known: left without one. */
  unknownScope: { index: number; apiVersion: string; kind: string; name: string }[];
}

/** `at` is the values path of the list (a sub-chart has its own `<chart>.extraObjects`). */
export function expandExtraObjects(entries: readonly unknown[], scope: TplScope, at: readonly string[] = ['extraObjects']): ExpandedExtraObjects {
  const where = at.join('.');
  const objects: ExpandedExtraObjects['objects'] = [];
  const problems: TplProblem[] = [];
  const unknownScope: ExpandedExtraObjects['unknownScope'] = [];
  const namespace = scope.namespace;
  const add = (index: number, object: K8sObject) => {
    if (typeof object.metadata.namespace === 'string' && object.metadata.namespace !== '') {
      objects.push({ index, object });
      return;
    }
    const scope = kindScope(object.apiVersion, object.kind);
    if (scope === 'namespaced') object = { ...object, metadata: { ...object.metadata, namespace } };
    else if (scope === undefined) unknownScope.push({ index, apiVersion: object.apiVersion, kind: object.kind, name: String(object.metadata.name) });
    objects.push({ index, object });
  };
  entries.forEach((entry, index) => {
    const path: (string | number)[] = [...at, index];
    if (typeof entry === 'string') {
      let text: string;
      try {
        text = evaluateTpl(entry, scope);
      } catch (err) {
        if (!(err instanceof TplError)) throw err;
        problems.push({ path, message: `${where}[${index}]: ${err.message}` });
        return;
      }
      let docIndex = 0;
      for (const doc of parseAllDocuments(text, { uniqueKeys: true, version: '1.2', logLevel: 'error' }) as unknown as { errors: { message: string }[]; toJS(): unknown }[]) {
        docIndex++;
        if (doc.errors.length > 0) {
          problems.push({ path, message: `${where}[${index}] is not valid YAML after templating (document ${docIndex}): ${doc.errors[0]!.message.split('\n')[0]}` });
          continue;
        }
        let obj: unknown;
        try {
          obj = doc.toJS();
        } catch (err) {
          // The parser leaves an alias without its anchor, or too many aliases, to toJS.
          if (!(err instanceof ReferenceError)) throw err;
          problems.push({ path, message: `${where}[${index}] is not valid YAML after templating (document ${docIndex}): ${err.message}` });
          continue;
        }
        if (obj === null || obj === undefined) continue;
        const why = objectShapeProblem(obj);
        if (why) problems.push({ path, message: `${where}[${index}] (document ${docIndex}) ${why}` });
        else add(index, obj as K8sObject);
      }
      return;
    }
    const local: TplProblem[] = [];
    const obj = evaluateDeep(entry, scope, path, local);
    for (const p of local) problems.push({ path: p.path, message: `${where}[${index}]: ${p.message}` });
    if (local.length > 0) return;
    const why = objectShapeProblem(obj);
    if (why) problems.push({ path, message: `${where}[${index}] ${why}` });
    else add(index, obj as K8sObject);
  });
  return { objects, problems, unknownScope };
}

function objectShapeProblem(obj: unknown): string | undefined {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return 'is not a map (a Kubernetes object)';
  const o = obj as Record<string, unknown>;
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (typeof o.apiVersion !== 'string' || o.apiVersion === '') return 'has no apiVersion';
  if (typeof o.kind !== 'string' || o.kind === '') return 'has no kind';
  if (meta === null || typeof meta !== 'object' || typeof meta.name !== 'string' || meta.name === '') return 'has no metadata.name';
  return undefined;
}
