// The helm and kubectl the cluster suite builds (test/cluster/build-helm.sh, build.sh), found in
// their cache without building: the plugin tests run under them when they are there.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HELM_VERSION, NEWEST } from '../cluster/_versions.ts';
import { toolMissing } from '../helpers/real-tool.ts';

const CACHE = process.env.AGENTPLAT_CLUSTER_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agentplat-cluster');

/** The cached tool's path, or undefined (with a line on stderr saying how to get it). */
export function cachedTool(name: 'helm' | 'kubectl'): string | undefined {
  const path = name === 'helm' ? join(CACHE, `helm-${HELM_VERSION}`, 'helm') : join(CACHE, NEWEST, 'bin', 'kubectl');
  if (existsSync(path)) return path;
  toolMissing(`the ${name} plugin tests`, `no ${name} at ${path}; build it with \`npm run test:cluster\` (test/cluster/build${name === 'helm' ? '-helm' : ''}.sh), then rerun`);
  return undefined;
}
