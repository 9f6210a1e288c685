// Every cross-field values rule, in the order they run.
import type { ValuesRule } from './types.ts';
import { authRules } from './auth.ts';
import { databaseRules } from './database.ts';
import { bundledDatabaseRules } from './bundled-database.ts';
import { deprecationRules } from './deprecations.ts';
import { metricsRules } from './metrics.ts';
import { metadataRules, nameRules } from './names.ts';
import { pdbRules } from './pdb.ts';
import { probeRules } from './probes.ts';
import { providerRules } from './providers.ts';
import { scopeRules } from './scope.ts';
import { subchartRules } from './subcharts.ts';
import { subchartSurfaceRules } from './subchart-surface.ts';
import { authproxyRules } from './authproxy.ts';
import { telemetryRules } from './telemetry.ts';
import { uiRules } from './ui.ts';
import { templatedValuesRules } from './templated-values.ts';
import { securityRules } from './security.ts';
import { exposureRules } from './exposure.ts';
import { imageRules } from './images.ts';
import { substrateProjectionRules } from './substrate-projections.ts';

export const RULES: readonly ValuesRule[] = [
  scopeRules,
  nameRules,
  metadataRules,
  authRules,
  pdbRules,
  substrateProjectionRules,
  metricsRules,
  uiRules,
  probeRules,
  databaseRules,
  bundledDatabaseRules,
  providerRules,
  telemetryRules,
  deprecationRules,
  subchartRules,
  subchartSurfaceRules,
  authproxyRules,
  templatedValuesRules,
  securityRules,
  exposureRules,
  imageRules,
];

const OWNED_KEYS: ReadonlySet<string> = new Set(['controller.auth.mode', 'rbac.clusterScoped']);
/** A provider block's config and tls: the ModelConfig CRD judges them (values/provider-modelconfig). */
const OWNED_SUBTREE = /^providers\.provider[A-J]\.(config|tls)(\.|\[|$)/;

/** Values paths whose schema errors a rule reports better (the schema's finding is dropped). */
export const ruleOwnsPath = (path: string): boolean => OWNED_KEYS.has(path) || OWNED_SUBTREE.test(path);
