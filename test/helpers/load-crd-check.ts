// Validate's ModelConfig check of provider config/tls (src/lint/crd-check.ts), loaded once for a
// test file that calls lintValues directly with provider config or tls, and passed to it as the
// operations pass it (`checkModelConfig`). Nothing is preloaded anywhere: a call that needs the
// check and is not given it fails. test/cli/provider-config-commands.test.ts runs every command
// line as its own process.
import { loadModelConfigCheck } from '../../src/lint/crd-check.ts';

export const checkModelConfig = await loadModelConfigCheck();
