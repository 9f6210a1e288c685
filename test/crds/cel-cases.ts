// The section 7 admission-rule cases: for each CEL rule of the model, a resource that breaks it
// (its offending line marked `# HERE`) and one that keeps it. Shared by cel-rules.test.ts, the
// failing corpus (failing-corpus.ts) and the cluster corpus.
import { doc } from './helpers.ts';

export interface Case {
  id: string;
  bad: string;
  good: string;
}

const AGENT_KINDS = ['Agent', 'SandboxAgent'] as const;
const prefix = (k: string): string => k.toLowerCase();

function agentCases(kind: string): Case[] {
  const p = prefix(kind);
  return [
    {
      id: `${p}-byo-required-for-type-byo`,
      bad: doc(kind, `  type: BYO # HERE\n  description: no byo block\n  declarative:\n    runtime: go\n`),
      good: doc(kind, `  type: BYO\n  byo:\n    deployment:\n      image: example.com/a:1\n`),
    },
    {
      id: `${p}-declarative-required-for-type-declarative`,
      // type is defaulted, so it has no place in the file: the problem points at spec.
      bad: doc(kind, `  description: type defaults to Declarative\n`).replace('spec:\n', 'spec: # HERE\n'),
      good: doc(kind, `  declarative:\n    runtime: go\n`),
    },
    {
      id: `${p}-skills-at-least-one-source`,
      bad: doc(kind, `  declarative: {}\n  skills: # HERE\n    insecureSkipVerify: true\n`),
      good: doc(kind, `  declarative: {}\n  skills:\n    gitRefs:\n      - url: https://example.com/skills.git\n`),
    },
    {
      id: `${p}-tool-mcpserver-block-for-type-mcpserver`,
      bad: doc(kind, `  declarative:\n    tools:\n      - type: McpServer # HERE\n        agent:\n          name: other\n`),
      good: doc(kind, `  declarative:\n    tools:\n      - type: McpServer\n        mcpServer:\n          name: tools\n`),
    },
    {
      id: `${p}-tool-agent-block-for-type-agent`,
      bad: doc(kind, `  declarative:\n    tools:\n      - type: Agent # HERE\n        mcpServer:\n          name: tools\n`),
      good: doc(kind, `  declarative:\n    tools:\n      - type: Agent\n        agent:\n          name: helper\n`),
    },
    {
      id: `${p}-tool-isolate-sessions-agent-only`,
      bad: doc(kind, `  declarative:\n    tools:\n      - type: McpServer\n        mcpServer:\n          name: tools\n        isolateSessions: false # HERE\n`),
      good: doc(kind, `  declarative:\n    tools:\n      - type: Agent\n        agent:\n          name: helper\n        isolateSessions: true\n`),
    },
    {
      id: `${p}-mcp-require-approval-subset-of-tool-names`,
      bad: doc(kind, `  declarative:\n    tools:\n      - type: McpServer\n        mcpServer:\n          name: tools\n          toolNames: [get, list]\n          requireApproval: [delete] # HERE\n`),
      good: doc(kind, `  declarative:\n    tools:\n      - type: McpServer\n        mcpServer:\n          name: tools\n          toolNames: [get, delete]\n          requireApproval: [delete]\n`),
    },
    {
      id: `${p}-byo-deployment-service-account-exclusive`,
      bad: doc(kind, `  type: BYO\n  byo:\n    deployment:\n      image: example.com/a:1\n      serviceAccountName: existing\n      serviceAccountConfig: # HERE\n        labels: {team: a}\n`),
      good: doc(kind, `  type: BYO\n  byo:\n    deployment:\n      image: example.com/a:1\n      serviceAccountConfig:\n        labels: {team: a}\n`),
    },
    {
      id: `${p}-declarative-deployment-service-account-exclusive`,
      bad: doc(kind, `  declarative:\n    deployment:\n      serviceAccountName: existing\n      serviceAccountConfig: # HERE\n        annotations: {a: b}\n`),
      good: doc(kind, `  declarative:\n    deployment:\n      serviceAccountName: existing\n`),
    },
  ];
}

export const harness = (channels: string, backend = 'backendA'): string =>
  doc('AgentHarness', `  backend: ${backend}\n  substrate: {}\n  channels:\n${channels}`);
const tokens = `        botToken: {value: t1}\n        appToken: {value: t2}\n`;

export const modelConfig = (spec: string): string => doc('ModelConfig', `  model: m\n${spec}`);
export const remote = (spec: string): string => doc('RemoteMCPServer', `  description: tools\n${spec}`);

export const CEL_CASES: Case[] = [
  ...AGENT_KINDS.flatMap(agentCases),
  {
    id: 'agentharness-messengerb-backend-key-matches',
    bad: harness(`    - name: chat\n      type: messengerB\n      messengerB:\n${tokens}        backendB: {homeChannel: C1}\n`).replace('  channels:\n', '  channels: # HERE\n'),
    good: harness(`    - name: chat\n      type: messengerB\n      messengerB:\n${tokens}        backendB: {homeChannel: C1}\n`, 'backendB'),
  },
  {
    id: 'agentharness-allowlist-channels-required-for-allowlist',
    bad: harness(`    - name: chat\n      type: messengerB\n      messengerB:\n${tokens}        backendA:\n          channelAccess: allowlist # HERE\n`),
    good: harness(`    - name: chat\n      type: messengerB\n      messengerB:\n${tokens}        backendA:\n          channelAccess: allowlist\n          allowlistChannels: [C1]\n`),
  },
  {
    id: 'agentharness-channel-block-for-type',
    bad: harness(`    - name: chat\n      type: messengerA # HERE\n      messengerB:\n${tokens}`),
    good: harness(`    - name: chat\n      type: messengerA\n      messengerA:\n        botToken: {value: t1}\n`),
  },
  {
    id: 'modelconfig-providerb-max-tokens-exclusive',
    bad: modelConfig(`  providerB:\n    maxTokens: 100\n    maxCompletionTokens: 200 # HERE\n`),
    good: modelConfig(`  providerB:\n    maxCompletionTokens: 200\n`),
  },
  {
    id: 'modelconfig-api-key-passthrough-excludes-secret',
    bad: modelConfig(`  apiKeySecret: key\n  apiKeyPassthrough: true # HERE\n`),
    good: modelConfig(`  apiKeyPassthrough: true\n`),
  },
  {
    id: 'modelconfig-token-exchange-requires-api-key-secret',
    bad: modelConfig(`  providerB:\n    tokenExchange: # HERE\n      type: ServiceAccountExchange\n      serviceAccountExchange: {audience: https://gw.example.com}\n`),
    good: modelConfig(`  apiKeySecret: sa\n  providerB:\n    tokenExchange:\n      type: ServiceAccountExchange\n      serviceAccountExchange: {audience: https://gw.example.com}\n`),
  },
  {
    id: 'modelconfig-token-exchange-excludes-passthrough',
    bad: modelConfig(`  apiKeyPassthrough: true\n  providerB:\n    tokenExchange: # HERE\n      type: ServiceAccountExchange\n      serviceAccountExchange: {audience: https://gw.example.com}\n`).replace(
      '  apiKeyPassthrough: true\n',
      '  apiKeyPassthrough: true\n  apiKeySecret: sa\n',
    ),
    good: modelConfig(`  apiKeySecret: sa\n  apiKeyPassthrough: false\n  providerB:\n    tokenExchange:\n      type: ServiceAccountExchange\n      serviceAccountExchange: {audience: https://gw.example.com}\n`),
  },
  {
    id: 'modelconfig-token-exchange-service-account-config',
    bad: modelConfig(`  apiKeySecret: sa\n  providerB:\n    tokenExchange:\n      type: ServiceAccountExchange # HERE\n`),
    good: modelConfig(`  apiKeySecret: sa\n  providerB:\n    tokenExchange:\n      type: ServiceAccountExchange\n      serviceAccountExchange: {audience: https://gw.example.com}\n`),
  },
  {
    id: 'modelconfig-tls-ca-secret-key-required',
    bad: modelConfig(`  tls:\n    disableVerify: true\n    caCertSecretRef: ca # HERE\n`),
    good: modelConfig(`  tls:\n    caCertSecretRef: ca\n    caCertSecretKey: ca.crt\n`),
  },
  {
    id: 'modelconfig-providerj-endpoint-exclusive',
    bad: modelConfig(`  provider: ProviderJ\n  providerJ:\n    deployment: d\n    endpoint: https://ai.example.com\n    endpointFrom: # HERE\n      name: cm\n      key: url\n`),
    good: modelConfig(`  provider: ProviderJ\n  providerJ:\n    deployment: d\n    endpoint: https://ai.example.com\n`),
  },
  {
    id: 'modelconfig-provider-block-matches-provider/providerA',
    bad: modelConfig(`  providerA: # HERE\n    maxTokens: 10\n`),
    good: modelConfig(`  provider: ProviderA\n  providerA:\n    maxTokens: 10\n`),
  },
  {
    id: 'modelconfig-provider-block-matches-provider/providerB',
    bad: modelConfig(`  provider: ProviderA\n  providerB: # HERE\n    maxTokens: 10\n`),
    good: modelConfig(`  providerB:\n    maxTokens: 10\n`),
  },
  {
    id: 'remotemcpserver-tls-forbidden-with-http-url',
    bad: remote(`  url: http://tools.example.com/mcp\n  tls: # HERE\n    disableVerify: false\n`),
    good: remote(`  url: https://tools.example.com/mcp\n  tls:\n    disableVerify: false\n`),
  },
  {
    id: 'remotemcpserver-cross-namespace-excludes-ca-secret',
    bad: remote(`  url: https://tools.example.com/mcp\n  allowedNamespaces:\n    from: Selector # HERE\n    selector: {matchLabels: {a: b}}\n  tls:\n    caCertSecretRef: ca\n    caCertSecretKey: ca.crt\n`),
    good: remote(`  url: https://tools.example.com/mcp\n  allowedNamespaces:\n    from: Same\n  tls:\n    caCertSecretRef: ca\n    caCertSecretKey: ca.crt\n`),
  },
  {
    id: 'modelproviderconfig-secret-ref-required-with-auth',
    bad: doc('ModelProviderConfig', `  type: ProviderB # HERE\n  endpoint: https://api.example.com/v1\n`).replace('spec:\n  type: ProviderB # HERE', 'spec: # HERE\n  type: ProviderB'),
    good: doc('ModelProviderConfig', `  type: ProviderD\n  endpoint: http://runtime.example.com:11434\n`),
  },
  {
    id: 'remotemcpserver-tls-ca-secret-key-required',
    bad: remote(`  url: https://tools.example.com/mcp\n  tls:\n    caCertSecretRef: ca # HERE\n`),
    good: remote(`  url: https://tools.example.com/mcp\n  tls:\n    caCertSecretRef: ca\n    caCertSecretKey: ca.crt\n`),
  },
];
