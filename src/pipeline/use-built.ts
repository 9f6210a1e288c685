// Imported first by every entry of the bundle (src/cli/main.ts, src/cli/snapshot.ts,
// src/api-entry.ts, and validate's own bundle): installs the built implementation of the
// precomputed seam, reading dist/generated/ next to the bundle's files.

import { fileURLToPath } from 'node:url';
import { installPrecomputed } from '../precomputed.ts';
import { builtPrecomputed } from './precomputed-built.ts';

// Asked for at every read (see ./precomputed-built.ts): inside a start-up snapshot, import.meta.url
// names the blob the process started from.
installPrecomputed(builtPrecomputed(() => fileURLToPath(new URL('./generated/', import.meta.url))));
