// Every test file starts on the plain implementation of the precomputed seam (src/precomputed.ts):
// computed from the sources, so a test never depends on a build. The parity test installs the
// built one next to it (test/precomputed-parity.test.ts).
import { installPrecomputed } from '../../src/precomputed.ts';
import { plainPrecomputed } from '../../src/pipeline/precomputed-plain.ts';

installPrecomputed(plainPrecomputed, true);

// Lint's ModelConfig check of provider config (src/lint/crd-check.ts) is loaded by each command
// before it lints; tests call lintValues, renderRelease and migrateValues directly, so it is loaded
// here once. test/cli/provider-config-commands.test.ts runs each command as its own process, where
// nothing is preloaded.
await (await import('../../src/lint/crd-check.ts')).loadCrdCheck();
