#!/usr/bin/env bash
# Builds helm from its Go module (helm.sh/helm/v4), once per machine, into the same cache as
# build.sh. Prints the path of the binary on its last line, and on stderr the wall-clock and CPU
# time of a build in build.sh's words (.ci/run quotes that line). The differential `--set` test
# (test/cluster/set-differential.test.ts) runs the same flags through this helm and agentplat.
#
#   test/cluster/build-helm.sh 4.3.1
set -euo pipefail

version="${1:?usage: build-helm.sh <helm version, e.g. 4.3.1>}"
version="${version#v}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=_go-env.sh
source "$here/_go-env.sh" build-helm.sh
go_tool_build build-helm.sh "$cache_root/helm-$version/helm" "helm.sh/helm/v4@v$version" helm.sh/helm/v4/cmd/helm \
  "-X helm.sh/helm/v4/internal/version.version=v$version"
