// The typed model of one chart revision: every fact in which the revisions differ, computed once
// from the merged values by that revision's adapter (model/revisions/a.ts, b.ts). Components,
// lint rules and the security surfaces read these fields; none of them asks which revision it is
// in. Facts that need the release (object names, the chart namespace) stay with the render
// context; the model holds what the values alone decide, so the linter builds the same model.

import type { Revision } from '../chart/revisions.ts';
import type { Json, JsonMap } from './values-access.ts';

/**
 * Where an image comes from and how pods pull it, for the chart's own pods and every sub-chart's:
 * the one place that writes the precedence of the values document (section 2.2).
 */
export interface ImagePolicy {
  /** The air-gap mirror that replaces every per-image registry ([B] `global.imageRegistry`); "" when none. */
  mirror: string;
  /** The mirror when set, else the image's own registry, else the fallbacks in order. */
  registry(own: string, ...fallbacks: string[]): string;
  /** A full image reference moved to the mirror (its registry part replaced); unchanged without one. */
  rehost(image: string): string;
  /** The image's own policy, else top-level `imagePullPolicy`, else [B] `global.imagePullPolicy`, else IfNotPresent. */
  pullPolicy(own?: string): string;
  /**
   * Pull secrets as `{name}`: the pod's own list (default: the top-level `imagePullSecrets`),
   * then every [B] `global.imagePullSecrets` entry not already there. Names or `{name}` maps.
   */
  pullSecrets(local?: readonly unknown[]): { name: string }[];
  /**
   * Pod annotations: the pod's fixed ones (checksums, default container), then the component's
   * own map when non-empty, else the top-level `podAnnotations` (replacement, never a merge).
   * A user key wins over a fixed one.
   */
  podAnnotations(fixed?: Record<string, string>, own?: JsonMap): Record<string, string>;
}

/** Roles and the controller's watch (values document 2.2: rbac.namespaces, [B] global.watchNamespaces). */
export interface ScopeModel {
  /** Namespaces that get a Role and RoleBinding (unique, in order written); empty: cluster-wide roles. */
  roleNamespaces: string[];
  /** The key the role namespaces come from (named in findings). */
  roleNamespacesFrom: 'rbac.namespaces' | 'global.watchNamespaces';
  /** [B] `global.watchNamespaces` as written; empty where the revision has no such key. */
  globalWatchNamespaces: string[];
  /** WATCH_NAMESPACES: controller.watchNamespaces when set (it wins), else the role namespaces. */
  watchNamespaces: string[];
  /** Severity of a watched namespace without a role: [B] its scope rule makes it an error. */
  watchOutsideRoles: 'error' | 'warning';
  /** Namespaces the sub-charts' cluster roles are limited to (sorted); empty: cluster-wide. */
  subchartRoleNamespaces: string[];
}

/** How the controller authenticates to the substrate API server. */
export type SubstrateAuth =
  | { kind: 'token'; tokenFile: string; audience: string; expirationSeconds: number; insecure: boolean }
  | { kind: 'pod-certificate' };

export interface SubstrateModel {
  /** The substrate API server account that resolves env sources. */
  apiServer: { namespace: string; serviceAccount: string };
  auth: SubstrateAuth;
  /** [A] `controller.substrate.substrateApiTokenFile` as written (checked by values/substrate-token-file); undefined where the revision has none. */
  userTokenFile?: string;
  /** The WorkerPool's image key and its spec fields, in the substrate CRD of the revision's era. */
  workerPool: {
    imageKey: 'ateomImage' | 'workerImage';
    spec(image: string, sandboxClass: string): Record<string, Json>;
  };
  /** [B] `substrate.credentialProvider.namespacePolicies`; undefined where the revision has none. */
  credentialPolicies?: Json[];
}

/** One telemetry signal the user can switch on, and the endpoints that can carry it (any one will do). */
export interface TelemetrySignal {
  enabledPath: string;
  endpointPaths: readonly string[];
}

export interface TelemetryModel {
  /** The controller's OTEL_* (and capture) settings. */
  env: Record<string, string>;
  signals: readonly TelemetrySignal[];
  /** Endpoint keys that must be http(s) URLs. */
  urlPaths: readonly string[];
  /** Switches that record prompts and responses. */
  capturePaths: readonly string[];
}

export interface UiModel {
  /** [B] `ui.basePath` as written; "" where the revision has none. */
  basePath: string;
  /** Whether the revision knows `ui.basePath` (values/base-path checks it). */
  hasBasePath: boolean;
  /** [B] the edge serves /config.json from the UI ConfigMap. */
  servesConfigJson: boolean;
  /** [B] the edge proxies /mcp to the controller. */
  proxiesMcp: boolean;
  /** [B] the edge clears identity headers on proxied paths unless listed. */
  stripsIdentityHeaders: boolean;
  /** [A] `ui.backendInternalUrl`; "" computes the controller service URL. */
  backendInternalUrl: string;
  /** [A] size of the Next.js cache volume; undefined where the revision has none. */
  nextjsCacheSize?: string;
}

export interface RevisionModel {
  revision: Revision;
  chartVersion: string;
  images: ImagePolicy;
  controller: {
    /** [B] `controller.serviceAccount.name`; "" uses `<fullname>-controller`. */
    serviceAccountName: string;
    /** [B] `controller.serviceAccount.create` (default true). */
    serviceAccountCreate: boolean;
    /** The auth modes the controller image of the revision accepts, the default first. */
    authModes: readonly string[];
    /** The environment contract of the controller image: the revision's parts of its ConfigMap, in order. */
    env: {
      /** A2A URLs and gRPC switches, given the controller Service URL. */
      a2a(serviceUrl: string): Record<string, string>;
      /** Images the controller puts on agent pods (the component tag wins there). */
      agentImages: Record<string, string>;
      /** Session retention of the database. */
      retention: Record<string, string>;
      /** Tool discovery refresh. */
      toolRefresh: Record<string, string>;
      /** Defaults of the pods the controller creates (bind host, agent defaults, sandboxes, sessions). */
      agentDefaults: Record<string, string>;
    };
  };
  telemetry: TelemetryModel;
  scope: ScopeModel;
  substrate: SubstrateModel;
  ui: UiModel;
  /** The bundled database pod's own scheduling and labels ([B] keys; empty in A). */
  database: { nodeSelector: JsonMap; tolerations: Json[]; affinity: JsonMap; podLabels: JsonMap };
  metrics: {
    /** [B] the chart can render a ServiceMonitor. */
    serviceMonitor: boolean;
    /** [B] the scraper account bound to the metrics reader; "" for none. */
    scraperServiceAccount: string;
  };
  /** [A] the ten bundled agent sub-charts. */
  bundledAgents: boolean;
}
