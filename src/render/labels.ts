// Labels a user adds to every rendered object (`template -l/--labels`), checked by the rules the
// API server applies to label keys and values, so a bad label fails here and not halfway through
// a `kubectl apply`.
import { UsageError } from '../problems/errors.ts';
import { labelKeyProblem, labelValueProblem } from '../kube-check/metadata.ts';
import type { K8sObject, RenderedDoc } from '../model/objects.ts';

/** Keys under these prefixes are written by agentplat itself (--applyset), never by -l. */
export const RESERVED_LABEL_PREFIXES = ['applyset.kubernetes.io/'];

/**
 * The labels of every -l/--labels flag: each `key=value[,key=value…]`, a later key replacing an
 * earlier one (as helm reads the flag). A UsageError names the flag, the key and the rule broken.
 */
export function parseLabelFlags(flags: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  flags.forEach((flag, i) => {
    const where = `--labels #${i + 1}`;
    for (const item of flag.split(',')) {
      const eq = item.indexOf('=');
      if (eq < 0) throw new UsageError(`${where}: "${item}" is not key=value`, 'write -l key=value, several as -l a=1,b=2 or repeated -l flags');
      const key = item.slice(0, eq);
      const value = item.slice(eq + 1);
      const keyProblem = labelKeyProblem(key);
      if (keyProblem) throw new UsageError(`${where}: "${key}" is not a valid label key: ${keyProblem}`, 'a label key is name or prefix/name, e.g. team or example.com/team');
      const reserved = RESERVED_LABEL_PREFIXES.find((p) => key.startsWith(p));
      if (reserved) throw new UsageError(`${where}: label "${key}" is written by --applyset`, `drop it from -l; --applyset NAME sets the ${reserved}* labels`);
      const valueProblem = labelValueProblem(value);
      if (valueProblem) throw new UsageError(`${where}: "${value}" is not a valid value for label "${key}"`, valueProblem);
      labels[key] = value;
    }
  });
  return labels;
}

function objectId(o: K8sObject): string {
  return `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

/**
 * The documents with `labels` added to each object's metadata.labels (selectors and pod templates
 * are left alone: changing them would re-create pods or orphan them). A label the object already
 * has with another value is a UsageError: silently overwriting it could change what selects it.
 * Objects are copied, never changed in place (a CRD's YAML written at build time belongs to its
 * object, src/render/manifests.ts, and a copy is written anew).
 */
export function addLabels(docs: readonly RenderedDoc[], labels: Readonly<Record<string, string>>, flag = '--labels'): RenderedDoc[] {
  const entries = Object.entries(labels);
  if (entries.length === 0) return [...docs];
  return docs.map((d) => {
    const current = (d.object.metadata.labels ?? {}) as Record<string, unknown>;
    for (const [k, v] of entries) {
      if (Object.hasOwn(current, k) && current[k] !== v) {
        throw new UsageError(`${flag}: ${objectId(d.object)} (${d.source}) already has label ${k}=${String(current[k])}`, `pick another key, or set the chart's value that writes ${k}`);
      }
    }
    return { source: d.source, object: { ...d.object, metadata: { ...d.object.metadata, labels: { ...current, ...labels } } } };
  });
}
