// Process entry of the bundled CLI (`node bin/agentplat`, and the launcher's path when no start-up
// snapshot can be used).
import { start } from './start.ts';

start(process.argv.slice(2), 'bundle');
