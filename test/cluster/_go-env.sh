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

# go_tool_build SCRIPT BINARY MODULE@VERSION PACKAGE [LDFLAGS]: builds the command PACKAGE of the
# module into BINARY, once (a lock makes a second caller wait for the first build), through a
# throwaway module that requires MODULE@VERSION, so that the module's own go.mod pins every
# dependency. Prints BINARY's path on stdout, and after a build "SCRIPT: <name> vVERSION built in
# N s (M s of CPU)" on stderr (.ci/run and the README quote that line).
go_tool_build() {
  local script="$1" binary="$2" module="$3" package="$4" ldflags="${5:-}"
  local dir work start cpu
  dir="$(dirname "$binary")"
  mkdir -p "$dir"
  exec 9>"$binary.lock"
  flock 9
  if [ -x "$binary" ]; then
    echo "$binary"
    return 0
  fi
  work="$(mktemp -d "$dir/.build.XXXXXX")"
  # shellcheck disable=SC2064 # the folder is known now; the trap runs when the script exits
  trap "rm -rf '$work'" EXIT
  start=$(date +%s) cpu=$(cpu_seconds)
  (
    cd "$work"
    go mod init agentplat.local/tools/build >/dev/null 2>&1
    printf 'package tools\n\nimport _ "%s"\n' "$package" > tools.go
    go get "$module" >"$work/get.log" 2>&1 || { cat "$work/get.log" >&2; exit 1; }
    go mod tidy >"$work/tidy.log" 2>&1 || { cat "$work/tidy.log" >&2; exit 1; }
    go build -trimpath -ldflags "-s -w $ldflags" -o "$work/out" "$package"
  )
  mv "$work/out" "$binary"
  echo "$script: $(basename "$binary") ${module#*@} built in $(( $(date +%s) - start )) s ($(( $(cpu_seconds) - cpu )) s of CPU)" >&2
  echo "$binary"
}
