// The section 8 limit cases: for each bound of the enforcement table, a resource at the bound
// and one past it. Shared by limits.test.ts and the failing corpus
// (failing-corpus.ts).
import { stringify } from 'yaml';
import { ENFORCEMENT, type Limit } from '../../src/crds/enforcement.ts';

export const LIMITS: [string, Limit][] = Object.entries(ENFORCEMENT).flatMap(([id, e]) => ('schema' in e ? e.schema.map((l) => [id, l] as [string, Limit]) : []));

/** A minimal valid spec of each kind that the limit's path is grafted onto. */
const BASE: Record<string, () => Record<string, unknown>> = {
  Agent: () => ({ type: 'Declarative', declarative: {} }),
  SandboxAgent: () => ({ type: 'Declarative', declarative: {} }),
  AgentHarness: () => ({ backend: 'backendA', substrate: {} }),
  ModelConfig: () => ({ model: 'm' }),
  RemoteMCPServer: () => ({ description: 'd', url: 'https://x.example.com/mcp' }),
};

/** Valid items of the arrays a path runs through or ends at. */
const ITEMS: Record<string, () => unknown> = {
  'spec.declarative.tools': () => ({ type: 'McpServer', mcpServer: { name: 's' } }),
  'spec.declarative.a2aConfig.skills': () => ({ name: 'skill' }),
  'spec.skills.gitRefs': () => ({ url: 'https://example.com/s.git' }),
  'spec.skills.objectStoreRefs': () => ({ uri: 's3://bucket/skill' }),
  'spec.skills.imagePullSecrets': () => ({ name: 'pull' }),
  'spec.declarative.promptTemplate.dataSources': () => ({ name: 'cm' }),
  'spec.channels': () => ({ name: 'c', type: 'messengerA', messengerA: { botToken: { value: 't' } } }),
  'spec.headersFrom': () => ({ name: 'h', valueFrom: { type: 'Secret', name: 's', key: 'k' } }),
};

/** Parent objects that need more than the path to be valid. */
function extras(kind: string, path: string, spec: Record<string, unknown>): void {
  if (path.includes('messengerB')) {
    const ch = (spec.channels as Record<string, unknown>[])[0]!;
    ch.type = 'messengerB';
    delete ch.messengerA;
    const mb = (ch.messengerB ??= {}) as Record<string, unknown>;
    mb.botToken ??= { value: 't' };
    mb.appToken ??= { value: 't' };
    if (path.includes('backendB')) spec.backend = 'backendB';
  }
  if (path.includes('.providerB.')) spec.provider = 'ProviderB';
  if (path.includes('.providerE.')) spec.provider = 'ProviderE';
  if (path.includes('.providerF.')) Object.assign(((spec.provider = 'ProviderF'), spec.providerF as object), { projectID: 'p', location: 'l' });
  if (path.includes('.providerH.')) {
    spec.provider = 'ProviderH';
    const h = spec.providerH as Record<string, unknown>;
    h.region = 'r';
    if (path.includes('guardrail')) Object.assign(h.guardrail as object, { identifier: (h.guardrail as Record<string, unknown>).identifier ?? 'g', version: (h.guardrail as Record<string, unknown>).version ?? '1' });
  }
  if (path.includes('systemMessageFrom')) Object.assign((spec.declarative as Record<string, unknown>).systemMessageFrom as object, { type: 'ConfigMap', name: ((spec.declarative as Record<string, Record<string, unknown>>).systemMessageFrom!.name) ?? 'n', key: ((spec.declarative as Record<string, Record<string, unknown>>).systemMessageFrom!.key) ?? 'k' });
  if (path.includes('allowedUserIDsFrom')) Object.assign(((spec.channels as Record<string, Record<string, Record<string, unknown>>>[])[0]!.messengerA!.allowedUserIDsFrom!), { type: 'Secret', key: 'k' });
  if (path.includes('headersFrom[].valueFrom')) {
    const h = (spec.headersFrom as Record<string, unknown>[])[0]!;
    h.name = 'h';
    Object.assign(h.valueFrom as object, { type: 'Secret', name: (h.valueFrom as Record<string, unknown>).name ?? 's', key: (h.valueFrom as Record<string, unknown>).key ?? 'k' });
  }
  if (path.includes('a2aConfig.skills[]')) ((spec.declarative as Record<string, Record<string, Record<string, unknown>[]>>).a2aConfig!.skills![0]!).name ??= 'skill';
  if (path === 'spec.byo.deployment.image') spec.type = 'BYO';
  if (path.startsWith('spec.skills.') && !/refs|gitRefs|objectStoreRefs/i.test(path.split('.')[2]!)) (spec.skills as Record<string, unknown>).refs = ['example.com/s:1'];
  if (path.includes('tools[].mcpServer')) Object.assign((spec.declarative as Record<string, Record<string, unknown>[]>).tools![0]!, { type: 'McpServer' });
  if (path.includes('mcpServer.requireApproval')) {
    const ms = (spec.declarative as Record<string, Record<string, Record<string, unknown>>[]>).tools![0]!.mcpServer!;
    ms.toolNames = (ms.requireApproval as string[]).slice(0, 50);
    ms.name = 's';
  } else if (path.includes('tools[].mcpServer')) (spec.declarative as Record<string, Record<string, Record<string, unknown>>[]>).tools![0]!.mcpServer!.name = 's';
  if (path.includes('.memory.')) (spec.declarative as Record<string, Record<string, unknown>>).memory!.modelConfig = 'emb';
  if (kind === 'Agent' || kind === 'SandboxAgent') {
    if (path.includes('spec.provider.')) (spec.provider as Record<string, unknown>).url ??= 'https://example.com';
    if (path.includes('spec.provider.')) (spec.provider as Record<string, unknown>).organization ??= 'o';
  }
}

/** The value at the bound (ok) or one past it (bad). */
function valueFor(l: Limit, path: string, bad: boolean): unknown {
  const n = bad ? (l.keyword.startsWith('min') ? l.value - 1 : l.value + 1) : l.value;
  if (l.keyword === 'minimum') return n;
  if (l.keyword === 'minLength' || l.keyword === 'maxLength') return 'x'.repeat(n);
  const item = ITEMS[path];
  return Array.from({ length: n }, (_, i) => (item ? item() : `item${i}`));
}

export function buildLimitDoc(l: Limit, bad: boolean): { yaml: string; key: string; parent: string } {
  const spec = BASE[l.kind]!();
  const segs = l.path.replace(/^spec\./, '').split('.');
  let cur: Record<string, unknown> = spec;
  let soFar = 'spec';
  segs.forEach((seg, i) => {
    const isItem = seg.endsWith('[]');
    const key = seg.replace('[]', '');
    soFar += `.${key}`;
    if (i === segs.length - 1) {
      cur[key] = valueFor(l, soFar, bad);
      return;
    }
    if (isItem) {
      const arr = (cur[key] ??= [ITEMS[soFar] ? ITEMS[soFar]!() : {}]) as Record<string, unknown>[];
      cur = arr[0]!;
    } else cur = (cur[key] ??= {}) as Record<string, unknown>;
  });
  extras(l.kind, l.path, spec);
  const obj = { apiVersion: 'agentplat.dev/v1alpha2', kind: l.kind, metadata: { name: 'limits' }, spec };
  return { yaml: stringify(obj, { lineWidth: 0 }), key: segs[segs.length - 1]!.replace('[]', ''), parent: (segs[segs.length - 2] ?? 'spec').replace('[]', '') };
}
