// The authentication proxy's sign-in page (mounted from `<fullname>-authproxy-templates`), its
// checksum, and the two values-template includes that name them. Registering them here, not in
// a component, lets lint evaluate the default `authproxy.extraEnv` without loading the renderer:
// import this module wherever those includes must resolve (render and lint).

import { sha256Hex } from './checksum.ts';
import { dnsTrunc } from './context.ts';
import { registerTplInclude } from './tpl.ts';

/** The sign-in page the authentication proxy serves: an immediate redirect to /login. */
export const SIGN_IN_HTML = [
  '<!DOCTYPE html>',
  '<html>',
  '<head>',
  '<meta charset="utf-8">',
  '<meta http-equiv="refresh" content="0; url=/login">',
  '<title>Signing in</title>',
  '<script>window.location.replace("/login");</script>',
  '</head>',
  '<body>Redirecting to the sign-in page…</body>',
  '</html>',
  '',
].join('\n');

/** sha256 of the sign-in template, so the proxy restarts when it changes (values: authproxy.extraEnv). */
export const signInChecksum = (): string => sha256Hex(SIGN_IN_HTML);

registerTplInclude('agentplat.authproxy.signInChecksum', () => signInChecksum());
registerTplInclude('agentplat.authproxy.templatesName', (s) => dnsTrunc(`${s.fullname}-authproxy-templates`));
