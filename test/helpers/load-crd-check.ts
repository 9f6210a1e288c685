// Lint's ModelConfig check of provider config (src/lint/crd-check.ts) is loaded by each command
// before it lints, so a plain run never loads validate's code. A test file that calls lintValues,
// renderRelease, migrateValues or explainKey directly with provider config or tls imports this
// module, which loads the check once for that file, as the commands do; no other file loads it, so
// an in-process path that needs the check and does not load it fails here too.
// test/cli/provider-config-commands.test.ts runs every command line as its own process.
await (await import('../../src/lint/crd-check.ts')).loadCrdCheck();
