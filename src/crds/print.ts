// Prints CRD documents the way `render` prints every object (one printer for both commands).
import type { RenderedDoc } from '../render/engine.ts';
import { toJson, toYaml } from '../render/output.ts';

export function crdsText(docs: readonly RenderedDoc[], format: 'yaml' | 'json'): string {
  return format === 'json' ? toJson(docs) : toYaml(docs);
}
