// Entry of dist/sea/cli.cjs, the whole CLI as an asset of the single executable (scripts/build.mjs
// --exe, scripts/build-exe.mjs). The executable's start-up snapshot holds the program of the
// commands that start most often (src/cli/exe-main.ts); a command line of any other command runs
// this script, compiled with V8's code cache as the npm package runs dist/cli.cjs. It is a module
// instance of its own: the entry hands it the executable's assets through usePackageFiles, then
// starts it.
export { usePackageFiles } from '../package-root.ts';
export { start } from './start.ts';
