#!/usr/bin/env bash
# Builds one of the oracles of test/oracles/go/ (our own small Go programs over the controllers'
# real code, each its own module with go.mod and go.sum committed) into
# ~/.cache/agentplat-oracles/<name>-<version>/<name>, once per machine and per source: a build is
# redone when the program's go.mod, go.sum or Go files change. Prints the binary's path on its last
# line, and after a build "build.sh: <name> <version> built in N s (M s of CPU)" on stderr.
#
#   test/oracles/build.sh flux-values            # github.com/fluxcd/pkg/chartutil's values composition
#   test/oracles/build.sh argocd-values          # Argo CD's repo-server (reposerver/repository) running helm
#   test/oracles/build.sh kustomize-postrender   # sigs.k8s.io/kustomize/api as helm-controller's post-renderer
#
# The modules need Go 1.27 (chartutil v1.35.0, helm-controller/api v1.7.1 and argo-cd v3.6.1 say
# so in their go.mod): the script asks for the go1.27.3 toolchain, which the go command takes from
# the module proxy once per machine. AGENTPLAT_ORACLES_CACHE moves the cache; GOMODCACHE and
# GOCACHE are honoured (point them at empty folders to measure a build on a fresh machine).
set -euo pipefail

name="${1:?usage: build.sh <flux-values|argocd-values|kustomize-postrender>}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../cluster/_go-env.sh
source "$here/../cluster/_go-env.sh" test/oracles/build.sh
export GOTOOLCHAIN=go1.27.3
# The committed go.sum pins every module: a build never changes it.
export GOFLAGS="-mod=readonly -buildvcs=false"

case "$name" in
  flux-values) module=github.com/fluxcd/pkg/chartutil ;;
  argocd-values) module=github.com/argoproj/argo-cd/v3 ;;
  kustomize-postrender) module=sigs.k8s.io/kustomize/api ;;
  *) echo "test/oracles/build.sh: no oracle named '$name' (flux-values, argocd-values, kustomize-postrender)" >&2; exit 2 ;;
esac
src="$here/go/$name"
version="$(awk -v m="$module" '$1 == m { print $2; exit } $2 == m { print $3; exit }' "$src/go.mod")"
[ -n "$version" ] || { echo "test/oracles/build.sh: $src/go.mod does not require $module" >&2; exit 1; }

root="${AGENTPLAT_ORACLES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentplat-oracles}"
dir="$root/$name-$version"
binary="$dir/$name"
mkdir -p "$dir"
exec 9>"$binary.lock"
flock 9
sum="$(cat "$src/go.mod" "$src/go.sum" "$src"/*.go | sha256sum | cut -d' ' -f1)"
if [ -x "$binary" ] && [ "$(cat "$binary.source" 2>/dev/null)" = "$sum" ]; then
  echo "$binary"
  exit 0
fi
work="$(mktemp -d "$dir/.build.XXXXXX")"
# shellcheck disable=SC2064 # the folder is known now; the trap runs when the script exits
trap "rm -rf '$work'" EXIT
start=$(date +%s) cpu=$(cpu_seconds)
(cd "$src" && go build -trimpath -ldflags "-s -w" -o "$work/out" .)
mv "$work/out" "$binary"
echo "$sum" > "$binary.source"
echo "test/oracles/build.sh: $name $version built in $(( $(date +%s) - start )) s ($(( $(cpu_seconds) - cpu )) s of CPU)" >&2
echo "$binary"
