// Shared set-up of the sub-chart tests: a render context from the defaults of a revision with
// overrides merged the way -f files are, and rendering of every sub-chart component.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRenderContext, type RenderContext } from '../../src/model/context.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { SUBCHART_COMPONENTS } from '../../src/render/subcharts/index.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { mergeValues, type Values } from '../../src/values/merge.ts';

export interface CtxOptions {
  release?: string;
  namespace?: string;
}

export function ctxFor(revision: Revision, overrides: Values = {}, opts: CtxOptions = {}): RenderContext {
  const values = mergeValues(defaultsSource(revision).data, overrides);
  return buildRenderContext(values, {
    revision,
    releaseName: opts.release ?? 'agentplat',
    releaseNamespace: opts.namespace ?? 'agentplat',
    apiVersions: [],
  });
}

/** Every sub-chart component's documents, keyed by component id. */
export function renderByComponent(ctx: RenderContext): Map<string, RenderedDoc[]> {
  return new Map(SUBCHART_COMPONENTS.map((c) => [c.id, c.render(ctx)]));
}

export function renderAll(ctx: RenderContext): RenderedDoc[] {
  return SUBCHART_COMPONENTS.flatMap((c) => c.render(ctx));
}

export function render(revision: Revision, overrides: Values = {}, opts: CtxOptions = {}): RenderedDoc[] {
  return renderAll(ctxFor(revision, overrides, opts));
}

export { docId as id, getObject as find } from '../helpers/objects.ts';

/** Inline OIDC settings that satisfy the authproxy lint rule (test values, not secrets). */
export const AUTHPROXY_INLINE = {
  enabled: true,
  config: { clientID: 'agentplat-ui', clientSecret: 'test-client-secret', cookieSecret: '0123456789abcdef0123456789abcdef' },
};

export const BUNDLED_AREAS = [
  'rollouts',
  'network-debug',
  'network-manager',
  'network-policy',
  'package-manager',
  'service-mesh',
  'cluster',
  'gateway',
  'observability',
  'query-language',
] as const;

/** `<case>.args.json` next to a fixture, when present, declares the cluster APIs of its render (`{"apiVersions": [...]}`). */
export function caseApiVersions(dir: string, name: string): string[] {
  const args = join(dir, `${name}.args.json`);
  return existsSync(args) ? ((JSON.parse(readFileSync(args, 'utf8')) as { apiVersions?: string[] }).apiVersions ?? []) : [];
}
