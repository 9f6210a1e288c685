// A note whenever the bundled database will be deployed (database.rdb.bundled.enabled with
// neither url nor urlFile set): it is for development and evaluation only, and its password is
// a fixed demo value the chart ships, not a secret.
//   note: database.rdb: {url: "", urlFile: "", bundled: {enabled: true}}   (the defaults)

import type { ValuesRule } from './types.ts';
import { optBool, optStr } from '../../model/values-access.ts';

const RULE = 'values/bundled-database';

export const bundledDatabaseRules: ValuesRule = {
  ids: [{ id: RULE, description: 'The bundled database is for development and evaluation only and uses a fixed demo password; production points database.rdb.url or urlFile at an external PostgreSQL.' }],
  check(ctx) {
    const url = optStr(ctx.values, 'database.rdb.url') ?? '';
    const file = optStr(ctx.values, 'database.rdb.urlFile') ?? '';
    if (optBool(ctx.values, 'database.rdb.bundled.enabled') !== true || url || file) return;
    // Only for the user's values: linting the bare defaults is a smoke check and stays quiet.
    if (!ctx.userSet([])) return;
    ctx.report({
      rule: RULE,
      severity: 'info',
      path: 'database.rdb.bundled.enabled',
      message: 'the bundled database will be deployed: it is for development and evaluation only, runs a single pod on one volume claim and uses a fixed demo password',
      hint: 'for production set database.rdb.url to your PostgreSQL connection string, or database.rdb.urlFile to a file holding it (mounted through controller.volumes and controller.volumeMounts); the bundled database is then not deployed',
    });
  },
};
