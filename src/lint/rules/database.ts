// Where the controller's database comes from: urlFile, else url, else the bundled instance.
//   bad:  database.rdb: {url: "", urlFile: "", bundled: {enabled: false}}   (no database at all)
//   warn: database.rdb.url: postgres://app:pw@db/app   (in a values file: the password is kept in clear there)

import type { RuleContext, ValuesRule } from './types.ts';
import { optBool, optStr } from '../../model/values-access.ts';
import { databaseUrlSecret, envReferences, urlPassword, type PasswordForm } from '../../model/derive.ts';
import { releaseFacts } from '../../model/context.ts';

const PASSWORD_RULE = 'security/database-url-password';

const WHERE: Record<PasswordForm, string> = {
  userinfo: 'the user:password part of the URL',
  query: 'its password= parameter',
  keyword: 'its password= setting',
};

export const databaseRules: ValuesRule = {
  ids: [
    { id: 'values/database-source', description: 'The controller needs a database: database.rdb.urlFile, database.rdb.url or the bundled instance.' },
    { id: 'values/database-url-and-file', description: 'database.rdb.urlFile takes precedence over database.rdb.url; setting both leaves url unused.' },
    { id: 'values/bundled-database-skipped', description: 'The bundled database is not deployed when url or urlFile is set.' },
    {
      id: PASSWORD_RULE,
      description: 'database.rdb.url written in a values file carries the database password in clear: the chart keeps it out of the Deployment (in a Secret of the release), but the file and the repository that keeps it hold the password',
    },
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
    if (url && !file) passwordInUrl(ctx, url);
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

/**
 * database.rdb.url with a password written out. The render puts such a URL in a Secret, out of
 * the Deployment, so only the values file holds it in clear (reported when a file wrote it; a
 * --set takes it from wherever the pipeline keeps it). A URL with $(NAME) references stays in the
 * Deployment, where the kubelet expands them: then the password is readable there too, whoever wrote it.
 */
function passwordInUrl(ctx: RuleContext, url: string): void {
  const expands = envReferences(url).length > 0;
  const form = urlPassword(url, expands);
  if (!form) return;
  const hint =
    'keep the password out of the values: put the URL in a Secret of your own, mount it through controller.volumes and controller.volumeMounts, and set database.rdb.urlFile to the file in it instead of database.rdb.url (the chart has no key that names an existing Secret for the URL); change the password if the values were ever shared or committed';
  if (expands) {
    ctx.report({
      rule: PASSWORD_RULE,
      severity: 'warning',
      path: 'database.rdb.url',
      message: `database.rdb.url carries the database password in clear (${WHERE[form]}), and refers to other variables ($(${envReferences(url)[0]})), so it renders into the controller Deployment's environment as written, the only place the kubelet expands such references: whoever may read the Deployment reads the password`,
      hint: 'write the password as a $(NAME) reference too, NAME a key of a Secret of your own given in controller.envFrom, or use database.rdb.urlFile; change the password if the values were ever shared or committed',
    });
    return;
  }
  const secret = databaseUrlSecret(releaseFacts(ctx.values, ctx.revision, ctx.releaseName ?? 'agentplat', ctx.releaseNamespace ?? 'default').fullname).name;
  ctx.report({
    rule: PASSWORD_RULE,
    severity: 'warning',
    path: 'database.rdb.url',
    message: `database.rdb.url carries the database password in clear (${WHERE[form]}): the chart renders the URL into the Secret ${secret}, not into the Deployment, but this file holds the password for whoever reads it or the repository it is kept in`,
    hint,
    onlyInFile: true,
  });
}
