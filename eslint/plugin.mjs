// The project's own ESLint rules (eslint.config.mjs turns them on, `npm run lint` runs them as part
// of `npm test`). Each rule has a fixture under eslint/fixtures/ that breaks it, checked by
// test/eslint-rules.test.ts, so a rule that stopped matching fails the suite.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The text of a string literal or of a template literal without expressions, else undefined. */
function staticString(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** The last name of `a.b.rev`, `rev` or `this.revision`. */
function lastName(node) {
  if (node?.type === 'Identifier') return node.name;
  if (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}

// ---- no-shared-folder ----
// The project's shared documents sit next to the repository while it is developed; a clone has
// none. Data a test needs is committed (test/data/README.md).
const SHARED_TEXT = /(^|[\\/])\.\.[\\/]+(\.\.[\\/]+)*shared([\\/]|$)|\/work\/shared\b/;
const noSharedFolder = {
  meta: {
    type: 'problem',
    docs: { description: 'Nothing reads the shared project folder (../shared) from inside the repository.' },
    messages: {
      shared: 'reads the project folder outside the repository ({{text}}): commit the data under test/data/ with its origin (test/data/README.md)',
    },
    schema: [],
  },
  create(context) {
    const report = (node, text) => context.report({ node, messageId: 'shared', data: { text } });
    return {
      Literal(node) {
        const s = staticString(node);
        if (s !== undefined && SHARED_TEXT.test(s)) report(node, s);
      },
      TemplateLiteral(node) {
        const text = node.quasis.map((q) => q.value.cooked ?? '').join('${…}');
        if (SHARED_TEXT.test(text)) report(node, text);
      },
      // join(root, '..', 'shared', …) and new URL('../' + 'shared', …): a '..' segment right before 'shared'.
      CallExpression(node) {
        const args = node.arguments.map(staticString);
        for (let i = 1; i < args.length; i++) {
          if (args[i] === 'shared' && args[i - 1] !== undefined && /(^|[\\/])\.\.$/.test(args[i - 1])) report(node.arguments[i], `'${args[i - 1]}', 'shared'`);
        }
      },
    };
  },
};

// ---- comment-references ----
// A comment that sends the reader to another file is only useful while that file exists.
/**
 * A repository path: a top folder, then a file with a known suffix, not part of a longer path
 * (`agentplat/templates/x.yaml` is an output path, not a file here). A template is named by its
 * `.hbs` file.
 */
const REPO_PATH = /(?<![\w./-])((?:test|scripts|bench|docs|fixtures|src)\/[\w./-]+\.(?:ts|mjs|cjs|js|md|json|yaml)|templates\/[\w./-]+\.hbs)\b/g;
const commentReferences = {
  meta: {
    type: 'problem',
    docs: { description: 'Every repository file a comment names exists.' },
    messages: { missing: 'the comment names {{path}}, which is not a file of the repository: correct the path or drop the reference' },
    schema: [],
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          for (const m of comment.value.matchAll(REPO_PATH)) {
            if (!existsSync(join(ROOT, m[1]))) context.report({ loc: comment.loc, messageId: 'missing', data: { path: m[1] } });
          }
        }
      },
    };
  },
};

/**
 * Lets ESLint read a template's `#` comment lines: every other line becomes empty, so line numbers
 * stay those of the template.
 */
const templateComments = {
  meta: { name: 'agentplat-template-comments' },
  preprocess(text) {
    return [{ text: text.split('\n').map((line) => (/^\s*#/.test(line) ? `//${line.replace(/^\s*#/, '')}` : '')).join('\n'), filename: 'comments.js' }];
  },
  postprocess(messages) {
    return messages.flat();
  },
  supportsAutofix: false,
};

/**
 * Lets ESLint read a shell script's text: each line becomes a string literal on the same line, so
 * agentplat/no-shared-folder sees a path a script names.
 */
const shellLines = {
  meta: { name: 'agentplat-shell-lines' },
  preprocess(text) {
    return [{ text: text.split('\n').map((line) => `${JSON.stringify(line)};`).join('\n'), filename: 'lines.js' }];
  },
  postprocess(messages) {
    return messages.flat();
  },
  supportsAutofix: false,
};

// ---- no-revision-branch ----
// Revision differences are data of the revision model, not `if` branches outside it.
const REVISION_NAME = /^(rev|revision|r)$/;
const REVISION_ID = (node) => node?.type === 'Literal' && (node.value === 'A' || node.value === 'B');
const noRevisionBranch = {
  meta: {
    type: 'problem',
    docs: { description: "Outside the revision model, the specification data and the values model, no code compares the revision with 'A' or 'B'." },
    messages: { branch: 'compares the revision with {{id}}: make the difference data of the revision model (src/model/revisions/, src/chart/revisions.ts) and read it here' },
    schema: [],
  },
  create(context) {
    return {
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        for (const [id, other] of [
          [node.left, node.right],
          [node.right, node.left],
        ]) {
          if (REVISION_ID(id) && REVISION_NAME.test(lastName(other) ?? '')) context.report({ node, messageId: 'branch', data: { id: id.raw } });
        }
      },
      SwitchStatement(node) {
        if (!REVISION_NAME.test(lastName(node.discriminant) ?? '')) return;
        for (const c of node.cases) if (REVISION_ID(c.test)) context.report({ node: c, messageId: 'branch', data: { id: c.test.raw } });
      },
    };
  },
};

// ---- no-test-deadline ----
// Tests assert behaviour, never time: no per-test or per-hook timeout.
const TEST_CALLS = new Set(['it', 'test', 'describe', 'suite', 'bench', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach']);
/** `it`, `it.skip`, `it.each(…)`, `describe.concurrent.each(…)`: the test function the call comes from. */
function testCallName(callee) {
  let node = callee;
  while (node) {
    if (node.type === 'Identifier') return TEST_CALLS.has(node.name) ? node.name : undefined;
    if (node.type === 'MemberExpression') node = node.object;
    else if (node.type === 'CallExpression') node = node.callee;
    else return undefined;
  }
  return undefined;
}
const isFunction = (n) => n?.type === 'ArrowFunctionExpression' || n?.type === 'FunctionExpression';
const noTestDeadline = {
  meta: {
    type: 'problem',
    docs: { description: 'No test or hook has a timeout: a busy machine makes the suite slower, not red.' },
    messages: { deadline: 'a timeout on {{name}}: tests assert behaviour, never time; drop it (a hanging child process is ended by the hang guard of test/cli/binary.ts)' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const name = testCallName(node.callee);
        if (!name) return;
        const fnAt = node.arguments.findIndex(isFunction);
        for (const [i, arg] of node.arguments.entries()) {
          const afterFn = fnAt >= 0 && i > fnAt;
          const numberAfterFn = afterFn && arg.type === 'Literal' && typeof arg.value === 'number';
          const timeoutOption = arg.type === 'ObjectExpression' && arg.properties.some((p) => p.type === 'Property' && lastName(p.key) === 'timeout');
          if (numberAfterFn || timeoutOption) context.report({ node: arg, messageId: 'deadline', data: { name } });
        }
      },
    };
  },
};

// ---- async-sized-property ----
// A property sized by fcParams runs long; vitest's worker must answer its RPC meanwhile, so the
// property is async (fc.asyncProperty with breathing(), test/helpers/breathe.ts).
const isFcCall = (node, name) => node?.type === 'CallExpression' && node.callee.type === 'MemberExpression' && lastName(node.callee) === name && lastName(node.callee.object) === 'fc';
const asyncSizedProperty = {
  meta: {
    type: 'problem',
    docs: { description: 'A property sized by fcParams is an async property, so the worker can yield between inputs.' },
    messages: { sync: 'fc.assert(fc.property(…), fcParams(…)): use fc.asyncProperty with breathing() so the worker answers vitest between inputs' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        if (!isFcCall(node, 'assert')) return;
        const [property, params] = node.arguments;
        const sized = params?.type === 'CallExpression' && lastName(params.callee) === 'fcParams';
        if (sized && isFcCall(property, 'property')) context.report({ node: property, messageId: 'sync' });
      },
    };
  },
};

// ---- public-entry-points ----
// A dependency is used through what it publishes: its package name, the subpaths of its `exports`
// map, or an entry point its documentation names. A file reached past that can move in any patch.
/**
 * Entry points outside an `exports` map that a package's own documentation tells users to import.
 * Each is written as the documentation writes it.
 */
const DOCUMENTED_ENTRY_POINTS = {
  // Standalone validation code: https://ajv.js.org/standalone
  'ajv/dist/standalone': 'https://ajv.js.org/standalone',
};

/** A bare specifier split into its package and the subpath after it (`.` for the package itself). */
function splitSpecifier(spec) {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return { pkg: parts.slice(0, n).join('/'), subpath: rest === '' ? '.' : `./${rest}` };
}

/** Whether `subpath` is a key of the exports map, or matches one of its `*` patterns. */
function exported(exportsMap, subpath) {
  if (exportsMap === undefined || exportsMap === null) return subpath === '.';
  if (typeof exportsMap === 'string' || Array.isArray(exportsMap)) return subpath === '.';
  const keys = Object.keys(exportsMap);
  // A map of conditions (no key starts with "."): it describes the package root only.
  if (!keys.some((k) => k.startsWith('.'))) return subpath === '.';
  return keys.some((k) => {
    const star = k.indexOf('*');
    if (star < 0) return k === subpath;
    return subpath.startsWith(k.slice(0, star)) && subpath.endsWith(k.slice(star + 1)) && subpath.length >= k.length - 1;
  });
}

const manifests = new Map();
function installedManifest(pkg) {
  if (!manifests.has(pkg)) {
    const file = join(ROOT, 'node_modules', pkg, 'package.json');
    manifests.set(pkg, existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  }
  return manifests.get(pkg);
}

/** Why a specifier reaches past a package's public surface, or undefined when it does not. */
function privateImport(spec) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('data:')) return undefined;
  const { pkg, subpath } = splitSpecifier(spec);
  if (subpath === '.' || DOCUMENTED_ENTRY_POINTS[spec] !== undefined) return undefined;
  const manifest = installedManifest(pkg);
  if (manifest === undefined) return `${pkg} is not installed`;
  return exported(manifest.exports, subpath) ? undefined : `${pkg} does not export ${subpath}`;
}

const publicEntryPoints = {
  meta: {
    type: 'problem',
    docs: { description: 'Dependencies are imported through their public entry points, never by a path into node_modules.' },
    messages: {
      private: "imports '{{spec}}': {{why}}; import what the package publishes",
      folder: 'reads node_modules/{{path}} by its path: import what the package publishes instead',
    },
    schema: [],
  },
  create(context) {
    const check = (node, source) => {
      const spec = staticString(source);
      if (spec === undefined) return;
      const why = privateImport(spec);
      if (why) context.report({ node: source, messageId: 'private', data: { spec, why } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      CallExpression(node) {
        // require('x'), createRequire(url)('x')
        const callee = node.callee;
        const isRequire = (callee.type === 'Identifier' && callee.name === 'require') || (callee.type === 'CallExpression' && lastName(callee.callee) === 'createRequire');
        if (isRequire && node.arguments[0]) check(node, node.arguments[0]);
        // join(root, 'node_modules', 'pkg', …): a package folder by its path
        const args = node.arguments.map(staticString);
        for (let i = 0; i + 1 < args.length; i++) {
          if (args[i] === 'node_modules' && args[i + 1] !== undefined && !args[i + 1].startsWith('.')) context.report({ node: node.arguments[i + 1], messageId: 'folder', data: { path: args[i + 1] } });
        }
      },
      Literal(node) {
        const s = staticString(node);
        const m = s === undefined ? null : /node_modules\/([^.'"\s/][^'"\s]*)/.exec(s);
        if (m) context.report({ node, messageId: 'folder', data: { path: m[1] } });
      },
    };
  },
};

export default {
  meta: { name: 'agentplat' },
  rules: {
    'no-shared-folder': noSharedFolder,
    'comment-references': commentReferences,
    'no-revision-branch': noRevisionBranch,
    'no-test-deadline': noTestDeadline,
    'async-sized-property': asyncSizedProperty,
    'public-entry-points': publicEntryPoints,
  },
  processors: { 'template-comments': templateComments, 'shell-lines': shellLines },
};
