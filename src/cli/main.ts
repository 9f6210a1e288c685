// Process entry of the bundled CLI, dist/cli.cjs (bin/agentplat runs it through src/cli/launch.ts).
import { start } from './start.ts';

start(process.argv.slice(2));
