// The problems a Flux HelmRelease's post-renderers report (post-render.ts): Kustomize's own
// failures, which fail the release (always errors, as the render rules are), and a patch that
// selects nothing, which Kustomize lets through (a warning `--rule` may set).

export const GITOPS_RULES = {
  'gitops/patch-no-match': 'A post-renderer patch without a target matches a rendered object by its own kind and name (Kustomize fails the release otherwise)',
  'gitops/json-patch': 'A post-renderer JSON 6902 patch has a target and each operation finds its path (Kustomize fails the release otherwise)',
  'gitops/patch-target-empty': "A post-renderer patch's target selects at least one rendered object (Kustomize applies a patch that selects nothing to nothing)",
} as const;

export type GitopsRuleId = keyof typeof GITOPS_RULES;

/** The ids that are always errors (the release fails): `--rule` does not set them. */
export const GITOPS_ERROR_RULES: readonly GitopsRuleId[] = ['gitops/patch-no-match', 'gitops/json-patch'];
