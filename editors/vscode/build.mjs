// Builds agentplat.vsix, the installable extension: installs the client library (the folder's own
// node_modules, not the repository's) and packs the folder with @vscode/vsce, VS Code's packager.
//
//   node editors/vscode/build.mjs      → editors/vscode/agentplat.vsix
//   code --install-extension editors/vscode/agentplat.vsix
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
// The extension is under the repository's license; vsce refuses a package without one.
copyFileSync(join(here, '..', '..', 'LICENSE'), join(here, 'LICENSE'));
execFileSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
execFileSync(npx, ['vsce', 'package', '--out', 'agentplat.vsix'], { cwd: here, stdio: 'inherit' });
