# Sourced by build.sh, build-kubectl.sh and build-helm.sh: the cache root they build into, a Go
# toolchain set up to build static binaries from the module proxy, and the CPU clock their build
# lines quote. $1 names the script in the error.
cache_root="${AGENTPLAT_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentplat-cluster}"
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; else
    echo "$1: no Go toolchain on PATH (the cluster suite needs Go and the Go module proxy)" >&2
    exit 1
  fi
fi
export GOFLAGS="-mod=mod -buildvcs=false"
export CGO_ENABLED=0

# CPU seconds (user + system) of every child the sourcing shell has waited for so far (fields 16
# and 17 of /proc/<pid>/stat, in clock ticks; $$ is that script's shell, also inside $(...)).
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%d", ($14 + $15) / hz }' "/proc/$$/stat"
}
