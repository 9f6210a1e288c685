// What each bundled agent of revision A is: its area, description, system message (written for
// this project), built-in prompt fragments, tools and A2A skills. Names use the spec's neutral
// area words; Kubernetes' own `k8s_*` tool names stay as the tools server serves them.

import type { AgentArea } from '../../chart/revisions.ts';
import { DASHBOARDS_MCP_TOOLS } from './dashboards-mcp.ts';

export type PromptKey = 'kubernetes-context' | 'tool-usage-best-practices' | 'safety-guardrails' | 'skills-usage' | 'a2a-communication';

export interface AgentSkillDef {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}

export interface BundledAgentDef {
  /** Spec area word; the values key and the Agent's name are `<area>-agent`. */
  area: AgentArea;
  description: string;
  /** Role and working method, written for this project (fragments are appended by `systemMessage`). */
  role: string;
  prompts: PromptKey[];
  /** Tool names served by the tools server. */
  tools: string[];
  /** Tool names served by the dashboards MCP server (observability only). */
  dashboardsTools?: readonly string[];
  /** Areas of bundled agents this agent delegates to, as Agent tools. */
  agentTools?: string[];
  skills: AgentSkillDef[];
}

export const BUNDLED_AGENTS: readonly BundledAgentDef[] = [
  {
    area: 'rollouts',
    description: 'Moves Deployments to progressive-delivery Rollouts and checks the rollouts controller.',
    role: `You help platform teams adopt progressive delivery. You turn Deployments into Rollouts, either by rewriting them or by creating a Rollout that references the existing Deployment, and you check that the rollouts controller is installed and healthy before proposing changes.

How you work:
- Read the current Deployment before writing anything; keep its labels, selectors and pod template intact.
- Explain the canary or blue-green strategy you chose and why, then show the full manifest.
- Apply changes only after the user agrees, and confirm the result by reading the objects back.`,
    prompts: ['safety-guardrails'],
    tools: ['rollouts_verify_controller_install', 'k8s_get_resources', 'k8s_get_resource_yaml', 'k8s_create_resource', 'k8s_delete_resource', 'k8s_apply_manifest', 'k8s_describe_resource'],
    skills: [
      {
        id: 'convert-deployment-to-rollout',
        name: 'Convert a Deployment to a Rollout',
        description: 'Rewrites a Deployment as a Rollout with a delivery strategy and returns the manifest.',
        tags: ['rollouts', 'deployment', 'conversion', 'progressive-delivery', 'canary', 'blue-green'],
        examples: ['Convert the checkout Deployment in shop to a canary Rollout.', 'Rewrite my api Deployment as a blue-green Rollout.'],
      },
      {
        id: 'create-rollout-referencing-deployment',
        name: 'Create a Rollout that references a Deployment',
        description: 'Creates a Rollout pointing at an existing Deployment and sets how the Deployment is scaled down.',
        tags: ['rollouts', 'deployment', 'workload-reference', 'progressive-delivery', 'scale-down'],
        examples: ['Create a Rollout that references the frontend Deployment and scales it down progressively.'],
      },
      {
        id: 'guide-rollout-migration',
        name: 'Guide a migration to Rollouts',
        description: 'Advises on strategy choice and migration order, and checks the rollouts controller.',
        tags: ['rollouts', 'migration', 'guidance', 'controller-check'],
        examples: ['Is the rollouts controller installed in this cluster?', 'Which strategy suits a stateful service?'],
      },
    ],
  },
  {
    area: 'network-debug',
    description: 'Deep diagnostics of the eBPF network layer: endpoints, identities, maps, packet capture, encryption.',
    role: `You diagnose problems in the cluster's eBPF-based network layer. You look at endpoints, security identities, datapath maps, the proxy configuration, the IP cache and encryption state, and you can record packets when evidence is needed.

How you work:
- Start from the symptom (which pod cannot reach what) and narrow down to the node and endpoint involved.
- Prefer read-only inspection; flushing state or changing endpoint configuration needs the user's explicit consent.
- Report findings with the evidence that supports them and the next check to run.`,
    prompts: ['kubernetes-context', 'safety-guardrails'],
    tools: [
      'network_manage_endpoint_config',
      'network_get_endpoint_health',
      'network_get_endpoint_logs',
      'network_list_identities',
      'network_get_identity_details',
      'network_request_debugging_information',
      'network_display_encryption_state',
      'network_flush_ipsec_state',
      'network_list_proxy_config',
      'network_fqdn_cache',
      'network_list_ip_addresses',
      'network_show_ip_cache_information',
      'network_list_bpf_map_events',
      'network_list_metrics',
      'network_list_cluster_nodes',
      'network_list_node_ids',
      'network_list_pcap_recorders',
      'network_get_pcap_recorder',
      'network_update_pcap_recorder',
      'network_delete_pcap_recorder',
    ],
    skills: [
      {
        id: 'network-datapath-debugging',
        name: 'Datapath debugging',
        description: 'Finds the cause of dropped or misrouted traffic using maps, endpoints and policy verdicts.',
        tags: ['network', 'debugging', 'bpf', 'endpoints', 'policies'],
        examples: ['Why can pod a in team-x not reach service b?', 'Show the health of endpoints on node worker-2.'],
      },
      {
        id: 'network-diagnostics-collection',
        name: 'Diagnostics collection',
        description: 'Collects the debugging information support needs for a network incident.',
        tags: ['network', 'diagnostics', 'troubleshooting'],
        examples: ['Collect debugging information for the network agent on worker-1.'],
      },
      {
        id: 'network-monitoring',
        name: 'Network monitoring and capture',
        description: 'Reads network metrics, records packets and checks encryption state.',
        tags: ['network', 'monitoring', 'metrics', 'pcap', 'encryption'],
        examples: ['Is traffic between nodes encrypted?', 'Record packets to port 5432 from the api pods.'],
      },
    ],
  },
  {
    area: 'network-manager',
    description: 'Installs, upgrades, configures and troubleshoots the eBPF network layer.',
    role: `You operate the cluster's eBPF-based network layer: installation and upgrades, feature toggles, multi-cluster connectivity, BGP, flow observability and service load balancing.

How you work:
- Check the current status and version before any change, and say what a change will disrupt.
- Change one setting at a time and verify it took effect.
- Requests to write network policies belong to the network-policy agent; say so and stop.`,
    prompts: ['kubernetes-context', 'safety-guardrails'],
    tools: [
      'network_install',
      'network_upgrade',
      'network_status_and_version',
      'network_get_daemon_status',
      'network_connect_to_remote_cluster',
      'network_toggle_cluster_mesh',
      'network_show_cluster_mesh_status',
      'network_show_features_status',
      'network_toggle_flow_observability',
      'network_list_bgp_peers',
      'network_list_bgp_routes',
      'network_get_endpoints_list',
      'network_get_endpoint_details',
      'network_show_configuration_options',
      'network_toggle_configuration_option',
      'network_list_services',
      'network_get_service_information',
      'network_update_service',
      'k8s_get_resources',
      'k8s_describe_resource',
    ],
    skills: [
      {
        id: 'install-configure-network',
        name: 'Install and configure the network layer',
        description: 'Installs, upgrades and configures the network layer and its features.',
        tags: ['network', 'installation', 'configuration', 'upgrade'],
        examples: ['Upgrade the network layer to the next minor version.', 'Which features are enabled right now?'],
      },
      {
        id: 'manage-multi-cluster-network',
        name: 'Manage multi-cluster connectivity',
        description: 'Connects clusters, checks mesh status and inspects BGP peers and routes.',
        tags: ['network', 'multi-cluster', 'bgp', 'connectivity'],
        examples: ['Connect this cluster to the cluster in eu-west.', 'List the BGP peers and their state.'],
      },
      {
        id: 'troubleshoot-network',
        name: 'Troubleshoot the network layer',
        description: 'Diagnoses connectivity, performance and configuration problems.',
        tags: ['network', 'troubleshooting', 'connectivity'],
        examples: ['The network agent on worker-3 is not ready; why?'],
      },
      {
        id: 'configure-flow-observability',
        name: 'Configure flow observability',
        description: 'Enables and uses network flow observability.',
        tags: ['network', 'observability', 'flows'],
        examples: ['Turn on flow observability for the cluster.'],
      },
    ],
  },
  {
    area: 'network-policy',
    description: 'Writes namespaced and cluster-wide network policies from plain-language requests.',
    role: `You write network policies for the cluster's eBPF network layer from plain-language requests: namespaced policies and cluster-wide or host policies, at layers 3, 4 and 7.

How you work:
- Ask for the source, destination, ports and direction when the request leaves them open.
- Produce one complete manifest, explain each rule in a sentence, and validate it before offering to apply it.
- Choose a namespaced policy unless the request really spans namespaces or nodes.`,
    prompts: ['safety-guardrails'],
    tools: ['network_display_policy_node_information', 'network_validate_network_policies'],
    skills: [
      {
        id: 'create-network-policy',
        name: 'Create a namespaced network policy',
        description: 'Writes a namespaced policy for ingress and egress at layers 3 to 7.',
        tags: ['network', 'policy', 'namespaced', 'security', 'ingress', 'egress'],
        examples: ['Allow only the frontend pods to call the api on port 8080.', 'Deny all egress from the batch namespace except DNS.'],
      },
      {
        id: 'create-clusterwide-network-policy',
        name: 'Create a cluster-wide network policy',
        description: 'Writes a cluster-wide or host policy selected by node or namespace labels.',
        tags: ['network', 'policy', 'cluster-wide', 'host-policy', 'security'],
        examples: ['Block SSH to all nodes except from the bastion subnet.'],
      },
      {
        id: 'guide-network-policy-type',
        name: 'Choose a policy type',
        description: 'Explains which kind of policy fits a request and flags requests outside policy writing.',
        tags: ['network', 'policy', 'guidance'],
        examples: ['Should this rule be namespaced or cluster-wide?'],
      },
    ],
  },
  {
    area: 'package-manager',
    description: 'Manages chart releases and repositories and troubleshoots failing releases.',
    role: `You manage application packages (chart releases) in the cluster: listing and inspecting releases, installing, upgrading and uninstalling them, and keeping chart repositories current.

How you work:
- Inspect a release (status, values, history) before changing it.
- State what an upgrade or uninstall will change and wait for confirmation.
- When a release fails, look at its resources and events and explain the cause before proposing a fix.`,
    prompts: ['kubernetes-context', 'tool-usage-best-practices', 'safety-guardrails'],
    tools: ['package_list_releases', 'package_get_release', 'package_upgrade', 'package_uninstall', 'package_repo_add', 'package_repo_update', 'k8s_get_resources', 'k8s_get_available_api_resources', 'k8s_apply_manifest'],
    skills: [
      {
        id: 'package-release-management',
        name: 'Release management',
        description: 'Lists, inspects, installs, upgrades, rolls back and uninstalls releases.',
        tags: ['package', 'release', 'install', 'upgrade', 'rollback', 'uninstall'],
        examples: ['List the releases in monitoring.', 'Upgrade the ingress release to the latest chart.'],
      },
      {
        id: 'package-repository-operations',
        name: 'Repository and chart operations',
        description: 'Adds and updates chart repositories and reads chart information.',
        tags: ['package', 'chart', 'repository'],
        examples: ['Add the repository at https://charts.example.com as example.'],
      },
      {
        id: 'package-release-troubleshooting',
        name: 'Release troubleshooting',
        description: 'Diagnoses failed or stuck releases and proposes fixes.',
        tags: ['package', 'release', 'troubleshooting'],
        examples: ['Why is my release stuck in pending-upgrade?'],
      },
    ],
  },
  {
    area: 'service-mesh',
    description: 'Installs and operates the service mesh: waypoints, traffic, security and troubleshooting.',
    role: `You install and operate the cluster's service mesh: its node proxies and waypoints, traffic routing, mutual TLS and authorization, and diagnosis of mesh problems.

How you work:
- Check the mesh version and proxy status before changing configuration.
- Analyse the configuration for conflicts before and after a change.
- Explain routing and security rules in plain words next to each manifest you propose.`,
    prompts: ['kubernetes-context', 'safety-guardrails'],
    tools: [
      'k8s_create_resource',
      'k8s_create_resource_from_url',
      'k8s_delete_resource',
      'k8s_describe_resource',
      'k8s_get_resources',
      'k8s_patch_resource',
      'k8s_generate_resource',
      'mesh_node_proxy_config',
      'mesh_waypoint_status',
      'mesh_list_waypoints',
      'mesh_generate_waypoint',
      'mesh_delete_waypoint',
      'mesh_apply_waypoint',
      'mesh_remote_clusters',
      'mesh_proxy_status',
      'mesh_generate_manifest',
      'mesh_install',
      'mesh_analyze_cluster_configuration',
      'mesh_proxy_config',
      'mesh_version',
    ],
    skills: [
      {
        id: 'mesh-configuration',
        name: 'Mesh configuration',
        description: 'Installs and upgrades the mesh, manages waypoints and proxies, analyses configuration.',
        tags: ['service-mesh', 'configuration', 'install', 'waypoint', 'proxy'],
        examples: ['Install the mesh in ambient mode.', 'Add a waypoint for the payments namespace.'],
      },
      {
        id: 'mesh-traffic-management',
        name: 'Traffic management',
        description: 'Writes routing rules, gateways and canary splits.',
        tags: ['service-mesh', 'traffic', 'routing', 'canary'],
        examples: ['Send 10% of traffic for reviews to v2.'],
      },
      {
        id: 'mesh-security-policies',
        name: 'Security policies',
        description: 'Configures mutual TLS, authorization and request authentication.',
        tags: ['service-mesh', 'security', 'mtls', 'authorization'],
        examples: ['Require mutual TLS in the finance namespace.'],
      },
      {
        id: 'mesh-troubleshooting',
        name: 'Mesh troubleshooting',
        description: 'Diagnoses mesh issues from proxy status, configuration and telemetry.',
        tags: ['service-mesh', 'troubleshooting', 'telemetry'],
        examples: ['Why do requests from web to api get 503s?'],
      },
    ],
  },
  {
    area: 'cluster',
    description: 'General cluster operations and troubleshooting with the full set of core-resource tools.',
    role: `You are a general Kubernetes operations agent. You investigate cluster problems, manage resources and review security settings using the core Kubernetes tools.

How you work:
- Gather facts first: resources, events, logs and configuration, narrowing from cluster to namespace to object.
- Explain what you found and why it explains the symptom before changing anything.
- Make the smallest change that fixes the problem, with the user's consent, and verify it.`,
    prompts: ['kubernetes-context', 'tool-usage-best-practices', 'safety-guardrails'],
    tools: [
      'k8s_check_service_connectivity',
      'k8s_patch_resource',
      'k8s_remove_annotation',
      'k8s_annotate_resource',
      'k8s_remove_label',
      'k8s_label_resource',
      'k8s_create_resource',
      'k8s_create_resource_from_url',
      'k8s_get_events',
      'k8s_get_available_api_resources',
      'k8s_get_cluster_configuration',
      'k8s_describe_resource',
      'k8s_delete_resource',
      'k8s_get_resource_yaml',
      'k8s_execute_command',
      'k8s_apply_manifest',
      'k8s_get_resources',
      'k8s_get_pod_logs',
    ],
    skills: [
      {
        id: 'cluster-diagnostics',
        name: 'Cluster diagnostics',
        description: 'Finds the cause of failing workloads, nodes or services.',
        tags: ['cluster', 'diagnostics'],
        examples: ['Why is the api pod in CrashLoopBackOff?', 'Which nodes are under memory pressure?'],
      },
      {
        id: 'resource-management',
        name: 'Resource management',
        description: 'Creates, changes and tunes cluster resources.',
        tags: ['resource', 'management'],
        examples: ['Scale the worker Deployment to 5 replicas.', 'Label all nodes in zone b with tier=batch.'],
      },
      {
        id: 'security-audit',
        name: 'Security audit',
        description: 'Reviews security settings of workloads and suggests hardening.',
        tags: ['security', 'audit'],
        examples: ['Which pods in prod run as root?'],
      },
    ],
  },
  {
    area: 'gateway',
    description: 'Installs and configures the API gateway based on the Gateway API and debugs its routes.',
    role: `You install and operate the cluster's API gateway, built on the Gateway API: installation and upgrades through the package manager, Gateway and HTTPRoute configuration, and debugging of routes.

How you work:
- Check which gateway version and Gateway API resources exist before proposing configuration.
- Write complete Gateway and route manifests and explain how traffic will flow through them.
- When a route misbehaves, read the route status, gateway logs and backend services before concluding.`,
    prompts: ['safety-guardrails'],
    tools: [
      'k8s_check_service_connectivity',
      'k8s_patch_resource',
      'k8s_create_resource',
      'k8s_create_resource_from_url',
      'k8s_delete_resource',
      'k8s_get_resource_yaml',
      'k8s_apply_manifest',
      'k8s_get_resources',
      'k8s_get_pod_logs',
      'package_list_releases',
      'package_get_release',
      'package_upgrade',
      'package_uninstall',
      'package_repo_add',
      'package_repo_update',
    ],
    skills: [
      {
        id: 'gateway-installation-management',
        name: 'Gateway installation and management',
        description: 'Installs and upgrades the gateway and its resource definitions, and verifies the install.',
        tags: ['gateway', 'install', 'upgrade', 'package'],
        examples: ['Install the gateway in the gateway-system namespace.'],
      },
      {
        id: 'gateway-api-configuration',
        name: 'Gateway API configuration',
        description: 'Writes and applies Gateway and HTTPRoute resources.',
        tags: ['gateway', 'gateway-api', 'httproute', 'configuration'],
        examples: ['Route /api to the api service and / to the web service on shop.example.com.'],
      },
      {
        id: 'gateway-troubleshooting',
        name: 'Gateway troubleshooting',
        description: 'Debugs routes from their status, gateway logs and backends.',
        tags: ['gateway', 'troubleshooting', 'logs'],
        examples: ['Why does my HTTPRoute return 404?'],
      },
    ],
  },
  {
    area: 'observability',
    description: 'Metrics, alerting and dashboards work against the dashboards server, correlated with cluster state.',
    role: `You help teams observe their workloads: you design alerts, build and update dashboards on the dashboards server, and correlate what metrics show with the state of the cluster. Metric queries are written by the query-language agent; ask it whenever a query is needed.

How you work:
- Find the relevant data source and existing dashboards before creating new ones.
- Keep dashboards small and named after the question they answer.
- Tie every observation to the cluster objects it concerns.`,
    prompts: ['kubernetes-context', 'tool-usage-best-practices'],
    tools: ['k8s_get_resources', 'k8s_get_available_api_resources'],
    dashboardsTools: DASHBOARDS_MCP_TOOLS,
    agentTools: ['query-language'],
    skills: [
      {
        id: 'metrics-monitoring-querying',
        name: 'Metrics monitoring and querying',
        description: 'Plans monitoring, obtains queries from the query-language agent and designs alerts.',
        tags: ['metrics', 'monitoring', 'alerting', 'query'],
        examples: ['Alert me when the api error rate exceeds 2% for 5 minutes.'],
      },
      {
        id: 'dashboard-management',
        name: 'Dashboard management',
        description: 'Finds, creates and updates dashboards.',
        tags: ['dashboard', 'visualization', 'create-dashboard', 'update-dashboard'],
        examples: ['Build a dashboard for the checkout service latency.', 'Find dashboards about the database.'],
      },
      {
        id: 'kubernetes-observability-insights',
        name: 'Kubernetes observability insights',
        description: 'Correlates cluster state with metrics and dashboards.',
        tags: ['kubernetes', 'observability', 'insights', 'performance'],
        examples: ['Which Deployments are close to their memory limits?'],
      },
    ],
  },
  {
    area: 'query-language',
    description: 'Writes, explains and optimises metrics queries from plain-language requests.',
    role: `You write metric queries in the cluster's metrics query language from plain-language requests, and you explain, debug and optimise existing queries.

How you work:
- Ask which metric names and labels exist when the request does not say.
- Return the query, a one-paragraph explanation, and an alternative when a trade-off exists.
- Prefer rates over raw counters and aggregate before you divide.`,
    prompts: ['tool-usage-best-practices'],
    tools: [],
    skills: [
      {
        id: 'generate-metrics-query',
        name: 'Generate a metrics query',
        description: 'Turns a plain-language request into a query with an explanation.',
        tags: ['metrics', 'query-generation', 'monitoring'],
        examples: ['Requests per second per pod for the api service.', '95th percentile latency of checkout over 5 minutes.'],
      },
      {
        id: 'explain-debug-metrics-query',
        name: 'Explain or debug a query',
        description: 'Explains, fixes or refines an existing query.',
        tags: ['metrics', 'explain-query', 'debug-query', 'optimization'],
        examples: ['Why does this query return no data?'],
      },
      {
        id: 'metrics-query-concepts',
        name: 'Query language concepts',
        description: 'Teaches the data model, functions and common patterns.',
        tags: ['metrics', 'concepts', 'best-practices'],
        examples: ['When should I use rate instead of irate?'],
      },
    ],
  },
];

/** The system message: the role text, then one include per built-in prompt fragment. */
export function systemMessage(def: BundledAgentDef): string {
  const includes = def.prompts.map((k) => `{{include "builtin/${k}"}}`).join('\n\n');
  return `${def.role}\n\n${includes}\n`;
}
