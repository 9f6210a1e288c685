// Lint's ModelConfig check of provider config (src/lint/crd-check.ts) is loaded by each command
// before it lints, so a plain run never loads validate's code. Tests call lintValues,
// renderRelease and migrateValues directly, so it is loaded here once for every test file;
// test/cli/provider-config-commands.test.ts runs each command as its own process, where nothing is
// preloaded.
await (await import('../../src/lint/crd-check.ts')).loadCrdCheck();
