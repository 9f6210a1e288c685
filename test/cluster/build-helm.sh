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
out="$cache_root/helm-$version"

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
if [ -x "$out/helm" ]; then
  echo "$out/helm"
  exit 0
fi

work="$(mktemp -d "$out/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
start=$(date +%s) cpu=$(cpu_seconds)
(
  cd "$work"
  # A throwaway module requiring helm, so that its own go.mod pins every dependency.
  go mod init agentplat.local/cluster/helm >/dev/null 2>&1
  cat > tools.go <<'GO'
package tools

import _ "helm.sh/helm/v4/cmd/helm"
GO
  go get "helm.sh/helm/v4@v$version" >"$work/get.log" 2>&1 || { cat "$work/get.log" >&2; exit 1; }
  go mod tidy >"$work/tidy.log" 2>&1 || { cat "$work/tidy.log" >&2; exit 1; }
  go build -trimpath -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=v$version" -o "$work/helm" helm.sh/helm/v4/cmd/helm
)
mv "$work/helm" "$out/helm"
echo "build-helm.sh: helm v$version built in $(( $(date +%s) - start )) s ($(( $(cpu_seconds) - cpu )) s of CPU)" >&2
echo "$out/helm"
