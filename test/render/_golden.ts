// Golden fixture support shared by golden.test.ts and k8s-valid.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'render');

interface Args {
  revision: 'A' | 'B';
  namespace?: string;
  releaseName?: string;
  apiVersions?: string[];
  kubeVersion?: string;
}

export function goldenArgv(dir: string): string[] {
  const args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8')) as Args;
  return [
    'render',
    '--revision', args.revision,
    '-f', join(dir, 'values.yaml'),
    '--skip-crds',
    ...(args.namespace ? ['-n', args.namespace] : []),
    ...(args.releaseName ? ['--release-name', args.releaseName] : []),
    ...(args.apiVersions ?? []).flatMap((a) => ['--api-versions', a]),
    ...(args.kubeVersion ? ['--kube-version', args.kubeVersion] : []),
  ];
}

/** Keeps the documents whose `# Source:` is one of the chart's own templates. */
export function chartOwnDocs(yaml: string): string {
  return yaml
    .split(/^(?=---\n)/m)
    .filter((doc) => doc.startsWith('---\n# Source: agentplat/templates/'))
    .join('');
}

export const GOLDEN_CASES = readdirSync(ROOT).filter((d) => existsSync(join(ROOT, d, 'args.json'))).sort();

