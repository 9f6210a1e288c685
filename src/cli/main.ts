// Process entry of the bundled CLI (bin/agentplat imports dist/agentplat.mjs).
import { start } from './start.ts';

start(process.argv.slice(2));
