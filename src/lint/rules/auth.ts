// Controller authentication: each revision has its own word for the unauthenticated mode.
//   bad (A): controller.auth.mode: insecure   (revision A says "unsecure")
//   bad (B): controller.auth.mode: unsecure   (revision B says "insecure")

import type { ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { at } from '../../model/values-access.ts';
import { otherRevision, REVISIONS } from '../../chart/revisions.ts';


export const authRules: ValuesRule = {
  ids: [
    { id: 'values/auth-mode', description: 'controller.auth.mode accepts unsecure or trusted-proxy in revision A, insecure or trusted-proxy in revision B.' },
    { id: 'values/trusted-proxy', description: 'trusted-proxy mode needs a validating proxy in front of the controller and network isolation.' },
  ],
  check(ctx) {
    const mode = at(ctx.values, 'controller.auth.mode');
    const allowed = revisionModel(ctx.revision, ctx.values).controller.authModes;
    if (mode === undefined) return;
    if (typeof mode !== 'string' || !allowed.includes(mode)) {
      const other = otherRevision(ctx.revision);
      const otherWord = REVISIONS[other].authModes.includes(String(mode));
      ctx.report({
        rule: 'values/auth-mode',
        severity: 'error',
        path: 'controller.auth.mode',
        message: `\`controller.auth.mode\` must be ${allowed.map((m) => `"${m}"`).join(' or ')} in revision ${ctx.revision}, found ${JSON.stringify(mode)}`,
        hint: otherWord
          ? `"${String(mode)}" is revision ${other}'s word; revision ${ctx.revision} writes "${allowed[0]}"`
          : `use "${allowed[0]}" (no authentication in the controller) or "trusted-proxy"`,
        ...(otherWord ? { onlyInRevision: other } : {}),
      });
      return;
    }
    if (mode === 'trusted-proxy' && ctx.userSet('controller.auth.mode')) {
      ctx.report({
        rule: 'values/trusted-proxy',
        severity: 'info',
        path: 'controller.auth.mode',
        message: 'trusted-proxy mode trusts identity headers: put a validating proxy in front of the controller and isolate it on the network',
      });
    }
  },
};
