// The Resource API (group agentplat.dev, version v1alpha2) as one TypeScript model: every field of
// the spec's section 2 with its type, schema default, enum and bounds, and the admission rules of
// section 7 as CEL. The CRDs, the docs and `agentplat validate` are all derived from it.

import { bool, cel, field, int, int32, k8s, k8sList, list, obj, str, strList, strMap, type CelRule, type Node } from './dsl.ts';

import { GROUP } from './ids.ts';

export { GROUP };
export const VERSION = 'v1alpha2';

const PROVIDERS = ['ProviderA', 'ProviderB', 'ProviderC', 'ProviderD', 'ProviderE', 'ProviderF', 'ProviderG', 'ProviderH', 'ProviderI', 'ProviderJ'];

// ---- shared references and value sources (2.6) ----

const ValueSource = obj(
  {
    type: str('Kind of the source object: ConfigMap or Secret', { enum: ['ConfigMap', 'Secret'] }),
    name: str('Name of the ConfigMap or Secret in the same namespace', { maxLength: 253 }),
    key: str('Key within the ConfigMap or Secret', { maxLength: 253 }),
  },
  { required: ['type', 'name', 'key'] },
);

const ValueRef = obj(
  {
    name: str('Header or variable name'),
    value: str('Inline value'),
    valueFrom: field('ConfigMap or Secret key holding the value', ValueSource),
  },
  { required: ['name'] },
);

const TypedReference = obj(
  {
    kind: str('Kind of the referenced object'),
    apiGroup: str('API group of the referenced object'),
    name: str('Name of the referenced object'),
    namespace: str('Namespace of the referenced object; the referencing namespace when empty'),
  },
  { required: ['name'] },
);

const TypedLocalReference = obj(
  {
    kind: str('Kind of the referenced object'),
    apiGroup: str('API group of the referenced object'),
    name: str('Name of the referenced object in the same namespace'),
  },
  { required: ['name'] },
);

const AllowedNamespaces = obj({
  from: str('All namespaces, the Same namespace, or namespaces matching the Selector', { enum: ['All', 'Same', 'Selector'], default: 'Same' }),
  selector: k8s('LabelSelector', 'Namespace label selector; used only when from is Selector'),
});

// ---- deployment settings (2.8) ----

const serviceAccountExclusive = (prefix: string): CelRule =>
  cel(
    `${prefix}-deployment-service-account-exclusive`,
    '!(has(self.serviceAccountName) && has(self.serviceAccountConfig))',
    'serviceAccountName and serviceAccountConfig are mutually exclusive: name an existing ServiceAccount or configure the created one, not both',
    '.serviceAccountConfig',
  );

const ServiceAccountConfig = obj({
  labels: strMap('Labels added to the created ServiceAccount'),
  annotations: strMap('Annotations added to the created ServiceAccount'),
});

const sharedDeploymentFields: Record<string, Node> = {
  replicas: int32('Desired number of agent pods; the Deployment\'s replicas', { default: 1, minimum: 0 }),
  imagePullSecrets: k8sList('LocalObjectReference', 'Secrets in the agent namespace for pulling the image'),
  volumes: k8sList('Volume', 'Extra pod volumes'),
  volumeMounts: k8sList('VolumeMount', 'Extra mounts on the agent container'),
  labels: strMap('Extra labels on agent pods'),
  annotations: strMap('Extra annotations on agent pods'),
  deploymentAnnotations: strMap('Annotations on the Deployment itself; win over those inherited from the agent metadata'),
  env: k8sList('EnvVar', 'Extra environment variables'),
  envFrom: k8sList('EnvFromSource', 'ConfigMap and Secret sources; a duplicate key in env wins'),
  imagePullPolicy: str('Image pull policy', { enum: ['Always', 'IfNotPresent', 'Never'] }),
  resources: k8s('ResourceRequirements', 'Compute resources of the agent container'),
  tolerations: k8sList('Toleration', 'Pod tolerations'),
  affinity: k8s('Affinity', 'Pod affinity rules'),
  nodeSelector: strMap('Node selector of agent pods'),
  securityContext: k8s('SecurityContext', 'Security context of the agent container'),
  podSecurityContext: k8s('PodSecurityContext', 'Security context of the agent pod'),
  serviceAccountName: str('Existing ServiceAccount to use; none is created then'),
  serviceAccountConfig: field('Settings of the ServiceAccount created for the agent when serviceAccountName is unset', ServiceAccountConfig),
  extraContainers: k8sList('Container', 'Sidecar containers next to the agent container'),
};

const ByoDeploymentSpec = (prefix: string): Node =>
  obj(
    {
      image: str('Image of the BYO agent; must serve A2A on port 8080', { minLength: 1 }),
      cmd: str('Overrides the container entrypoint'),
      args: strList('Arguments for the entrypoint'),
      workingDir: str('Working directory; the image WORKDIR when omitted'),
      ...sharedDeploymentFields,
    },
    { rules: [serviceAccountExclusive(`${prefix}-byo`)] },
  );

const DeclarativeDeploymentSpec = (prefix: string): Node =>
  obj(
    {
      imageRegistry: str('Registry of the runtime image'),
      ...sharedDeploymentFields,
    },
    { rules: [serviceAccountExclusive(`${prefix}-declarative`)] },
  );

// ---- declarative agents (2.5 - 2.7) ----

const PromptTemplateSpec = obj({
  dataSources: list(
    'ConfigMaps the template may include',
    obj(
      {
        kind: str('Kind of the source (ConfigMap)'),
        apiGroup: str('API group of the source'),
        name: str('Name of the ConfigMap'),
        alias: str('Short identifier used by include()'),
      },
      { required: ['name'] },
    ),
    { maxItems: 20 },
  ),
});

const AgentSkill = obj(
  {
    id: str('Unique id of the skill'),
    name: str('Human-readable name', { minLength: 1 }),
    description: str('What the skill does'),
    tags: strList('Keywords', { maxItems: 20 }),
    examples: strList('Example prompts', { maxItems: 20 }),
    inputModes: strList('Accepted MIME types; override the agent defaults'),
    outputModes: strList('Produced MIME types; override the agent defaults'),
  },
  { required: ['name'] },
);

const McpServerTool = (prefix: string): Node =>
  obj(
    {
      kind: str('Kind of the tool server object'),
      apiGroup: str('API group of the tool server object'),
      name: str('Name of the tool server object'),
      namespace: str('Namespace of the tool server object; the agent namespace when empty'),
      toolNames: strList('Tools to use from the server', { maxItems: 50 }),
      requireApproval: strList('Tools that pause for human approval; each must be in toolNames', { maxItems: 50 }),
      allowedHeaders: strList('Incoming A2A request headers propagated to tool calls (case-insensitive)'),
    },
    {
      required: ['name'],
      rules: [
        cel(
          `${prefix}-mcp-require-approval-subset-of-tool-names`,
          '!has(self.requireApproval) || self.requireApproval.all(t, has(self.toolNames) && t in self.toolNames)',
          'every tool name in requireApproval must also be listed in toolNames',
          '.requireApproval',
        ),
      ],
    },
  );

const Tool = (prefix: string): Node =>
  obj(
    {
      type: str('Kind of tool: McpServer or Agent', { enum: ['McpServer', 'Agent'] }),
      mcpServer: field('MCP server tool; for type McpServer', McpServerTool(prefix)),
      agent: field('Agent used as a tool; for type Agent', TypedReference),
      isolateSessions: bool('Fresh A2A context per call; only for type Agent (unset means false)'),
      headersFrom: list('Header values from Secrets or ConfigMaps; override same-named tool server headers', ValueRef),
    },
    {
      rules: [
        cel(
          `${prefix}-tool-mcpserver-block-for-type-mcpserver`,
          "has(self.mcpServer) == (has(self.type) && self.type == 'McpServer')",
          'a tool of type McpServer is configured by mcpServer, and mcpServer is allowed only on type McpServer',
          '.type',
        ),
        cel(
          `${prefix}-tool-agent-block-for-type-agent`,
          "has(self.agent) == (has(self.type) && self.type == 'Agent')",
          'a tool of type Agent is configured by agent, and agent is allowed only on type Agent',
          '.type',
        ),
        cel(
          `${prefix}-tool-isolate-sessions-agent-only`,
          "!has(self.isolateSessions) || (has(self.type) && self.type == 'Agent')",
          'isolateSessions is valid only on a tool of type Agent',
          '.isolateSessions',
        ),
      ],
    },
  );

const MemorySpec = obj(
  {
    modelConfig: str('ModelConfig whose embedding provider generates memory vectors'),
    ttlDays: int('Days after which an entry may be pruned; 15 when unset or zero', { minimum: 1 }),
  },
  { required: ['modelConfig'] },
);

const ContextConfig = obj({
  compaction: field(
    'Compacts older events to reduce context size',
    obj({
      compactionInterval: int('New user invocations that trigger a compaction', { default: 5, minimum: 1 }),
      overlapSize: int('Preceding invocations included from the end of the last compacted range', { default: 2, minimum: 0 }),
      summarizer: field(
        'Summarizes compacted events; without it they are dropped',
        obj({
          modelConfig: str("ModelConfig in the same namespace; the agent's own model when empty"),
          promptTemplate: str('Custom summarizer prompt'),
        }),
      ),
      tokenThreshold: int('Prompt token count that triggers a post-invocation compaction'),
      eventRetentionSize: int('Most recent events always retained'),
    }),
  ),
});

const DeclarativeAgentSpec = (prefix: string): Node =>
  obj({
    runtime: str('Built-in runtime: go (faster start) or python (full feature set)', { enum: ['python', 'go'], default: 'go' }),
    systemMessage: str('System message; a template when promptTemplate is set'),
    systemMessageFrom: field('ConfigMap or Secret key holding the system message', ValueSource),
    promptTemplate: field('Enables template processing of the system message', PromptTemplateSpec),
    modelConfig: str('Name of a ModelConfig in the same namespace', { default: 'default-model-config' }),
    stream: bool('Stream the model response', { default: false }),
    tools: list('Tools the agent may call', Tool(prefix), { maxItems: 20 }),
    a2aConfig: field('Serves an A2A server for this agent', obj({ skills: list('Skills advertised on the AgentCard', AgentSkill, { minItems: 1 }) })),
    deployment: field('Deployment settings of the agent', DeclarativeDeploymentSpec(prefix)),
    executeCodeBlocks: bool('Execute python code blocks from model output in a sandbox (currently ignored)'),
    memory: field('Long-term memory', MemorySpec),
    shareTools: bool('Adds tools to create, list and delete share links of the session'),
    context: field('Context management', ContextConfig),
  });

// ---- skills (2.9) ----

const SkillForAgent = (prefix: string): Node =>
  obj(
    {
      insecureSkipVerify: bool('Fetch skill images over HTTP or without TLS verification (development only)'),
      refs: strList('Skill images to fetch', { minItems: 1, maxItems: 20 }),
      imagePullSecrets: k8sList('LocalObjectReference', 'docker-config Secrets for the skill images', { maxItems: 20 }),
      gitAuthSecretRef: k8s('LocalObjectReference', 'Secret with git credentials (key token or ssh-privatekey)'),
      gitRefs: list(
        'Git repositories holding skills',
        obj(
          {
            url: str('Repository URL (HTTPS or SSH)'),
            ref: str('Branch, tag or commit SHA', { default: 'main' }),
            path: str('Subdirectory used as skill root'),
            name: str('Directory under /skills'),
          },
          { required: ['url'] },
        ),
        { minItems: 1, maxItems: 20 },
      ),
      objectStoreRefs: list(
        'Object-store locations holding skills',
        obj(
          {
            uri: str('Object-store URI of a prefix or an archive', { minLength: 1, pattern: '^s3://.+' }),
            region: str('Region; optional when the region variable is set on the init container'),
            name: str('Directory under /skills'),
          },
          { required: ['uri'] },
        ),
        { minItems: 1, maxItems: 20 },
      ),
      initContainer: field(
        'Settings of the skills-init container',
        obj({
          resources: k8s('ResourceRequirements', 'Compute resources of the init container'),
          env: k8sList('EnvVar', 'Environment of the init container'),
        }),
      ),
    },
    {
      rules: [
        cel(
          `${prefix}-skills-at-least-one-source`,
          'has(self.refs) || has(self.gitRefs) || has(self.objectStoreRefs)',
          'skills needs at least one of refs, gitRefs or objectStoreRefs',
        ),
      ],
    },
  );

// ---- agents (2.3, 2.4, 2.10) ----

const SnapshotsConfig = obj(
  { location: str('Object-store URI prefix for golden and incremental snapshots', { pattern: '^gs://' }) },
  { required: ['location'] },
);

function agentSpecFields(prefix: string): Record<string, Node> {
  return {
    type: str('Declarative (described here, built-in runtime) or BYO (your image serving A2A)', { enum: ['Declarative', 'BYO'], default: 'Declarative' }),
    byo: field('User-provided agent image; required when type is BYO', obj({ deployment: field('Deployment settings of the BYO agent', ByoDeploymentSpec(prefix)) })),
    declarative: field('Declarative agent definition; required when type is Declarative', DeclarativeAgentSpec(prefix)),
    description: str('Description of the agent'),
    iconUrl: str('Icon URL shown on the AgentCard', { format: 'uri' }),
    documentationUrl: str('Documentation URL shown on the AgentCard', { format: 'uri' }),
    version: str('Agent version shown on the AgentCard'),
    provider: field(
      'Organization responsible for the agent',
      obj(
        {
          organization: str('Organization name', { minLength: 1 }),
          url: str('Organization URL', { format: 'uri' }),
        },
        { required: ['organization', 'url'] },
      ),
    ),
    skills: field('Skills placed under /skills', SkillForAgent(prefix)),
    sandbox: field(
      'Sandboxed execution behaviour',
      obj({ network: field('Network access of sandboxed execution', obj({ allowedDomains: strList('Domains sandboxed code may contact (*.domain allowed); none means no access') })) }),
    ),
    allowedNamespaces: field('Namespaces that may use this agent as a tool; the same namespace when unset', AllowedNamespaces),
  };
}

function agentTypeRules(prefix: string): CelRule[] {
  const type = "(has(self.type) ? self.type : 'Declarative')";
  return [
    cel(`${prefix}-byo-required-for-type-byo`, `${type} != 'BYO' || has(self.byo)`, 'spec.byo is required when spec.type is BYO', '.type'),
    cel(`${prefix}-declarative-required-for-type-declarative`, `${type} != 'Declarative' || has(self.declarative)`, 'spec.declarative is required when spec.type is Declarative', '.type'),
  ];
}

const Condition = k8sList('Condition', 'Standard status conditions');

const AgentStatus = obj({
  observedGeneration: int('Generation last processed by the controller'),
  conditions: Condition,
});

export const AgentSpec = obj(agentSpecFields('agent'), { rules: agentTypeRules('agent') });

export const SandboxAgentSpec = obj(
  {
    ...agentSpecFields('sandboxagent'),
    substrate: field(
      'Substrate-specific settings',
      obj({
        workerPoolRef: field('Existing substrate worker pool; the controller default when unset', TypedLocalReference),
        snapshotsConfig: field('Actor memory snapshots; a namespace/name prefix when unset', SnapshotsConfig),
      }),
    ),
  },
  { rules: agentTypeRules('sandboxagent') },
);

// ---- AgentHarness (2.11) ----

const Credential = obj({
  value: str('Inline token', { maxLength: 8192, secret: true }),
  valueFrom: field('ConfigMap or Secret key holding the token', ValueSource),
});

const MessengerBChannel = obj(
  {
    botToken: field('Bot token', Credential),
    appToken: field('App-level token', Credential),
    backendA: field(
      'Settings when spec.backend is backendA',
      obj(
        {
          channelAccess: str('Which channels the bot answers in', { enum: ['allowlist', 'open', 'disabled'] }),
          allowlistChannels: strList('Channels allowed in allowlist mode', { maxItems: 1024 }),
          interactiveReplies: bool('Interactive replies', { default: true }),
        },
        {
          rules: [
            cel(
              'agentharness-allowlist-channels-required-for-allowlist',
              "!has(self.channelAccess) || self.channelAccess != 'allowlist' || (has(self.allowlistChannels) && size(self.allowlistChannels) > 0)",
              'allowlistChannels must list at least one channel when channelAccess is allowlist',
              '.channelAccess',
            ),
          ],
        },
      ),
    ),
    backendB: field(
      'Settings when spec.backend is backendB',
      obj({
        allowedUserIDs: strList('Member IDs allowed to interact', { maxItems: 1024 }),
        allowedUserIDsFrom: field('ConfigMap or Secret key holding the allowed member IDs', ValueSource),
        homeChannel: str('Default channel ID for scheduled messages'),
        homeChannelName: str('Human-readable label of the home channel'),
      }),
    ),
  },
  { required: ['botToken', 'appToken'] },
);

const HarnessChannel = obj(
  {
    name: str('Stable id of the binding', { minLength: 1 }),
    type: str('Messenger integration', { enum: ['messengerA', 'messengerB'] }),
    messengerA: field(
      'Settings for type messengerA',
      obj(
        {
          botToken: field('Bot token', Credential),
          allowedUserIDs: strList('Member IDs allowed to interact', { maxItems: 1024 }),
          allowedUserIDsFrom: field('ConfigMap or Secret key holding the allowed member IDs', ValueSource),
        },
        { required: ['botToken'] },
      ),
    ),
    messengerB: field('Settings for type messengerB', MessengerBChannel),
  },
  {
    required: ['name', 'type'],
    rules: [
      cel(
        'agentharness-channel-block-for-type',
        "has(self.type) && (self.type == 'messengerA' ? has(self.messengerA) && !has(self.messengerB) : has(self.messengerB) && !has(self.messengerA))",
        'a channel is configured by exactly the block named by its type (messengerA or messengerB)',
        '.type',
      ),
    ],
  },
);

export const AgentHarnessSpec = obj(
  {
    backend: str('Backend that provisions the harness', { enum: ['backendA', 'backendB'] }),
    substrate: field(
      'Sandbox substrate settings',
      obj({
        workerPoolRef: field('Existing worker pool in the harness namespace; the controller default when unset', TypedLocalReference),
        snapshotsConfig: field('Snapshots; a namespace/name prefix when unset', SnapshotsConfig),
        workloadImage: str('Overrides the sandbox image of the generated actor template'),
      }),
    ),
    description: str('Short summary shown in the UI'),
    image: str('Harness VM image when the backend supports it; the backend base image when empty'),
    env: k8sList('EnvVar', 'Environment of the harness workload'),
    modelConfigRef: str('ModelConfig used to configure the harness gateway'),
    channels: list('Messenger integrations inside the harness VM', HarnessChannel, { maxItems: 1024 }),
  },
  {
    required: ['backend', 'substrate'],
    rules: [
      cel(
        'agentharness-messengerb-backend-key-matches',
        "!has(self.channels) || !has(self.backend) || self.channels.all(c, !has(c.messengerB) || (self.backend == 'backendA' ? !has(c.messengerB.backendB) : !has(c.messengerB.backendA)))",
        'messengerB channel settings must sit under the key named by spec.backend (backendA or backendB)',
        '.channels',
      ),
    ],
  },
);

const AgentHarnessStatus = obj({
  observedGeneration: int('Generation last processed by the controller'),
  conditions: Condition,
  backendRef: field(
    'Backend object, set once the backend Ensure call succeeded',
    obj(
      {
        backend: str('Backend type', { enum: ['backendA', 'backendB'] }),
        id: str('Backend id'),
      },
      { required: ['backend', 'id'] },
    ),
  ),
  connection: field('Connection details, set when the harness is ready', obj({ endpoint: str('Backend address (gRPC target or SSH host:port)') })),
});

// ---- ModelConfig (2.12) ----

const TLSConfig = (prefix: string): Node =>
  obj(
    {
      disableVerify: bool('Turns certificate verification off (development only)', { default: false }),
      caCertSecretRef: str('Secret with PEM CA certificates in the same namespace'),
      caCertSecretKey: str('Key in the Secret holding the PEM data; required with caCertSecretRef'),
      disableSystemCAs: bool('Trust only the custom CA', { default: false }),
    },
    {
      rules: [
        cel(
          `${prefix}-tls-ca-secret-key-required`,
          "!has(self.caCertSecretRef) || self.caCertSecretRef == '' || (has(self.caCertSecretKey) && self.caCertSecretKey != '')",
          'caCertSecretKey is required when caCertSecretRef is set, even with disableVerify',
          '.caCertSecretRef',
        ),
      ],
    },
  );

const cloudProjectFields = (): Record<string, Node> => ({
  projectID: str('Cloud project ID'),
  location: str('Cloud location (region)'),
  temperature: str('Sampling temperature (decimal as string)'),
  topP: str('Nucleus sampling (decimal as string)'),
  topK: str('Top-k sampling (as string)'),
  stopSequences: strList('Sequences that stop generation'),
});

const TokenExchangeConfig = obj(
  {
    type: str('Token exchange mechanism', { enum: ['ServiceAccountExchange'] }),
    serviceAccountExchange: field(
      'Service-account exchange settings',
      obj({ audience: str('Token-exchange audience: base URL of the inference gateway') }, { required: ['audience'] }),
    ),
  },
  {
    required: ['type'],
    rules: [
      cel(
        'modelconfig-token-exchange-service-account-config',
        "self.type != 'ServiceAccountExchange' || has(self.serviceAccountExchange)",
        'tokenExchange of type ServiceAccountExchange needs serviceAccountExchange with its audience',
        '.type',
      ),
    ],
  },
);

const providerBlocks: Record<string, Node> = {
  providerA: field(
    'Settings for ProviderA (hosted message API)',
    obj({
      baseUrl: str('Overrides the default base URL'),
      maxTokens: int('Maximum tokens to generate'),
      temperature: str('Sampling temperature (decimal as string)'),
      topP: str('Nucleus sampling (decimal as string)'),
      topK: int('Top-k sampling'),
    }),
  ),
  providerB: field(
    'Settings for ProviderB (hosted chat API)',
    obj(
      {
        baseUrl: str('Overrides the default base URL'),
        organization: str('Organization id'),
        temperature: str('Sampling temperature (decimal as string)'),
        maxTokens: int('Sent as max_tokens; reasoning models reject it', { minimum: 1 }),
        maxCompletionTokens: int('Sent as max_completion_tokens; bounds visible and reasoning output', { minimum: 1 }),
        topP: str('Nucleus sampling (decimal as string)'),
        frequencyPenalty: str('Frequency penalty (decimal as string)'),
        presencePenalty: str('Presence penalty (decimal as string)'),
        seed: int('Sampling seed'),
        n: int('Completions per request'),
        timeout: int('Request timeout in seconds'),
        reasoningEffort: str('Reasoning effort; none disables reasoning', { enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] }),
        apiFormat: str('chatCompletions posts to /v1/chat/completions, responses to /v1/responses', { enum: ['chatCompletions', 'responses'], default: 'chatCompletions' }),
        tokenExchange: field('Obtains a bearer token by service-account exchange; needs apiKeySecret', TokenExchangeConfig),
      },
      {
        rules: [
          cel(
            'modelconfig-providerb-max-tokens-exclusive',
            '!(has(self.maxTokens) && has(self.maxCompletionTokens))',
            'maxTokens and maxCompletionTokens are mutually exclusive; reasoning models need maxCompletionTokens',
            '.maxCompletionTokens',
          ),
        ],
      },
    ),
  ),
  providerC: field(
    'Settings for ProviderC (cloud-hosted ProviderB)',
    obj(
      {
        azureEndpoint: str('Endpoint of the cloud resource'),
        apiVersion: str('API version'),
        azureDeployment: str('Deployment name'),
        azureAdToken: str('Directory token', { secret: true }),
        temperature: str('Sampling temperature (decimal as string)'),
        maxTokens: int('Maximum tokens to generate'),
        topP: str('Nucleus sampling (decimal as string)'),
      },
      { required: ['azureEndpoint', 'apiVersion'] },
    ),
  ),
  providerD: field(
    'Settings for ProviderD (local open-model runtime)',
    obj({
      host: str('Runtime host and port'),
      options: strMap('Runtime options'),
    }),
  ),
  providerE: field('Settings for ProviderE (API-key hosted models)', obj({ maxOutputTokens: int('Maximum output tokens', { minimum: 1 }) })),
  providerF: field(
    'Settings for ProviderF (ProviderE family through a cloud project)',
    obj(
      {
        ...cloudProjectFields(),
        maxOutputTokens: int('Maximum output tokens', { minimum: 1 }),
        candidateCount: int('Candidates per request'),
        responseMimeType: str('MIME type of the response'),
      },
      { required: ['projectID', 'location'] },
    ),
  ),
  providerG: field(
    'Settings for ProviderG (ProviderA family through a cloud project)',
    obj({ ...cloudProjectFields(), maxTokens: int('Maximum tokens to generate') }, { required: ['projectID', 'location'] }),
  ),
  providerH: field(
    'Settings for ProviderH (cloud-managed model service)',
    obj(
      {
        region: str('Cloud region'),
        additionalModelRequestFields: { description: 'Model-specific request options forwarded as-is', 'x-kubernetes-preserve-unknown-fields': true },
        promptCaching: bool('Append cache points to system content and tools', { default: false }),
        cacheTTL: str('Cache lifetime; matters only with promptCaching', { enum: ['5m', '1h'], default: '5m' }),
        guardrail: field(
          'Guardrail applied to requests',
          obj(
            {
              identifier: str('Guardrail ID or full ARN', { minLength: 1, maxLength: 2048 }),
              version: str('Numeric version or DRAFT', { minLength: 1, maxLength: 8 }),
              trace: str('Guardrail trace mode', { enum: ['disabled', 'enabled', 'enabled_full'], default: 'disabled' }),
            },
            { required: ['identifier', 'version'] },
          ),
        ),
        readTimeout: int('Read timeout in seconds (whole request on the go runtime)', { minimum: 1 }),
        connectTimeout: int('Connection set-up timeout in seconds', { minimum: 1 }),
      },
      { required: ['region'] },
    ),
  ),
  providerI: field(
    'Settings for ProviderI (enterprise AI service, OAuth2 client credentials)',
    obj(
      {
        baseUrl: str('Service base URL'),
        resourceGroup: str('Resource group', { default: 'default' }),
        authUrl: str('OAuth2 token endpoint URL'),
      },
      { required: ['baseUrl'] },
    ),
  ),
  providerJ: field(
    'Settings for ProviderJ (cloud AI foundry, addressed by deployment)',
    obj(
      {
        endpoint: str('Service endpoint'),
        endpointFrom: k8s('ConfigMapKeySelector', 'ConfigMap key holding the endpoint'),
        deployment: str('Deployment name'),
        apiVersion: str('API version', { default: '2024-10-21' }),
      },
      {
        required: ['deployment'],
        rules: [
          cel(
            'modelconfig-providerj-endpoint-exclusive',
            '!(has(self.endpoint) && has(self.endpointFrom))',
            'endpoint and endpointFrom are mutually exclusive',
            '.endpointFrom',
          ),
        ],
      },
    ),
  ),
};

const providerOf = "(has(self.provider) ? self.provider : 'ProviderB')";
const passthroughOn = '(has(self.apiKeyPassthrough) && self.apiKeyPassthrough)';
const tokenExchangeSet = '(has(self.providerB) && has(self.providerB.tokenExchange))';

export const ModelConfigSpec = obj(
  {
    model: str('Model name'),
    apiKeySecret: str('Secret in the same namespace holding the API key (client_id/client_secret for ProviderI)'),
    apiKeySecretKey: str('Key within apiKeySecret (not used for ProviderI)'),
    apiKeyPassthrough: bool("Forward the caller's Bearer token as API key; excludes apiKeySecret"),
    defaultHeaders: strMap('Headers sent with every provider request'),
    provider: str('Model provider', { enum: PROVIDERS, default: 'ProviderB' }),
    ...providerBlocks,
    tls: field('TLS for provider connections', TLSConfig('modelconfig')),
  },
  {
    required: ['model'],
    rules: [
      cel(
        'modelconfig-api-key-passthrough-excludes-secret',
        `!(${passthroughOn} && has(self.apiKeySecret))`,
        'apiKeyPassthrough and apiKeySecret are mutually exclusive',
        '.apiKeyPassthrough',
      ),
      cel(
        'modelconfig-token-exchange-requires-api-key-secret',
        `!${tokenExchangeSet} || (has(self.apiKeySecret) && self.apiKeySecret != '')`,
        'providerB.tokenExchange requires apiKeySecret (used as the service-account secret)',
        '.providerB.tokenExchange',
      ),
      cel(
        'modelconfig-token-exchange-excludes-passthrough',
        `!(${tokenExchangeSet} && ${passthroughOn})`,
        'providerB.tokenExchange and apiKeyPassthrough are mutually exclusive',
        '.providerB.tokenExchange',
      ),
      ...PROVIDERS.map((p) => {
        const key = `provider${p.slice(-1)}`;
        return cel(`modelconfig-provider-block-matches-provider/${key}`, `!has(self.${key}) || ${providerOf} == '${p}'`, `${key} is allowed only when provider is ${p}`, `.${key}`);
      }),
    ],
  },
);

const ModelConfigStatus = obj({
  conditions: Condition,
  observedGeneration: int('Generation last processed by the controller'),
  secretHash: str('Hash of the referenced secrets; changes roll dependent agents'),
});

// ---- ModelProviderConfig (2.13) ----

export const ModelProviderConfigSpec = obj(
  {
    type: str('Model provider', { enum: PROVIDERS }),
    endpoint: str('Provider endpoint; the provider default when absent', { pattern: '^https?://.*' }),
    secretRef: field(
      'Secret holding the API key; optional for providers without auth',
      obj({ name: str('Secret in the same namespace with exactly one data key') }, { required: ['name'] }),
    ),
  },
  {
    required: ['type'],
    rules: [
      // Section 2.13: only a provider without authentication (the local runtime) may go without it.
      cel(
        'modelproviderconfig-secret-ref-required-with-auth',
        "self.type == 'ProviderD' || (has(self.secretRef) && has(self.secretRef.name) && self.secretRef.name != '')",
        'secretRef with a Secret name is required for every provider type except ProviderD (the local runtime, which needs no authentication)',
        '.secretRef',
      ),
    ],
  },
);

const ModelProviderConfigStatus = obj({
  observedGeneration: int('Generation last processed by the controller'),
  conditions: Condition,
  discoveredModels: strList('Cached model IDs'),
  modelCount: int('Number of discovered models'),
  lastDiscoveryTime: str('Time of the last successful discovery', { format: 'date-time' }),
  secretHash: str('Hash of the referenced secret data'),
});

// ---- RemoteMCPServer (2.14) ----

export const RemoteMCPServerSpec = obj(
  {
    description: str('What the server offers'),
    protocol: str('Transport protocol', { enum: ['SSE', 'STREAMABLE_HTTP'], default: 'STREAMABLE_HTTP' }),
    url: str('Server URL', { minLength: 1 }),
    headersFrom: list('Header values from Secrets or ConfigMaps', ValueRef),
    timeout: str('Request timeout (duration)', { default: '30s' }),
    sseReadTimeout: str('SSE read timeout (duration)'),
    terminateOnClose: bool('Terminate the session when the connection closes', { default: true }),
    allowedNamespaces: field("Namespaces whose Agents may use this server; the same namespace when unset", AllowedNamespaces),
    tls: field('TLS for the upstream connection', TLSConfig('remotemcpserver')),
  },
  {
    required: ['description', 'url'],
    rules: [
      cel(
        'remotemcpserver-tls-forbidden-with-http-url',
        "!has(self.tls) || !has(self.url) || !self.url.matches('^[hH][tT][tT][pP]://')",
        'tls cannot be set for an http:// url; use https or drop tls',
        '.tls',
      ),
      cel(
        'remotemcpserver-cross-namespace-excludes-ca-secret',
        "!(has(self.allowedNamespaces) && has(self.allowedNamespaces.from) && self.allowedNamespaces.from in ['All', 'Selector'] && has(self.tls) && has(self.tls.caCertSecretRef) && self.tls.caCertSecretRef != '')",
        "allowedNamespaces All or Selector cannot be combined with tls.caCertSecretRef: the CA Secret is resolved in each consuming agent's namespace",
        '.allowedNamespaces.from',
      ),
    ],
  },
);

const RemoteMCPServerStatus = obj({
  observedGeneration: int('Generation last processed by the controller'),
  conditions: Condition,
  discoveredTools: list(
    'Tools the server offers',
    obj({ name: str('Tool name'), description: str('Tool description') }, { required: ['name', 'description'] }),
  ),
  secretHash: str('Hash of the TLS Secret; empty without caCertSecretRef'),
});

// ---- kinds ----

export interface KindModel {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  description: string;
  spec: Node;
  status: Node;
  columns: { name: string; type: string; jsonPath: string; description?: string }[];
}

const ready = { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status", description: 'Whether the object is ready' };
const accepted = { name: 'Accepted', type: 'string', jsonPath: ".status.conditions[?(@.type=='Accepted')].status", description: 'Whether the controller accepted the spec' };
const age = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export const KINDS: KindModel[] = [
  {
    kind: 'Agent',
    plural: 'agents',
    singular: 'agent',
    shortNames: [],
    description: 'An LLM agent: declarative (model, instructions, tools) or BYO (your A2A image).',
    spec: AgentSpec,
    status: AgentStatus,
    columns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type', description: 'Declarative or BYO' },
      { name: 'Runtime', type: 'string', jsonPath: '.spec.declarative.runtime', description: 'Built-in runtime' },
      ready,
      accepted,
    ],
  },
  {
    kind: 'SandboxAgent',
    plural: 'sandboxagents',
    singular: 'sandboxagent',
    shortNames: ['sba'],
    description: 'An agent that runs in an isolated sandbox on the sandbox substrate.',
    spec: SandboxAgentSpec,
    status: AgentStatus,
    columns: [{ name: 'Type', type: 'string', jsonPath: '.spec.type', description: 'Declarative or BYO' }, ready, accepted],
  },
  {
    kind: 'AgentHarness',
    plural: 'agentharnesses',
    singular: 'agentharness',
    shortNames: ['ahr'],
    description: 'A remote execution environment provisioned by a backend on the sandbox substrate.',
    spec: AgentHarnessSpec,
    status: AgentHarnessStatus,
    columns: [
      { name: 'Backend', type: 'string', jsonPath: '.spec.backend' },
      { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
      { name: 'ID', type: 'string', jsonPath: '.status.backendRef.id' },
      age,
    ],
  },
  {
    kind: 'ModelConfig',
    plural: 'modelconfigs',
    singular: 'modelconfig',
    shortNames: ['mc'],
    description: 'Connection and tuning settings for one model of one provider.',
    spec: ModelConfigSpec,
    status: ModelConfigStatus,
    columns: [
      { name: 'Provider', type: 'string', jsonPath: '.spec.provider' },
      { name: 'Model', type: 'string', jsonPath: '.spec.model' },
    ],
  },
  {
    kind: 'ModelProviderConfig',
    plural: 'modelproviderconfigs',
    singular: 'modelproviderconfig',
    shortNames: ['mprov'],
    description: 'A provider configuration whose available models are discovered automatically.',
    spec: ModelProviderConfigSpec,
    status: ModelProviderConfigStatus,
    columns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'Endpoint', type: 'string', jsonPath: '.spec.endpoint' },
      { name: 'Models', type: 'integer', jsonPath: '.status.modelCount' },
      { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
      age,
    ],
  },
  {
    kind: 'RemoteMCPServer',
    plural: 'remotemcpservers',
    singular: 'remotemcpserver',
    shortNames: ['rmcps'],
    description: 'A remote MCP tool server whose tools are discovered and offered to agents.',
    spec: RemoteMCPServerSpec,
    status: RemoteMCPServerStatus,
    columns: [
      { name: 'Protocol', type: 'string', jsonPath: '.spec.protocol' },
      { name: 'URL', type: 'string', jsonPath: '.spec.url' },
      { name: 'Accepted', type: 'string', jsonPath: ".status.conditions[?(@.type=='Accepted')].status" },
    ],
  },
];
