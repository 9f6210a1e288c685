// Names the API server would refuse. Object names are built from the release or fullnameOverride
// plus a suffix (`<fullname>-controller-metrics`), so a long or oddly spelled release gives names
// over the limits; this turns that into a problem naming the object instead of a failed apply.

import type { Problem } from '../problems/problem.ts';
import type { RenderedDoc } from '../model/objects.ts';
import type { RenderRuleId } from './rules.ts';

/** DNS-1035 label: Services (their names become DNS labels) must start with a letter. */
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 label: namespaces, and the names of most kinds' objects that become labels. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 subdomain: the default rule for object names. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const HINT = 'object names are <fullname>-<suffix>: use a shorter --release-name, or set fullnameOverride (lower-case letters, digits and "-", starting with a letter)';

function nameRule(kind: string): { test: RegExp; max: number; what: string } {
  if (kind === 'Service') return { test: DNS1035, max: 63, what: 'a DNS-1035 label (lower-case letters, digits and "-", starting with a letter, at most 63 characters)' };
  if (kind === 'Namespace') return { test: DNS1123_LABEL, max: 63, what: 'a DNS-1123 label (at most 63 characters)' };
  return { test: DNS1123_SUBDOMAIN, max: 253, what: 'a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", at most 253 characters)' };
}

/** Problems for every object whose name or namespace the API server would reject. */
export function checkObjectNames(docs: readonly RenderedDoc[]): Problem[] {
  const problems: Problem[] = [];
  for (const { source, object } of docs) {
    const { kind } = object;
    const { name, namespace } = object.metadata;
    const rule = nameRule(kind);
    if (!rule.test.test(name) || name.length > rule.max) {
      problems.push({
        severity: 'error',
        rule: 'render/object-name' satisfies RenderRuleId,
        path: '',
        message: `${kind} "${name}" (${source}) is not a valid name: it must be ${rule.what}${name.length > rule.max ? `, and it has ${name.length}` : ''}`,
        hint: HINT,
      });
    }
    if (namespace !== undefined && (!DNS1123_LABEL.test(namespace) || namespace.length > 63)) {
      problems.push({
        severity: 'error',
        rule: 'render/object-name' satisfies RenderRuleId,
        path: '',
        message: `${kind} "${name}" (${source}) has namespace "${namespace}", which is not a valid namespace name (a DNS-1123 label of at most 63 characters)`,
        hint: 'check namespaceOverride and -n/--namespace',
      });
    }
  }
  return problems;
}
