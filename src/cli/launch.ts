// Entry of dist/launch.cjs, which bin/agentplat requires: runs the CLI bundle (dist/cli.cjs, whose
// entry is src/cli/main.ts) with V8's code cache (src/code-cache.ts). Each command compiles other
// parts of the bundle, so each keeps its own cache file, named after the command's word.
import { join } from 'node:path';
import { runCachedScript } from '../code-cache.ts';
import { turnMaglevOff } from './v8-tiers.ts';

const word = process.argv[2];
turnMaglevOff(word);
runCachedScript(join(import.meta.dirname, 'cli.cjs'), `cli-${word !== undefined && /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'other'}`);
