// `--protect-crds` (render, template, crds): every CustomResourceDefinition gets the annotations
// with which GitOps tools leave an object in the cluster when it is no longer in what they sync,
// and when the object that synced it is deleted. A CRD that goes deletes every custom resource of
// its kind; helm never deletes CRDs, and a GitOps setup must not either (docs/ci.md, "CI and GitOps").
import type { K8sObject, RenderedDoc } from '../model/objects.ts';

/** Flux's kustomize-controller neither prunes nor garbage-collects an object annotated so. */
export const FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
/** Argo CD's per-object sync options, a comma-separated list. */
export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
/** Argo CD's per-object compare options, a comma-separated list. */
export const ARGOCD_COMPARE_OPTIONS = 'argocd.argoproj.io/compare-options';

/**
 * What each annotation gets: Flux skips the object (`disabled`); Argo CD never prunes it
 * (`Prune=false`) nor deletes it with the Application (`Delete=false`), and a CRD left in the
 * cluster after it left the render does not count against the Application's sync status
 * (`IgnoreExtraneous`). Argo CD's two lists keep any other option already there.
 */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  [ARGOCD_SYNC_OPTIONS]: ['Prune=false', 'Delete=false'],
  [ARGOCD_COMPARE_OPTIONS]: ['IgnoreExtraneous'],
};

export function isCrd(o: K8sObject): boolean {
  return o.kind === 'CustomResourceDefinition' && o.apiVersion.startsWith('apiextensions.k8s.io/');
}

/** A comma-separated option list with `add` set: an option of the same name (`Prune=…`) is replaced. */
function withOptions(current: unknown, add: readonly string[]): string {
  const names = new Set(add.map((o) => o.split('=')[0]));
  const kept = (typeof current === 'string' ? current.split(',') : []).map((o) => o.trim()).filter((o) => o !== '' && !names.has(o.split('=')[0]!));
  return [...kept, ...add].join(',');
}

/** The documents with every CRD annotated as above; other objects as they were. Objects are copied, never changed in place. */
export function protectCrds(docs: readonly RenderedDoc[]): RenderedDoc[] {
  return docs.map((d) => {
    if (!isCrd(d.object)) return d;
    const current = (d.object.metadata.annotations ?? {}) as Record<string, unknown>;
    const annotations: Record<string, unknown> = { ...current, [FLUX_PRUNE]: 'disabled' };
    for (const [key, add] of Object.entries(OPTIONS)) annotations[key] = withOptions(current[key], add);
    return { source: d.source, object: { ...d.object, metadata: { ...d.object.metadata, annotations } } };
  });
}
