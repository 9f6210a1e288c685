// Where the controller's database comes from: urlFile, else url, else the bundled instance.
//   bad:  database.rdb: {url: "", urlFile: "", bundled: {enabled: false}}   (no database at all)

import type { ValuesRule } from './types.ts';
import { optBool, optStr } from '../../model/values-access.ts';

export const databaseRules: ValuesRule = {
  ids: [
    { id: 'values/database-source', description: 'The controller needs a database: database.rdb.urlFile, database.rdb.url or the bundled instance.' },
    { id: 'values/database-url-and-file', description: 'database.rdb.urlFile takes precedence over database.rdb.url; setting both leaves url unused.' },
    { id: 'values/bundled-database-skipped', description: 'The bundled database is not deployed when url or urlFile is set.' },
  ],
  check(ctx) {
    const url = optStr(ctx.values, 'database.rdb.url') ?? '';
    const file = optStr(ctx.values, 'database.rdb.urlFile') ?? '';
    const bundled = optBool(ctx.values, 'database.rdb.bundled.enabled') === true;
    if (!url && !file && !bundled) {
      ctx.report({
        rule: 'values/database-source',
        severity: 'error',
        path: 'database.rdb.bundled.enabled',
        message: 'no database is configured: database.rdb.url and urlFile are empty and the bundled database is disabled',
        hint: 'set database.rdb.url (or urlFile) to your PostgreSQL, or enable database.rdb.bundled for evaluation',
      });
    }
    if (url && file) {
      ctx.report({
        rule: 'values/database-url-and-file',
        severity: 'warning',
        path: 'database.rdb.url',
        message: '`database.rdb.urlFile` takes precedence: `database.rdb.url` is ignored',
        hint: 'remove one of the two',
      });
    }
    if ((url || file) && bundled && ctx.userSet('database.rdb.bundled.enabled')) {
      ctx.report({
        rule: 'values/bundled-database-skipped',
        severity: 'info',
        path: 'database.rdb.bundled.enabled',
        message: `the bundled database is not deployed because \`database.rdb.${file ? 'urlFile' : 'url'}\` is set`,
      });
    }
  },
};
