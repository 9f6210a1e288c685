// The authentication proxy's sign-in page (mounted from `<fullname>-authproxy-templates`) and its
// checksum. The values-template includes that name them are in tpl.ts's table, so lint evaluates
// the default `authproxy.extraEnv` as render does without loading the renderer.

import { sha256Hex } from './checksum.ts';

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
export const signInChecksum = (): string => (signInSum ??= sha256Hex(SIGN_IN_HTML));
// A constant's digest, computed once (lint's values/no-effect renders the proxy once per key it reads).
let signInSum: string | undefined;
