// The stage graph of src/ (docs/architecture.md). A stage may import the stages below it and
// nothing above; stages on the same row do not import each other. `npm run lint` (part of
// `npm test`) checks the tree; test/architecture.test.ts checks the rules on a tree that breaks them.
//
// Rows from the bottom up (a file directly under src/ is a leaf utility, row 0):
const LAYERS = [
  ['problems'],
  ['yaml', 'chart'],
  ['values'],
  ['model', 'docs', 'migrate', 'gitops'],
  ['crds'],
  ['kube-check'],
  ['lint', 'render'],
  ['cluster'],
  ['diff'],
  ['pipeline'],
  ['explain'],
  ['output'],
  ['lsp'],
  ['cli', 'api'],
];

// The adapters (the CLI and the in-process API) map flags or options to an operation's request and
// format what it returns: only the operations (src/pipeline/) run the values, lint and render
// stages. An adapter may import their types, and these modules, each for the reason given and only
// from the adapter files named (any other adapter file importing one breaks the rule too).
const STAGE_EXCEPTIONS = [
  {
    to: 'src/render/manifests.ts',
    from: ['src/cli/post-renderer.ts', 'src/cli/commands/render-run.ts', 'src/cli/commands/crds.ts', 'src/api.ts'],
    why: 'printing the objects an operation returned as YAML or JSON manifests (one file per template for --output-dir), the form every stage prints objects in; nothing renders',
  },
  {
    to: 'src/lint/config.ts',
    from: ['src/cli/lint-settings.ts', 'src/cli/commands/lint-run.ts'],
    why: 'the settings a request carries: `.agentplat.yaml` and --rule read into rule levels, which notes --verbose and --strict ask for, the rule catalog a lint report lists; no check runs',
  },
  {
    to: 'src/lint/report.ts',
    from: ['src/cli/commands/lint-run.ts'],
    why: "the lint report's data (counts, the rules it names) built from the problems lintOperation returned, for the formatters",
  },
  {
    to: 'src/values/(merge|origins).ts',
    from: ['src/cli/commands/values-run.ts'],
    why: 'values --show-origin prints the values tree computeValues returned leaf by leaf: leafOrigins and joinPath read that tree; nothing is loaded or merged',
  },
  {
    to: 'src/render/subcharts/agents.ts',
    from: ['src/cli/commands/version.ts'],
    why: "version lists the bundled agents' keys, a constant of the chart's sub-charts; nothing renders",
  },
];
const exactly = (path) => `^${path.replace(/\./g, '\\.')}$`;

const folder = (name) => (name === 'api' ? '^src/api(-entry)?\\.ts$' : `^src/${name}/`);
const forbidden = [
  {
    name: 'no-circular',
    comment: 'No file imports itself through others: a cycle has no order to read it in.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'leaf-utilities-import-nothing',
    comment: 'The files directly under src/ (package root and generated-file readers, path helpers) are leaves.',
    severity: 'error',
    from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/api(-entry)?\\.ts$' },
    to: { path: '^src/[^/]+/' },
  },
  {
    name: 'run-files-import-no-run-file',
    comment: 'A command\'s run file maps its flags to an operation and formats what it returns; what two commands share lives in src/pipeline/ or a cli/ module, never in another command\'s run file.',
    severity: 'error',
    from: { path: '^src/cli/commands/[^/]+-run\\.ts$' },
    to: { path: '^src/cli/commands/[^/]+-run\\.ts$' },
  },
  {
    name: 'yaml-read-through-one-module',
    comment: 'Whether a text is read by a fast reader or the yaml library is decided in src/yaml/read.ts alone: no file outside src/yaml/ imports a fast reader.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/yaml/' },
    to: { path: '^src/yaml/(block-reader|plain-yaml|template-yaml|json-document)\\.ts$' },
  },
  {
    name: 'adapters-run-stages-through-operations',
    comment: 'src/cli/ and src/api.ts map flags or options to an operation of src/pipeline/ and format what it returns; only the operations import the values, lint and render stages (types aside; the exceptions are STAGE_EXCEPTIONS, each with its reason).',
    severity: 'error',
    from: { path: '^src/(cli/|api(-entry)?\\.ts$)' },
    to: { path: '^src/(values|lint|render)/', pathNot: STAGE_EXCEPTIONS.map((e) => exactly(e.to)), dependencyTypesNot: ['type-only'] },
  },
  ...STAGE_EXCEPTIONS.map((e) => ({
    name: 'adapters-run-stages-through-operations',
    comment: `Only ${e.from.join(' and ')} may import ${e.to}: ${e.why}.`,
    severity: 'error',
    from: { path: '^src/(cli/|api(-entry)?\\.ts$)', pathNot: e.from.map(exactly) },
    to: { path: exactly(e.to), dependencyTypesNot: ['type-only'] },
  })),
];
LAYERS.forEach((row, i) => {
  const above = LAYERS.slice(i + 1).flat();
  for (const stage of row) {
    const siblings = row.filter((s) => s !== stage);
    const banned = [...above, ...siblings];
    if (banned.length === 0) continue;
    forbidden.push({
      name: `${stage}-imports-only-downward`,
      comment: `${stage} may import only ${LAYERS.slice(0, i).flat().join(', ') || 'the leaf utilities'} (the rows below it).`,
      severity: 'error',
      from: { path: folder(stage) },
      to: { path: banned.map(folder).join('|') },
    });
  }
});

module.exports = {
  forbidden,
  options: {
    includeOnly: '^src/',
    // Type-only imports count: a cycle or an upward import through types still ties the stages.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$' },
  },

};
