#!/usr/bin/env bash
# Builds kubeconform from its Go module (github.com/yannh/kubeconform), once per machine, into a
# cache outside the repository, for the "validate at scale" part of `npm run bench`. Prints the
# path of the binary on its last line; a build also prints its wall-clock and CPU time on stderr,
# in the words of test/cluster/build.sh.
#
#   bench/build-kubeconform.sh            # the pinned version
#   bench/build-kubeconform.sh 0.7.0      # another one the module proxy serves
#
# Cache: $AGENTPLAT_KUBECONFORM_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/agentplat-kubeconform,
# one folder per version: <cache>/<version>/kubeconform.
set -euo pipefail

# The newest version the module proxy lists (`go list -m -versions github.com/yannh/kubeconform`
# on 2026-11-26: v0.6.4 v0.6.7 v0.7.0 v0.8.0).
version="${1:-0.8.0}"
version="${version#v}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../test/cluster/_go-env.sh
source "$here/../test/cluster/_go-env.sh" build-kubeconform.sh
cache_root="${AGENTPLAT_KUBECONFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentplat-kubeconform}"
go_tool_build build-kubeconform.sh "$cache_root/$version/kubeconform" "github.com/yannh/kubeconform@v$version" github.com/yannh/kubeconform/cmd/kubeconform
