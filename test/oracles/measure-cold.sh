#!/usr/bin/env bash
# What each oracle's build costs on a fresh machine: test/oracles/build.sh with empty Go module,
# build and oracle caches (the go1.27.3 toolchain, which lives in the module cache, is fetched
# again too). Prints, per oracle, build.sh's line (wall-clock and CPU seconds), the wall-clock of
# the whole run (toolchain and module downloads included) and the size of what was downloaded.
# Nothing it builds is kept.
#
#   test/oracles/measure-cold.sh [flux-values] [argocd-values] [kustomize-postrender]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ "$#" -gt 0 ] || set -- flux-values kustomize-postrender argocd-values
echo "measure-cold.sh: $(date -u +%Y-%m-%d) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "$@"; do
  tmp="$(mktemp -d)"
  start=$(date +%s)
  GOMODCACHE="$tmp/mod" GOCACHE="$tmp/cache" AGENTPLAT_ORACLES_CACHE="$tmp/out" \
    "$here/build.sh" "$name" 2>&1 >/dev/null | grep -E 'built in|error|cannot' || true
  echo "measure-cold.sh: $name from nothing in $(( $(date +%s) - start )) s wall-clock; downloaded $(du -sh "$tmp/mod/cache/download" 2>/dev/null | cut -f1) of modules (toolchain included)"
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
done
