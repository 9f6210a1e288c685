// The authentication proxy's sign-in page (mounted from `<fullname>-authproxy-templates`) and
// its checksum. Kept apart from the components so the values template evaluator can offer
// `include "agentplat.authproxy.signInChecksum" .` at lint time without loading the renderer.

import { createHash } from 'node:crypto';

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
export const signInChecksum = (): string => createHash('sha256').update(SIGN_IN_HTML).digest('hex');
