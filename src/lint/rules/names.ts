// Overrides that end up in object names and namespaces must be valid Kubernetes names: every
// object is named `<fullname>-<suffix>` and Services need DNS-1035 labels (a letter first).
//   bad:  fullnameOverride: ACME_platform      good: fullnameOverride: acme-platform

import type { RuleContext, RuleFinding, ValuesRule } from './types.ts';
import { annotationKeyProblem, annotationsSize, ANNOTATIONS_TOTAL_MAX, labelKeyProblem, labelValueProblem } from '../../kube-check/metadata.ts';
import { optStr } from '../../model/values-access.ts';
import { AGENT_AREAS } from '../../chart/revisions.ts';

const NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The chart and every sub-chart take Helm's two name overrides. */
const SUBCHARTS = ['mcpop', 'agentplat-tools', 'dashboards-mcp', 'authproxy', 'substrate', ...AGENT_AREAS.map((a) => `${a}-agent`)];
const NAME_KEYS = ['', ...SUBCHARTS].flatMap((k) => ['nameOverride', 'fullnameOverride'].map((n) => (k ? `${k}.${n}` : n)));
const NAMESPACE_KEYS = ['namespaceOverride', 'mcpop.namespaceOverride'];

export const nameRules: ValuesRule = {
  ids: [{ id: 'values/object-name', description: 'Name and namespace overrides must be valid Kubernetes names (lower-case letters, digits and "-"; names start with a letter)' }],
  check(ctx) {
    for (const [keys, re, what] of [
      [NAME_KEYS, NAME, 'lower-case letters, digits and "-", starting with a letter and ending with a letter or digit'],
      [NAMESPACE_KEYS, NAMESPACE, 'a namespace name: lower-case letters, digits and "-", at most 63 characters'],
    ] as const) {
      for (const key of keys) {
        const v = optStr(ctx.values, key);
        if (!v || (re.test(v) && v.length <= 63)) continue;
        ctx.report({
          rule: 'values/object-name',
          severity: 'error',
          path: key,
          message: `\`${key}\` ${JSON.stringify(v)} cannot be part of object names: it must be ${what}`,
          hint: `e.g. ${JSON.stringify(v.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+|-+$/g, '') || 'agentplat')}`,
        });
      }
    }
  },
};

/** Keys whose maps become labels (or a node selector, which the API server checks as labels). */
const LABEL_MAP = /^(labels|[a-z]+Labels|nodeSelector)$/;
/** Keys whose maps become annotations. */
const ANNOTATION_MAP = /^(annotations|[a-z]+Annotations)$/;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Label and annotation maps anywhere in the values (`labels`, `podLabels`, `podAnnotations`, a
 * sub-chart's `deploymentLabels`, `nodeSelector`, …) hold keys and values the API server takes:
 * caught at the key the user wrote, not when `kubectl apply` refuses the object. `extraObjects`
 * are whole objects, checked as rendered.
 */
/**
 * The findings under each map the walk entered, by the map and its path: values are never changed
 * once made, and the value sets explain runs this check on hundreds of times (rule-reads.ts)
 * share every map but those on the path of the key they change, so a run walks only those.
 */
const walked = new WeakMap<object, Map<string, readonly RuleFinding[]>>();

export const metadataRules: ValuesRule = {
  ids: [{ id: 'values/metadata', description: "Label and annotation maps in values must hold keys and values the API server accepts (qualified-name keys, label values of at most 63 characters, 256 KiB of annotations per object)" }],
  check(ctx) {
    // Only maps hold label and annotation maps: a list or a value is passed over.
    const walk = (v: Record<string, unknown>, path: string[]): readonly RuleFinding[] => {
      const id = path.join('\0');
      let atPath = walked.get(v);
      const known = atPath?.get(id);
      if (known) return known;
      const found: RuleFinding[] = [];
      for (const [k, child] of Object.entries(v)) {
        if (!isMap(child) || (path.length === 0 && k === 'extraObjects')) continue;
        const at = [...path, k];
        if (LABEL_MAP.test(k)) checkMap(found, at, child, 'label');
        else if (ANNOTATION_MAP.test(k)) checkMap(found, at, child, 'annotation');
        else found.push(...walk(child, at));
      }
      if (!atPath) walked.set(v, (atPath = new Map()));
      atPath.set(id, found);
      return found;
    };
    if (isMap(ctx.values)) for (const f of walk(ctx.values, [])) ctx.report({ ...f });
  },
};

function checkMap(found: RuleFinding[], path: string[], map: Record<string, unknown>, what: 'label' | 'annotation'): void {
  const report = (at: string[], message: string, hint: string) => void found.push({ rule: 'values/metadata', severity: 'error', path: at, message, hint });
  for (const [k, v] of Object.entries(map)) {
    const keyWhy = what === 'label' ? labelKeyProblem(k) : annotationKeyProblem(k);
    if (keyWhy) {
      report([...path, k], `\`${path.join('.')}\`: ${JSON.stringify(k)} is not a valid ${what} key: ${keyWhy}`, `${what === 'label' ? 'a label' : 'an annotation'} key is name or prefix/name, e.g. team or example.com/team`);
    }
    const valueWhy = what === 'label' && typeof v === 'string' ? labelValueProblem(v) : undefined;
    if (valueWhy) report([...path, k], `\`${path.join('.')}.${k}\`: ${JSON.stringify(v)} is not a valid label value: ${valueWhy}`, 'put longer or free-form text in an annotation instead');
  }
  if (what === 'annotation' && annotationsSize(map) > ANNOTATIONS_TOTAL_MAX) {
    report(path, `\`${path.join('.')}\` holds ${annotationsSize(map)} bytes of annotations; the API server takes at most ${ANNOTATIONS_TOTAL_MAX} (256 KiB) per object`, 'keep large data in a ConfigMap, not in annotations');
  }
}
