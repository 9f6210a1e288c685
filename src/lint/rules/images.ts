// Image keys a user sets that another key silently replaces: the top-level `tag` wins over the
// controller's and the UI's own tag (model/images.ts: TAG_FOLLOWS_TOP_LEVEL), and the air-gap
// mirror ([B] global.imageRegistry) wins over every registry key. The render follows the real
// chart; a pinned hotfix tag that never deploys deserves a warning naming both keys.
//   warn: tag: 0.11.0 with controller.image.tag: hotfix1   (controller:0.11.0 deploys)
//   warn: [B] global.tag: v0.3.0 with agentplat-tools.tools.image.tag: v0.3.1   (tools:v0.3.0 deploys)
//   warn: global.imageRegistry: mirror.local with ui.image.registry: quay.io

import type { ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { TAG_FOLLOWS_GLOBAL_TAG, TAG_FOLLOWS_TOP_LEVEL } from '../../model/images.ts';
import { optStr } from '../../model/values-access.ts';
import { isPlainMap, joinPath } from '../../values/merge.ts';
import type { PathSegment } from '../../values/source.ts';

const TAG_RULE = 'values/image-tag-shadowed';
const REGISTRY_RULE = 'values/image-registry-shadowed';

export const imageRules: ValuesRule = {
  ids: [
    { id: TAG_RULE, description: 'A controller or UI image tag is set but the top-level tag, which wins over it, is set too (or a tools image tag and global.tag, revision B): the image tag never deploys' },
    { id: REGISTRY_RULE, description: 'A registry key is set but global.imageRegistry, which replaces every registry, is set too: the registry is never used (revision B)' },
  ],
  check(ctx) {
    const v = ctx.values;
    // [B] global.tag: A refuses `global` as an unknown key, so it is never set there.
    for (const [topKey, images, what] of [
      ['tag', TAG_FOLLOWS_TOP_LEVEL, 'the top-level `tag`'],
      ['global.tag', TAG_FOLLOWS_GLOBAL_TAG, '`global.tag`'],
    ] as const) {
      const top = optStr(v, topKey) ?? '';
      if (top === '') continue;
      for (const image of images) {
        const own = optStr(v, `${image}.tag`) ?? '';
        if (own === '' || own === top || !ctx.userSet(`${image}.tag`)) continue;
        ctx.report({
          rule: TAG_RULE,
          severity: 'warning',
          path: `${image}.tag`,
          message: `\`${image}.tag\` (${JSON.stringify(own)}) is never used: ${what} (${JSON.stringify(top)}) wins over it, so the image deploys with tag ${JSON.stringify(top)}`,
          hint:
            topKey === 'tag'
              ? `to deploy ${JSON.stringify(own)}, leave the top-level \`tag\` empty (it then only fills in image tags left empty) or set \`tag\` to it; otherwise remove \`${image}.tag\``
              : `to deploy ${JSON.stringify(own)}, leave \`global.tag\` empty or set it to ${JSON.stringify(own)}; otherwise remove \`${image}.tag\``,
        });
      }
    }
    const mirror = revisionModel(ctx.revision, v).images.mirror;
    if (mirror === '') return;
    for (const path of registryKeys(v, [])) {
      const own = optStr(v, joinPath(path)) ?? '';
      if (own === '' || own === mirror || !ctx.userSet(path)) continue;
      ctx.report({
        rule: REGISTRY_RULE,
        severity: 'warning',
        path,
        message: `\`${joinPath(path)}\` (${JSON.stringify(own)}) is never used: \`global.imageRegistry\` (${JSON.stringify(mirror)}) replaces the registry of every image`,
        hint: `to pull from ${JSON.stringify(own)}, leave global.imageRegistry empty; otherwise remove \`${joinPath(path)}\``,
      });
    }
  },
};

/** The top-level `registry` and the `registry` of every image map (`…image.registry`, `…Image.registry`); lists are not entered. */
function registryKeys(node: Record<string, unknown>, at: PathSegment[]): PathSegment[][] {
  const out: PathSegment[][] = [];
  for (const [k, child] of Object.entries(node)) {
    if (k === 'registry' && typeof child === 'string' && (at.length === 0 || /image$/i.test(String(at[at.length - 1])))) out.push([...at, k]);
    else if (isPlainMap(child)) out.push(...registryKeys(child, [...at, k]));
  }
  return out;
}
