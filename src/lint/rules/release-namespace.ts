// The release namespace some findings rest on: the one given with -n, or the one assumed
// (`default`, as helm does) when the command was given none. A finding that rests on an assumed
// namespace says so, and its fix starts with -n: adding `default` to a list is the wrong fix for a
// release installed elsewhere.

import type { RuleContext } from './types.ts';

/** What a message adds when the namespace it names was assumed: why it is that one. */
export function assumedNamespaceNote(ctx: RuleContext): string {
  return ctx.releaseNamespaceDefaulted ? `; the release namespace was not given (-n), so agentplat assumed "${ctx.releaseNamespace}"` : '';
}

/** The fix of such a finding: `valuesFix` when the namespace was given; -n first when it was assumed. */
export function namespaceFix(ctx: RuleContext, valuesFix: string): string {
  if (!ctx.releaseNamespaceDefaulted) return valuesFix;
  return `give the namespace you install into with -n NAMESPACE; or, to install into "${ctx.releaseNamespace}", ${valuesFix}`;
}
