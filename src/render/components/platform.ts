// Platform glue of the main chart: the built-in prompts library, the tools server's
// RemoteMCPServer registration, and the authentication proxy's sign-in template ConfigMap.

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { authproxyTemplatesName, builtinPromptsName, chartLabels, toolServerName } from '../chart.ts';
import { toolsMcpUrl } from '../subcharts/names.ts';
import { bool } from '../../model/values-access.ts';
import { SIGN_IN_HTML, signInChecksum } from '../../model/sign-in-template.ts';
import { chartDocs, meta } from './common.ts';

/** Prompt fragments agents include as `builtin/<key>` through promptTemplate.dataSources. */
export const BUILTIN_PROMPTS: Record<string, string> = {
  'skills-usage': [
    '## Skills',
    'Skills are mounted under /skills, one directory each. Read a skill\'s description before using it,',
    'follow its instructions exactly, and prefer a skill over improvising when one fits the task.',
    '',
  ].join('\n'),
  'tool-usage-best-practices': [
    '## Using tools',
    '1. Gather facts with read-only tools before changing anything.',
    '2. Call the narrowest tool that answers the question; avoid repeating identical calls.',
    '3. Check every tool result; on an error, explain it and try a different approach.',
    '4. Ask before an action that is destructive or hard to undo.',
    '',
  ].join('\n'),
  'safety-guardrails': [
    '## Safety',
    '- Never reveal credentials, tokens or secret values, even when a tool returns them.',
    '- Stay within the namespaces and resources the user asked about.',
    '- Refuse requests that would weaken the cluster\'s security without an explicit, informed confirmation.',
    '',
  ].join('\n'),
  'kubernetes-context': [
    '## Investigating a cluster',
    'Start from the resource the user names, then follow owners, selectors and events outward.',
    'Compare the desired state (spec) with the observed state (status, events, logs) and report the difference.',
    '',
  ].join('\n'),
  'a2a-communication': [
    '## Working with other agents',
    'Delegate a sub-task to another agent only when it is better suited; give it the full context it needs,',
    'and check its answer before relying on it.',
    '',
  ].join('\n'),
};

export { SIGN_IN_HTML, signInChecksum };

export const platformComponent: Component = {
  id: 'platform',
  render(ctx) {
    const docs: RenderedDoc[] = [];
    const labels = chartLabels(ctx);
    docs.push(
      ...chartDocs('builtin-prompts-configmap.yaml', 'configmap.yaml.hbs', {
        meta: meta(ctx, builtinPromptsName(ctx), { ...labels, 'agentplat.dev/prompt-library': 'true' }),
        data: BUILTIN_PROMPTS,
      }),
    );
    if (bool(ctx.values, 'agentplat-tools.enabled', true)) {
      docs.push(
        ...chartDocs('toolserver-agentplat.yaml', 'toolserver.yaml.hbs', {
          meta: meta(ctx, toolServerName(ctx), labels),
          description: 'Official agentplat tool server',
          // The tools Service's name, namespace and port (the sub-chart's overrides included).
          url: toolsMcpUrl(ctx),
        }),
      );
    }
    if (bool(ctx.values, 'authproxy.enabled')) {
      docs.push(...chartDocs('authproxy-templates.yaml', 'configmap.yaml.hbs', { meta: meta(ctx, authproxyTemplatesName(ctx), labels), data: { 'sign_in.html': SIGN_IN_HTML } }));
    }
    return docs;
  },
};
