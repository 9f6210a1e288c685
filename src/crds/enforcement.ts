// Where each admission rule of the Resource API (spec/resource-rules.json) is enforced: a CEL
// rule of the model (by id) or schema keywords (the section 8 limits). Tests fail on a rule id
// missing here, and on an entry that points at nothing.

export interface Limit {
  kind: string;
  /** Object path with `[]` for array items, e.g. `spec.declarative.tools`. */
  path: string;
  keyword: 'minItems' | 'maxItems' | 'minLength' | 'maxLength' | 'minimum';
  value: number;
}

export type Enforcement = { cel: string[] } | { schema: Limit[] };

const agentLimits = (kind: string): Limit[] => [
  { kind, path: 'spec.declarative.tools', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.declarative.tools[].mcpServer.toolNames', keyword: 'maxItems', value: 50 },
  { kind, path: 'spec.declarative.tools[].mcpServer.requireApproval', keyword: 'maxItems', value: 50 },
  { kind, path: 'spec.declarative.a2aConfig.skills[].tags', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.declarative.a2aConfig.skills[].examples', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.declarative.a2aConfig.skills', keyword: 'minItems', value: 1 },
  { kind, path: 'spec.skills.refs', keyword: 'minItems', value: 1 },
  { kind, path: 'spec.skills.refs', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.skills.gitRefs', keyword: 'minItems', value: 1 },
  { kind, path: 'spec.skills.gitRefs', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.skills.objectStoreRefs', keyword: 'minItems', value: 1 },
  { kind, path: 'spec.skills.objectStoreRefs', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.skills.imagePullSecrets', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.declarative.promptTemplate.dataSources', keyword: 'maxItems', value: 20 },
  { kind, path: 'spec.provider.organization', keyword: 'minLength', value: 1 },
  { kind, path: 'spec.byo.deployment.image', keyword: 'minLength', value: 1 },
  { kind, path: 'spec.declarative.a2aConfig.skills[].name', keyword: 'minLength', value: 1 },
  { kind, path: 'spec.declarative.systemMessageFrom.name', keyword: 'maxLength', value: 253 },
  { kind, path: 'spec.declarative.systemMessageFrom.key', keyword: 'maxLength', value: 253 },
  { kind, path: 'spec.declarative.context.compaction.compactionInterval', keyword: 'minimum', value: 1 },
  { kind, path: 'spec.declarative.context.compaction.overlapSize', keyword: 'minimum', value: 0 },
  { kind, path: 'spec.declarative.memory.ttlDays', keyword: 'minimum', value: 1 },
];

export const ENFORCEMENT: Record<string, Enforcement> = {
  'agent-byo-required-for-type-byo': { cel: ['agent-byo-required-for-type-byo'] },
  'sandboxagent-byo-required-for-type-byo': { cel: ['sandboxagent-byo-required-for-type-byo'] },
  'agent-declarative-required-for-type-declarative': { cel: ['agent-declarative-required-for-type-declarative'] },
  'sandboxagent-declarative-required-for-type-declarative': { cel: ['sandboxagent-declarative-required-for-type-declarative'] },
  'agent-skills-at-least-one-source': { cel: ['agent-skills-at-least-one-source'] },
  'sandboxagent-skills-at-least-one-source': { cel: ['sandboxagent-skills-at-least-one-source'] },
  'agent-tool-mcpserver-block-for-type-mcpserver': { cel: ['agent-tool-mcpserver-block-for-type-mcpserver'] },
  'sandboxagent-tool-mcpserver-block-for-type-mcpserver': { cel: ['sandboxagent-tool-mcpserver-block-for-type-mcpserver'] },
  'agent-tool-agent-block-for-type-agent': { cel: ['agent-tool-agent-block-for-type-agent'] },
  'sandboxagent-tool-agent-block-for-type-agent': { cel: ['sandboxagent-tool-agent-block-for-type-agent'] },
  'agent-tool-isolate-sessions-agent-only': { cel: ['agent-tool-isolate-sessions-agent-only'] },
  'sandboxagent-tool-isolate-sessions-agent-only': { cel: ['sandboxagent-tool-isolate-sessions-agent-only'] },
  'agent-mcp-require-approval-subset-of-tool-names': { cel: ['agent-mcp-require-approval-subset-of-tool-names'] },
  'sandboxagent-mcp-require-approval-subset-of-tool-names': { cel: ['sandboxagent-mcp-require-approval-subset-of-tool-names'] },
  'agent-byo-deployment-service-account-exclusive': { cel: ['agent-byo-deployment-service-account-exclusive'] },
  'sandboxagent-byo-deployment-service-account-exclusive': { cel: ['sandboxagent-byo-deployment-service-account-exclusive'] },
  'agent-declarative-deployment-service-account-exclusive': { cel: ['agent-declarative-deployment-service-account-exclusive'] },
  'sandboxagent-declarative-deployment-service-account-exclusive': { cel: ['sandboxagent-declarative-deployment-service-account-exclusive'] },
  'agent-field-bounds': { schema: agentLimits('Agent') },
  'sandboxagent-field-bounds': { schema: agentLimits('SandboxAgent') },
  'agentharness-messengerb-backend-key-matches': { cel: ['agentharness-messengerb-backend-key-matches'] },
  'agentharness-allowlist-channels-required-for-allowlist': { cel: ['agentharness-allowlist-channels-required-for-allowlist'] },
  'agentharness-channel-block-for-type': { cel: ['agentharness-channel-block-for-type'] },
  'agentharness-field-bounds': {
    schema: [
      { kind: 'AgentHarness', path: 'spec.channels', keyword: 'maxItems', value: 1024 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerA.allowedUserIDs', keyword: 'maxItems', value: 1024 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerB.backendB.allowedUserIDs', keyword: 'maxItems', value: 1024 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerB.backendA.allowlistChannels', keyword: 'maxItems', value: 1024 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerA.botToken.value', keyword: 'maxLength', value: 8192 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerB.appToken.value', keyword: 'maxLength', value: 8192 },
      { kind: 'AgentHarness', path: 'spec.channels[].name', keyword: 'minLength', value: 1 },
      { kind: 'AgentHarness', path: 'spec.channels[].messengerA.allowedUserIDsFrom.name', keyword: 'maxLength', value: 253 },
    ],
  },
  'modelconfig-providerb-max-tokens-exclusive': { cel: ['modelconfig-providerb-max-tokens-exclusive'] },
  'modelconfig-api-key-passthrough-excludes-secret': { cel: ['modelconfig-api-key-passthrough-excludes-secret'] },
  'modelconfig-token-exchange-requires-api-key-secret': { cel: ['modelconfig-token-exchange-requires-api-key-secret'] },
  'modelconfig-token-exchange-excludes-passthrough': { cel: ['modelconfig-token-exchange-excludes-passthrough'] },
  'modelconfig-tls-ca-secret-key-required': { cel: ['modelconfig-tls-ca-secret-key-required'] },
  'modelconfig-providerj-endpoint-exclusive': { cel: ['modelconfig-providerj-endpoint-exclusive'] },
  'modelconfig-field-bounds': {
    schema: [
      { kind: 'ModelConfig', path: 'spec.providerB.maxTokens', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerB.maxCompletionTokens', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerE.maxOutputTokens', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerF.maxOutputTokens', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerH.readTimeout', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerH.connectTimeout', keyword: 'minimum', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerH.guardrail.identifier', keyword: 'minLength', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerH.guardrail.identifier', keyword: 'maxLength', value: 2048 },
      { kind: 'ModelConfig', path: 'spec.providerH.guardrail.version', keyword: 'minLength', value: 1 },
      { kind: 'ModelConfig', path: 'spec.providerH.guardrail.version', keyword: 'maxLength', value: 8 },
    ],
  },
  'remotemcpserver-tls-forbidden-with-http-url': { cel: ['remotemcpserver-tls-forbidden-with-http-url'] },
  'remotemcpserver-cross-namespace-excludes-ca-secret': { cel: ['remotemcpserver-cross-namespace-excludes-ca-secret'] },
  'remotemcpserver-tls-ca-secret-key-required': { cel: ['remotemcpserver-tls-ca-secret-key-required'] },
  'remotemcpserver-field-bounds': {
    schema: [
      { kind: 'RemoteMCPServer', path: 'spec.url', keyword: 'minLength', value: 1 },
      { kind: 'RemoteMCPServer', path: 'spec.headersFrom[].valueFrom.name', keyword: 'maxLength', value: 253 },
      { kind: 'RemoteMCPServer', path: 'spec.headersFrom[].valueFrom.key', keyword: 'maxLength', value: 253 },
    ],
  },
};

/** CEL rules kept from the reference where the spec implies them (not rows of resource-rules.json). */
export const EXTRA_CEL_RULES = [
  'modelconfig-provider-block-matches-provider/providerA',
  'modelconfig-provider-block-matches-provider/providerB',
  'modelconfig-provider-block-matches-provider/providerC',
  'modelconfig-provider-block-matches-provider/providerD',
  'modelconfig-provider-block-matches-provider/providerE',
  'modelconfig-provider-block-matches-provider/providerF',
  'modelconfig-provider-block-matches-provider/providerG',
  'modelconfig-provider-block-matches-provider/providerH',
  'modelconfig-provider-block-matches-provider/providerI',
  'modelconfig-provider-block-matches-provider/providerJ',
  'modelconfig-token-exchange-service-account-config',
  'modelproviderconfig-secret-ref-required-with-auth',
];
