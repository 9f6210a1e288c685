// The package's entry (dist/api.mjs): the in-process API of ./api.ts, on the built
// implementation of the precomputed seam (src/precomputed.ts). Imported first, so it is installed
// before any function of the API runs.
import './pipeline/use-built.ts';

export * from './api.ts';
