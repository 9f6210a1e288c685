# Sourced by build.sh and build-kubectl.sh: the cache root they build into, and a Go toolchain
# set up to build static binaries from the module proxy. $1 names the script in the error.
cache_root="${AGENTPLAT_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentplat-cluster}"
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; else
    echo "$1: no Go toolchain on PATH (the cluster suite needs Go and the Go module proxy)" >&2
    exit 1
  fi
fi
export GOFLAGS="-mod=mod -buildvcs=false"
export CGO_ENABLED=0
