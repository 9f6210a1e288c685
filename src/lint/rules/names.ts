// Overrides that end up in object names and namespaces must be valid Kubernetes names: every
// object is named `<fullname>-<suffix>` and Services need DNS-1035 labels (a letter first).
//   bad:  fullnameOverride: ACME_platform      good: fullnameOverride: acme-platform

import type { ValuesRule } from './types.ts';
import { optStr } from '../../model/values-access.ts';
import { AGENT_AREAS } from '../../spec/revisions.ts';

const NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The chart and every sub-chart take Helm's two name overrides. */
const SUBCHARTS = ['mcpop', 'agentplat-tools', 'dashboards-mcp', 'authproxy', 'substrate', ...AGENT_AREAS.map((a) => `${a}-agent`)];
const NAME_KEYS = ['', ...SUBCHARTS].flatMap((k) => ['nameOverride', 'fullnameOverride'].map((n) => (k ? `${k}.${n}` : n)));
const NAMESPACE_KEYS = ['namespaceOverride', 'mcpop.namespaceOverride'];

export const nameRules: ValuesRule = {
  ids: [{ id: 'values/object-name', description: 'Name and namespace overrides must be valid Kubernetes names (lower-case letters, digits and "-"; names start with a letter)' }],
  check(ctx) {
    for (const [keys, re, what] of [
      [NAME_KEYS, NAME, 'lower-case letters, digits and "-", starting with a letter and ending with a letter or digit'],
      [NAMESPACE_KEYS, NAMESPACE, 'a namespace name: lower-case letters, digits and "-", at most 63 characters'],
    ] as const) {
      for (const key of keys) {
        const v = optStr(ctx.values, key);
        if (!v || (re.test(v) && v.length <= 63)) continue;
        ctx.report({
          rule: 'values/object-name',
          severity: 'error',
          path: key,
          message: `\`${key}\` ${JSON.stringify(v)} cannot be part of object names: it must be ${what}`,
          hint: `e.g. ${JSON.stringify(v.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+|-+$/g, '') || 'agentplat')}`,
        });
      }
    }
  },
};
