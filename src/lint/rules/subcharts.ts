// Rules of the sub-chart values: what a sub-chart needs before it can render, since the tool
// never invents a secret or an image. Messages name keys, never their values (secrets).

import type { ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { at, optStr } from '../../model/values-access.ts';
import { authproxyPlan } from '../../model/authproxy-plan.ts';
import { isPlainMap } from '../../values/merge.ts';
import { tokenFileParts } from '../../model/derive.ts';

const SECRET_RULE = 'values/authproxy-secret';
const COOKIE_RULE = 'values/authproxy-cookie-secret';
const WORKER_IMAGE_RULE = 'values/substrate-worker-image';
const TOKEN_FILE_RULE = 'values/substrate-token-file';

/** The proxy accepts a cookie secret of 16, 24 or 32 bytes, written raw or base64-encoded. */
export function cookieSecretUsable(secret: string): boolean {
  const ok = (n: number) => n === 16 || n === 24 || n === 32;
  if (ok(Buffer.byteLength(secret, 'utf8'))) return true;
  const b64 = secret.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  return ok(Buffer.from(b64, 'base64').length);
}

export const subchartRules: ValuesRule = {
  ids: [
    { id: SECRET_RULE, description: 'The authentication proxy needs a client id, client secret and cookie secret, inline or from config.existingSecret' },
    { id: COOKIE_RULE, description: 'The authentication proxy cookie secret must be 16, 24 or 32 bytes (raw or base64)' },
    { id: WORKER_IMAGE_RULE, description: 'A worker pool created by the chart needs its worker image' },
    { id: TOKEN_FILE_RULE, description: 'controller.substrate.substrateApiTokenFile is an absolute path to a file in a folder of its own (revision A)' },
  ],
  check(ctx) {
    const v = ctx.values;
    const proxy = at(v, 'authproxy');
    const plan = at(v, 'authproxy.enabled') === true && isPlainMap(proxy) ? authproxyPlan(proxy) : undefined;
    // Only the credentials the chart's own Secret carries and the proxy reads (config.requiredSecretKeys).
    if (plan?.credentials.render) {
      // Only unset or empty values are missing; a value of the wrong type is the schema's finding.
      const missing = plan.credentials.envKeys.map((k) => `authproxy.config.${k.value}`).filter((p) => {
        const value = at(v, p);
        return value === undefined || value === null || value === '';
      });
      if (missing.length > 0) {
        ctx.report({
          rule: SECRET_RULE,
          severity: 'error',
          path: missing[0]!,
          message: `the authentication proxy is enabled but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} empty; secrets are never generated`,
          hint: 'set authproxy.config.clientID, clientSecret and cookieSecret (for example from your OIDC provider and `openssl rand -base64 32 | head -c 32`), or name a Secret with keys client-id, client-secret and cookie-secret in authproxy.config.existingSecret',
        });
      }
      const cookie = optStr(v, 'authproxy.config.cookieSecret');
      if (cookie && !cookieSecretUsable(cookie)) {
        ctx.report({
          rule: COOKIE_RULE,
          severity: 'error',
          path: 'authproxy.config.cookieSecret',
          message: 'authproxy.config.cookieSecret must be 16, 24 or 32 bytes long, or the base64 encoding of such a value',
          hint: 'generate one with `openssl rand -base64 32 | head -c 32`',
        });
      }
    }
    const tokenFile = at(v, 'controller.substrate.enabled') === true ? revisionModel(ctx.revision, ctx.values).substrate.userTokenFile : undefined;
    // An empty path means the default (src/render/components/controller.ts).
    const tokenParts = tokenFile ? tokenFileParts(tokenFile) : undefined;
    if (tokenParts && !tokenParts.ok) {
      ctx.report({
        rule: TOKEN_FILE_RULE,
        severity: 'error',
        path: 'controller.substrate.substrateApiTokenFile',
        // The controller reads the token from this file; the chart mounts the token volume at its folder.
        message: `controller.substrate.substrateApiTokenFile ${tokenParts.problem}`,
        hint: tokenParts.hint,
      });
    }
    if (at(v, 'controller.substrate.enabled') === true && at(v, 'substrateWorkerPool.create') === true) {
      const key = revisionModel(ctx.revision, ctx.values).substrate.workerPool.imageKey;
      if (!optStr(v, `substrateWorkerPool.${key}`)) {
        ctx.report({
          rule: WORKER_IMAGE_RULE,
          severity: 'error',
          path: `substrateWorkerPool.${key}`,
          message: `substrateWorkerPool.${key} is required when substrateWorkerPool.create is true`,
          hint: `set substrateWorkerPool.${key} to the substrate worker image (a pinned tag or digest), or set substrateWorkerPool.create to false to use an existing pool`,
        });
      }
    }
  },
};
