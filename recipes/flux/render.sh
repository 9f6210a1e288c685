#!/bin/sh
# Renders each environment of a values repository for Flux: envs/<env>/values.yaml becomes
#   deploy/<env>/release/  the release without its CRDs, and its Namespace: the Kustomization
#                          agentplat-<env> syncs it and prunes what a later render drops;
#   deploy/<env>/crds/     every CRD of the chart and its sub-charts, whichever are turned on,
#                          annotated so that Flux never prunes or deletes them: the Kustomization
#                          agentplat-<env>-crds syncs it without pruning (recipes/flux/flux-sync.yaml).
# A CRD that goes deletes every custom resource of its kind, so no CRD is ever in the pruned set.
# Run it in CI (or before committing) from the repository's root; commit deploy/ with the values.
#
#   AGENTPLAT_REVISION      chart revision (default B)
#   AGENTPLAT_NAMESPACE     namespace the platform runs in (default agentplat)
#   AGENTPLAT_API_VERSIONS  APIs the cluster serves beyond the built-in ones, comma-separated
#                           (e.g. monitoring.coreos.com/v1 for the ServiceMonitor); default none
#   AGENTPLAT_KUBE_VERSION  the cluster's Kubernetes version (e.g. 1.29); default agentplat's
set -eu

revision="${AGENTPLAT_REVISION:-B}"
namespace="${AGENTPLAT_NAMESPACE:-agentplat}"
# Flags the cluster settings add to every render; agentplat takes a comma-separated list as is.
set --
if [ -n "${AGENTPLAT_API_VERSIONS:-}" ]; then set -- "$@" --api-versions "$AGENTPLAT_API_VERSIONS"; fi
if [ -n "${AGENTPLAT_KUBE_VERSION:-}" ]; then set -- "$@" --kube-version "$AGENTPLAT_KUBE_VERSION"; fi

found=0
for values in envs/*/values.yaml; do
  [ -f "$values" ] || continue
  found=1
  env="$(basename "$(dirname "$values")")"
  # --output-dir replaces deploy/<env>/release/agentplat whole: objects no longer rendered (a
  # sub-chart turned off) lose their file, and Flux's pruning removes them from the cluster.
  # --skip-crds: the CRDs are written below, where nothing prunes them.
  agentplat render --revision "$revision" --namespace "$namespace" -f "$values" "$@" --skip-crds --output-dir "deploy/$env/release/agentplat"
  # The release's namespace is not part of the render (as with helm); Flux creates it from here.
  cat > "deploy/$env/release/namespace.yaml" <<NAMESPACE
apiVersion: v1
kind: Namespace
metadata:
  name: $namespace
NAMESPACE
  # All CRDs, not only those of the sub-charts turned on: the file never loses one. Written aside
  # and renamed, so the folder holds the old file or the new one, whole.
  mkdir -p "deploy/$env/crds"
  agentplat crds --revision "$revision" --protect-crds > "deploy/$env/crds/.agentplat-crds.next"
  mv "deploy/$env/crds/.agentplat-crds.next" "deploy/$env/crds/agentplat-crds.yaml"
done

if [ "$found" = 0 ]; then
  echo "render.sh: no envs/<env>/values.yaml below $(pwd)" >&2
  exit 2
fi
