// The chart's own values that completion offers: values keys from the values schema, and the
// `# Source:` paths of a render of the defaults (what --show-only matches).
import { valuesSchema } from '../docs/embedded.ts';
import { keysOf } from '../docs/values-reference.ts';
import { renderRelease } from '../pipeline/render.ts';
import type { Revision } from '../chart/revisions.ts';
import type { CompletionData } from './shell-completion.ts';

export const completionData: CompletionData = {
  keys: (rev: Revision) => keysOf(valuesSchema(rev)).map((k) => ({ key: k.key, leaf: !k.holdsKeys, description: k.node.description ?? '' })),
  sources: (rev: Revision) => {
    const { docs } = renderRelease({ revision: rev, layers: [], releaseName: 'agentplat', namespace: 'default', apiVersions: [] });
    return [...new Set((docs ?? []).map((d) => d.source))];
  },
};
