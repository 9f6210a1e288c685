// Entry of the V8 start-up snapshot (scripts/snapshot.mjs builds it; bin/agentplat starts it).
// While the snapshot is built, every command's code is loaded and the main jobs run once on
// memory streams, so the snapshot holds initialised modules with compiled functions: a run
// starts by deserialising that heap instead of reading, compiling and initialising the bundle.
//
// Nothing here may keep state of the build machine: runs use memory streams with their own cwd
// and env, and the real process (argv, env, cwd, streams) is read only in the main function.
// First: the built implementation of the precomputed seam (src/precomputed.ts).
import '../pipeline/use-built.ts';
import { startupSnapshot } from 'node:v8';
import { createMemoryIo, type MemoryIo } from './io.ts';
import { prepareProgram, run } from './program.ts';
import { start } from './start.ts';
import { GROUP } from '../crds/ids.ts';
import { emitYaml } from '../output/yaml-emit.ts';

declare const __AGENTPLAT_SNAPSHOT_PROFILE__: 'a' | 'b' | 'validate';

/** The jobs run once at build time, per profile (see scripts/snapshot.mjs); their output is thrown away. */
async function warmUp(): Promise<void> {
  const quiet = (stdin?: string) => createMemoryIo({ cwd: '/', env: {}, ...(stdin !== undefined ? { stdin } : {}) });
  if (__AGENTPLAT_SNAPSHOT_PROFILE__ !== 'validate') {
    // Only this profile's revision: the other revision's validator must not load while the
    // snapshot is built (it is read from dist/ by the run that needs it).
    const r = __AGENTPLAT_SNAPSHOT_PROFILE__.toUpperCase();
    for (const argv of [
      ['render', '--revision', r],
      ['render', '--revision', r, '--skip-crds', '-o', 'json'],
      ['lint', '--revision', r],
      ['lint', '--revision', r, '--format', 'json'],
      ['crds'],
      ['version'],
      ['--help'],
    ]) {
      await expectRun(argv, quiet());
    }
    // A small values file in block style, so the YAML parser's common paths are compiled too;
    // a larger sample only makes the snapshot, and so every start, heavier.
    await expectRun(['render', '--revision', r, '-f', '-'], quiet(USER_VALUES));
    return;
  }
  const { compileAllCelRules, crdKinds } = await import('../crds/validate.ts');
  if (compileAllCelRules() === 0) throw new Error('no CEL rule found to compile');
  // Every kind in every served version, once valid-looking and once with an unknown field, so
  // each kind's validator and CEL rules are compiled into the snapshot.
  const docs = crdKinds().flatMap(({ kind, version }) => [
    { apiVersion: `${GROUP}/${version}`, kind, metadata: { name: 'warm-up', namespace: 'default' }, spec: {} },
    { apiVersion: `${GROUP}/${version}`, kind, metadata: { name: 'warm-up' }, spec: { unknownField: true } },
  ]);
  // In block style with comments, as resource files are written (the YAML parser's paths).
  const text = docs.map((d) => `# ${d.kind}\n${emitYaml(d)}`).join('---\n');
  await expectRun(['validate', '-'], quiet(`${text}---\n${USER_RESOURCE}`), 1);
}

/** A values file as most are written: block maps and lists, plain scalars, a comment. */
const USER_VALUES = `# values
controller:
  replicas: 2
  env:
    - name: LOG_FORMAT
      value: json
ui:
  replicas: 1
`;

/** A custom resource written by hand. */
const USER_RESOURCE = `apiVersion: ${GROUP}/v1alpha2
kind: Agent
metadata:
  name: helper # comment
  namespace: agents
spec:
  type: Declarative
  description: 'Answers questions'
  declarative:
    systemMessage: |
      You answer questions.
    modelConfig: default-model-config
    tools: []
`;

/** A warm-up job that does not end as expected means a broken build: no snapshot is written. */
async function expectRun(argv: string[], io: MemoryIo, expected = 0): Promise<void> {
  const code = await run(argv, io);
  if (code !== expected) throw new Error(`agentplat ${argv.join(' ')} exited with ${code}, not ${expected}: ${io.err}`);
}

startupSnapshot.setDeserializeMainFunction(() => {
  // `node --snapshot-blob FILE -- ARGS`: argv is [node, ...ARGS].
  start(process.argv.slice(1), 'snapshot');
});

warmUp()
  // Last: the program the first run of a deserialised process uses (its streams are set then).
  .then(() => prepareProgram(createMemoryIo({ cwd: '/', env: {} })))
  .catch((err: unknown) => {
    process.stderr.write(`agentplat: the start-up snapshot could not be prepared: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
