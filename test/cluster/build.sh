#!/usr/bin/env bash
# Builds kube-apiserver and etcd from their Go modules, once per machine, into a cache outside
# the repository. Prints the directory holding both binaries on its last line.
#
#   test/cluster/build.sh 1.37.2        # Kubernetes version (etcd version: $AGENTPLAT_ETCD_VERSION)
#
# Cache layout (root: $AGENTPLAT_CLUSTER_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/agentplat-cluster):
#   <k8s version>/bin/kube-apiserver, and <k8s version>/bin/etcd linking to
#   etcd-<etcd version>/etcd, built once for every Kubernetes version that uses it.
#
# k8s.io/kubernetes cannot be built with `go install module@version`: its go.mod points every
# k8s.io staging module at ./staging. A throwaway module requiring k8s.io/kubernetes and pinning
# each staging module to its published v0.Y.Z tag builds the same command.
set -euo pipefail

k8s="${1:?usage: build.sh <kubernetes-version, e.g. 1.37.2>}"
k8s="${k8s#v}"
etcd_version="${AGENTPLAT_ETCD_VERSION:-3.6.5}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=_go-env.sh
source "$here/_go-env.sh" build.sh
out="$cache_root/$k8s"
etcd_dir="$cache_root/etcd-$etcd_version"

mkdir -p "$out/bin" "$etcd_dir"
exec 9>"$out/.lock"
# Two suites (or two CI jobs) asking for the same version wait for one build instead of racing.
flock 9

if [ -x "$out/bin/kube-apiserver" ] && [ -x "$out/bin/etcd" ]; then
  echo "$out/bin"
  exit 0
fi

work="$(mktemp -d "$out/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# "<what> built in N s (M s of CPU)" on stderr: the figures the README and .ci/run quote.
report() {
  echo "build.sh: $1 built in $(( $(date +%s) - $2 )) s ($(( $(cpu_seconds) - $3 )) s of CPU)" >&2
}

# --- kube-apiserver ---
if [ ! -x "$out/bin/kube-apiserver" ]; then
  start=$(date +%s) cpu=$(cpu_seconds)
  mkdir -p "$work/apiserver"
  (
    cd "$work/apiserver"
    go mod init agentplat.local/cluster/apiserver >/dev/null 2>&1
    modfile="$(go mod download -json "k8s.io/kubernetes@v$k8s" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')" || true
    if [ -z "$modfile" ] || [ ! -f "$modfile" ]; then
      echo "build.sh: the module proxy did not serve k8s.io/kubernetes@v$k8s" >&2
      exit 1
    fi
    go_line="$(grep -m1 '^go ' "$modfile")"
    {
      echo "module agentplat.local/cluster/apiserver"
      echo
      echo "$go_line"
      echo
      echo "require k8s.io/kubernetes v$k8s"
      echo
      echo "replace ("
      grep -E '^[[:space:]]*k8s\.io/[A-Za-z0-9._-]+ => \./staging/' "$modfile" \
        | awk -v v="v0.${k8s#*.}" '{ printf "\t%s => %s %s\n", $1, $1, v }'
      echo ")"
    } > go.mod
    cat > tools.go <<'GO'
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
    go mod tidy >"$work/tidy.log" 2>&1 || { cat "$work/tidy.log" >&2; exit 1; }
    go build -trimpath -ldflags "-s -w" -o "$work/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
  )
  mv "$work/kube-apiserver" "$out/bin/kube-apiserver"
  report "kube-apiserver v$k8s" "$start" "$cpu"
fi

# --- etcd (one build per etcd version, shared by the Kubernetes versions) ---
exec 8>"$etcd_dir/.lock"
flock 8
if [ ! -x "$etcd_dir/etcd" ]; then
  start=$(date +%s) cpu=$(cpu_seconds)
  mkdir -p "$work/etcd"
  cp "$here/go/etcd/main.go" "$work/etcd/main.go"
  (
    cd "$work/etcd"
    go mod init agentplat.local/cluster/etcd >/dev/null 2>&1
    go get "go.etcd.io/etcd/server/v3@v$etcd_version" >"$work/etcd-get.log" 2>&1 || { cat "$work/etcd-get.log" >&2; exit 1; }
    go mod tidy >"$work/etcd-tidy.log" 2>&1 || { cat "$work/etcd-tidy.log" >&2; exit 1; }
    go build -trimpath -ldflags "-s -w" -o "$work/etcd-bin" .
  )
  mv "$work/etcd-bin" "$etcd_dir/etcd"
  report "etcd v$etcd_version" "$start" "$cpu"
fi
ln -sfn "$etcd_dir/etcd" "$out/bin/etcd"
echo "$out/bin"
