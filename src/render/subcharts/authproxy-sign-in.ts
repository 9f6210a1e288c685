// The proxy's sign-in page. The proxy shows it whenever a browser needs to authenticate; ours
// sends the browser straight on to the UI's own /login page (which the proxy lets through
// without authentication), so users see one login screen, the UI's.
// The text is plain HTML (the proxy reads it as a Go template, so it must contain no `{{`).

import { createHash } from 'node:crypto';
import { registerTplInclude } from '../tpl.ts';

export const SIGN_IN_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=/login">
<title>Sign in</title>
</head>
<body>
<p>Opening the sign-in page. If nothing happens, <a href="/login">continue here</a>.</p>
<script>window.location.replace('/login');</script>
</body>
</html>
`;

/** sha256 of the sign-in template: the pods roll when the page changes (SIGNIN_TEMPLATE_CHECKSUM). */
export function signInChecksum(): string {
  return createHash('sha256').update(SIGN_IN_TEMPLATE).digest('hex');
}

/** The include the default `authproxy.extraEnv` uses for SIGNIN_TEMPLATE_CHECKSUM (render and lint both load this module). */
export const SIGN_IN_CHECKSUM_INCLUDE = 'agentplat.authproxy.signInChecksum';
registerTplInclude(SIGN_IN_CHECKSUM_INCLUDE, () => signInChecksum());
