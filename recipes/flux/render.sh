#!/bin/sh
# Renders each environment of a values repository for Flux: envs/<env>/values.yaml becomes the
# manifests under deploy/<env>/, the folder a Flux Kustomization of that environment syncs.
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
  # --output-dir replaces deploy/<env>/agentplat whole: objects no longer rendered (a sub-chart
  # turned off) lose their file, and Flux's pruning removes them from the cluster.
  agentplat render --revision "$revision" --namespace "$namespace" -f "$values" "$@" --output-dir "deploy/$env/agentplat"
  # The release's namespace is not part of the render (as with helm); Flux creates it from here.
  cat > "deploy/$env/namespace.yaml" <<NAMESPACE
apiVersion: v1
kind: Namespace
metadata:
  name: $namespace
NAMESPACE
done

if [ "$found" = 0 ]; then
  echo "render.sh: no envs/<env>/values.yaml below $(pwd)" >&2
  exit 2
fi
