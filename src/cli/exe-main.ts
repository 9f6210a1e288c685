// Entry of the single executable (scripts/build-exe.mjs builds it with Node's single executable
// application support and a start-up snapshot). Node runs this module once, at build time, in the
// snapshot builder: it loads the CLI, runs a few real commands in memory so that the snapshot
// holds their compiled code and the data they parsed (the bundle initialises lazily: a snapshot
// taken before any work holds next to nothing), then names the function each run of the
// executable starts from. That function reads the package's files from the executable's own
// assets (src/package-root.ts) and runs the CLI as bin/agentplat does.
import { getAsset } from 'node:sea';
import { join } from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import { startupSnapshot } from 'node:v8';
import { forgetAnswers } from '../answer-memos.ts';
import { codeCacheDir } from '../code-cache.ts';
import { usePackageFiles, type PackageFiles } from '../package-root.ts';
import { createMemoryIo } from './io.ts';
import { run } from './program.ts';
import { start } from './start.ts';

/** The package files as the executable's assets, under their paths in the package folder. */
const assets: PackageFiles = {
  read(path) {
    try {
      return Buffer.from(getAsset(path));
    } catch {
      return undefined;
    }
  },
  name: (path) => join(process.execPath, path),
  cacheDir: () => codeCacheDir(),
};

/**
 * The commands run at build time; their output is dropped. Every start deserialises all that they
 * leave compiled and parsed, so they are the commands whose start counts most: `--version` (the
 * set-up every command shares) and `render --skip-crds`. Warming more costs every other start
 * more than it saves its own command (docs/decisions.md, "The executable's start, second round"):
 * the others compile from the bundle's source, which the snapshot holds.
 */
const WARM_UP: readonly (readonly string[])[] = [['--version'], ['render', '--skip-crds', '-r', 'B']];

const buildRoot = process.env.AGENTPLAT_EXE_BUILD_ROOT;
if (!startupSnapshot.isBuildingSnapshot() || buildRoot === undefined) {
  throw new Error('src/cli/exe-main.ts is the entry of the single executable: run `npm run build:exe`');
}
// At build time the files come from the package folder being built (the same bytes the build
// then stores as assets); no code cache is written.
usePackageFiles({
  read(path) {
    try {
      return readFileSync(join(buildRoot, path));
    } catch {
      return undefined;
    }
  },
  name: (path) => join(buildRoot, path),
  cacheDir: () => undefined,
});
// The snapshot keeps the program and the chart's data, not the warm-up's answers (src/answer-memos.ts).
startupSnapshot.addSerializeCallback(forgetAnswers);
// Two builds of one commit write the same snapshot (scripts/build-exe.mjs fixes V8's seeds) but
// for two things of the builder's process Node leaves in it, both set again at every start: its
// process id, and the last file status it read (Node keeps one array for every stat call; the
// warm-up's last is of a file the build has just copied). The snapshot gets a fixed id and the
// status of /dev/null, which reading or writing it leaves as it is (a file's access time moves
// once a day); where there is none, of Node's own binary.
startupSnapshot.addSerializeCallback(() => {
  Object.defineProperty(process, 'pid', { value: 0, writable: false, enumerable: true, configurable: true });
  if (statSync('/dev/null', { throwIfNoEntry: false }) === undefined) statSync(process.execPath);
});
void (async () => {
  for (const args of WARM_UP) {
    const io = createMemoryIo({ cwd: buildRoot, env: {} });
    const code = await run(args, io);
    if (code !== 0) throw new Error(`warm-up run \`agentplat ${args.join(' ')}\` exited with ${code}: ${io.err}`);
  }
  usePackageFiles(assets);
})();

startupSnapshot.setDeserializeMainFunction(() => start(process.argv.slice(2)));
