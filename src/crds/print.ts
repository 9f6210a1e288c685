// Serializes CRD documents as a multi-document stream, each with its `# Source:` line.
import { stringify } from 'yaml';
import type { RenderedDoc } from '../render/engine.ts';

export function crdsText(docs: readonly RenderedDoc[], format: 'yaml' | 'json'): string {
  if (format === 'json') {
    return docs.map((d) => `---\n# Source: ${d.source}\n${JSON.stringify(d.object, null, 2)}\n`).join('');
  }
  // Core-type expansions are shared objects: never let the serializer turn them into aliases.
  return docs.map((d) => `---\n# Source: ${d.source}\n${stringify(d.object, { aliasDuplicateObjects: false, lineWidth: 0 })}`).join('');
}
