#!/bin/sh
# `agentplat` of the installed npm package, for the tour's lines in test/exe/executable.test.ts
# (the package's own launcher lives in its prefix, named by AGENTPLAT_PACKAGE_BIN).
exec "$AGENTPLAT_PACKAGE_BIN" "$@"
