// Every test file starts on the plain implementation of the precomputed seam (src/precomputed.ts):
// computed from the sources, so a test never depends on a build. The parity test installs the
// built one next to it (test/precomputed-parity.test.ts).
import { installPrecomputed } from '../../src/precomputed.ts';
import { plainPrecomputed } from '../../src/pipeline/precomputed-plain.ts';

installPrecomputed(plainPrecomputed, true);
