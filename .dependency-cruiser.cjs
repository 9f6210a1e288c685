// The stage graph of src/ (docs/architecture.md). A stage may import the stages below it and
// nothing above; stages on the same row do not import each other. `npm run lint` (part of
// `npm test`) checks the tree; test/architecture.test.ts checks the rules on a tree that breaks them.
//
// Rows from the bottom up (a file directly under src/ is a leaf utility, row 0):
const LAYERS = [
  ['problems'],
  ['yaml', 'chart'],
  ['values'],
  ['model', 'docs', 'migrate'],
  ['crds'],
  ['kube-check'],
  ['lint', 'render'],
  ['pipeline', 'cluster'],
  ['diff', 'explain'],
  ['output'],
  ['cli', 'api'],
];

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
