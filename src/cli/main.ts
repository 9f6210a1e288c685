// Process entry of the bundled CLI (`node bin/agentplat`, and the launcher's path when no start-up
// snapshot can be used).
// First: the built implementation of the precomputed seam (src/precomputed.ts).
import '../pipeline/use-built.ts';
import { start } from './start.ts';

start(process.argv.slice(2), 'bundle');
