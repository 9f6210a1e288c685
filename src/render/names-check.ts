// Names and metadata the API server would refuse. Object names are built from the release or
// fullnameOverride plus a suffix (`<fullname>-controller-metrics`), so a long or oddly spelled
// release gives names over the limits; labels and annotations come from values and `extraObjects`.
// This turns each into a problem naming the object instead of a failed apply.

import type { Problem } from '../problems/problem.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { metadataFindings, RELAXED_SERVICE_NAMES_SINCE } from '../kube-check/metadata.ts';
import { kubeOlder } from '../chart/kube-features.ts';
import type { RenderRuleId } from './rules.ts';

const NAME_HINT = 'object names are <fullname>-<suffix>: use a shorter --release-name, or set fullnameOverride (lower-case letters, digits and "-", starting with a letter)';
const HINTS: Record<string, string> = {
  name: NAME_HINT,
  generateName: NAME_HINT,
  namespace: 'check namespaceOverride and -n/--namespace',
  labels: 'check the labels the values set (labels, podLabels, a component\'s labels) and -l/--labels',
  annotations: 'check the annotations the values set (podAnnotations, a component\'s annotations)',
  ownerReferences: 'an owner reference needs apiVersion, kind, name and uid, and at most one is the controller',
};

/**
 * Problems for every object whose name, namespace, labels or annotations the API server would
 * reject. Service names are held to the rule of every version unless --kube-version names one
 * that takes more.
 */
export function checkObjectNames(docs: readonly RenderedDoc[], kubeVersion?: string): Problem[] {
  const problems: Problem[] = [];
  const opts = { relaxedServiceNames: kubeVersion !== undefined && !kubeOlder(kubeVersion, RELAXED_SERVICE_NAMES_SINCE) };
  for (const { source, object } of docs) {
    for (const f of metadataFindings(object.kind, object.metadata, opts)) {
      problems.push({
        severity: 'error',
        rule: 'render/object-name' satisfies RenderRuleId,
        path: '',
        message: `${object.kind} "${object.metadata.name}" (${source}): ${f.message}`,
        hint: HINTS[String(f.path[1])] ?? NAME_HINT,
      });
    }
  }
  return problems;
}
