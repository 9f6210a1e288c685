// The package's entry (dist/api.mjs): the in-process API of ./api.ts.
export * from './api.ts';
