// ESLint runs the project's checks of its own source text (`npm run lint`, part of `npm test`):
// the rules are in eslint/plugin.mjs, each with a fixture under eslint/fixtures/ that breaks it
// (test/eslint-rules.test.ts). The stage graph of src/ is dependency-cruiser's (.dependency-cruiser.cjs).
import tseslint from 'typescript-eslint';
import agentplat from './eslint/plugin.mjs';
import { lintInputs } from './eslint/lint-inputs.mjs';

// `npm run lint` keeps ESLint's cache (.cache/eslint, --cache-strategy content): a file whose text is
// unchanged keeps its last result. The rules also read what is outside the file linted (which
// repository files exist, the installed packages' manifests, the rules' own code): their
// fingerprint (eslint/lint-inputs.mjs) is a setting of every file, which ESLint hashes into each
// file's cache entry, so a change to any of them lints every file again.
const inputs = lintInputs(import.meta.dirname);

const CODE = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.mjs', '**/*.cjs', '**/*.js'];
const within = (...dirs) => dirs.flatMap((d) => CODE.map((c) => `${d}/${c}`));

export default [
  {
    ignores: ['dist/**', 'node_modules/**', 'eslint/fixtures/**', 'fixtures/**', 'values/**', 'schemas/**', 'recipes/**', 'docs/**', '**/*.generated.ts', 'test/cluster/go/**'],
  },
  // Every file's cache entry, templates and shell scripts included, carries the fingerprint.
  { settings: { agentplatLintInputs: inputs } },
  {
    files: CODE,
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    // typescript-eslint's plugin is registered (no rule of it on) so that the disable comments some
    // sources carry for editors name a known rule.
    plugins: { agentplat, '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  // The repository is self-contained: nothing reads the shared project folder next to it.
  { files: [...within('src', 'test', 'scripts', 'bench'), '*.ts', '*.mjs', '*.cjs'], rules: { 'agentplat/no-shared-folder': 'error' } },
  { files: ['{src,test,scripts,bench}/**/*.sh'], plugins: { agentplat }, processor: 'agentplat/shell-lines' },
  { files: ['{src,test,scripts,bench}/**/*.sh/*.js'], plugins: { agentplat }, rules: { 'agentplat/no-shared-folder': 'error' } },
  // A comment naming a repository file names one that exists.
  { files: within('src', 'scripts', 'bench'), rules: { 'agentplat/comment-references': 'error' } },
  { files: ['templates/**/*.hbs'], plugins: { agentplat }, processor: 'agentplat/template-comments' },
  { files: ['templates/**/*.hbs/*.js'], plugins: { agentplat }, rules: { 'agentplat/comment-references': 'error' } },
  // Revision differences are data of the revision model, the specification data and the values model.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/model/revisions/**', 'src/chart/**', 'src/values/**', '**/*.test.ts'],
    rules: { 'agentplat/no-revision-branch': 'error' },
  },
  // Tests assert behaviour, never time; long properties yield to vitest.
  {
    files: within('test'),
    rules: {
      'agentplat/no-test-deadline': 'error',
      'agentplat/async-sized-property': 'error',
      'no-restricted-properties': [
        'error',
        ...[
          ['Date', 'now'],
          ['performance', 'now'],
          ['process', 'hrtime'],
          ['console', 'time'],
        ].map(([object, property]) => ({ object, property, message: 'tests assert behaviour, never time: no clock read in a test' })),
      ],
    },
  },
  // Dependencies through their public entry points.
  { files: within('src', 'scripts'), rules: { 'agentplat/public-entry-points': 'error' } },
];
