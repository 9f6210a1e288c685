// Entry of dist/launch.cjs, which bin/agentplat requires: runs a CLI bundle (dist/cli.cjs, whose
// entry is src/cli/main.ts, or a cut one holding the command line's command: src/cli/bundles.ts)
// with V8's code cache (src/code-cache.ts). Each command compiles other parts of the bundle, so
// each keeps its own cache file, named after the command's word.
import { join } from 'node:path';
import { runCachedScript } from '../code-cache.ts';
import { bundleFor, commandWord } from './bundles.ts';
import { setV8Flags } from './v8-tiers.ts';

const argv = process.argv.slice(2);
const word = commandWord(argv);
setV8Flags(word);
runCachedScript(join(import.meta.dirname, `${bundleFor(argv)}.cjs`), `cli-${word !== undefined && /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'other'}`);
