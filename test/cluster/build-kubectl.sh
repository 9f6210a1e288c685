#!/usr/bin/env bash
# Builds kubectl from its Go module (k8s.io/kubectl v0.Y.Z for Kubernetes 1.Y.Z), once per machine,
# into the same cache as build.sh. Prints the path of the binary on its last line, and on stderr
# the wall-clock and CPU time of a build in build.sh's words (.ci/run quotes that line).
#
#   test/cluster/build-kubectl.sh 1.37.2
set -euo pipefail

k8s="${1:?usage: build-kubectl.sh <kubernetes-version, e.g. 1.37.2>}"
k8s="${k8s#v}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=_go-env.sh
source "$here/_go-env.sh" build-kubectl.sh
out="$cache_root/$k8s"

mkdir -p "$out/bin"
exec 9>"$out/.kubectl.lock"
flock 9
if [ -x "$out/bin/kubectl" ]; then
  echo "$out/bin/kubectl"
  exit 0
fi

work="$(mktemp -d "$out/.build-kubectl.XXXXXX")"
trap 'rm -rf "$work"' EXIT
start=$(date +%s) cpu=$(cpu_seconds)
cp "$here/go/kubectl/main.go" "$work/main.go"
(
  cd "$work"
  go mod init agentplat.local/cluster/kubectl >/dev/null 2>&1
  go get "k8s.io/kubectl@v0.${k8s#*.}" "k8s.io/component-base@v0.${k8s#*.}" >"$work/get.log" 2>&1 || { cat "$work/get.log" >&2; exit 1; }
  go mod tidy >"$work/tidy.log" 2>&1 || { cat "$work/tidy.log" >&2; exit 1; }
  # The module's version variables say v0.0.0-master unless set: kubectl writes its version into
  # the ApplySet parent it manages (applyset.kubernetes.io/tooling) and prints it in `kubectl version`.
  v="k8s.io/component-base/version"
  go build -trimpath -ldflags "-s -w -X $v.gitVersion=v$k8s -X $v.gitMajor=${k8s%%.*} -X $v.gitMinor=$(echo "$k8s" | cut -d. -f2)" -o "$work/kubectl" .
)
mv "$work/kubectl" "$out/bin/kubectl"
echo "build-kubectl.sh: kubectl v$k8s built in $(( $(date +%s) - start )) s ($(( $(cpu_seconds) - cpu )) s of CPU)" >&2
echo "$out/bin/kubectl"
