// The chart's own values that completion offers: values keys from the values model, and the
// `# Source:` paths of a render of the defaults (what --show-only matches).
import { renderRelease } from '../render/release.ts';
import type { Revision } from '../spec/revisions.ts';
import { walkKeys } from '../spec/values-model.ts';
import type { CompletionData } from './completion.ts';

export const completionData: CompletionData = {
  keys: (rev: Revision) => walkKeys(rev).map((k) => ({ key: k.path, leaf: k.node.kind === 'leaf', description: k.node.doc })),
  sources: (rev: Revision) => {
    const { docs } = renderRelease({ revision: rev, layers: [], releaseName: 'agentplat', namespace: 'default', apiVersions: [] });
    return [...new Set((docs ?? []).map((d) => d.source))];
  },
};
