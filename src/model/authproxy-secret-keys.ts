// The three keys of the authentication proxy's Secret, shared by the sub-chart renderer and the
// lint rule that requires them; a module of its own so lint does not load the template engine.

/** The three keys of the proxy's Secret (inline values or `config.existingSecret`). */
export const AUTHPROXY_SECRET_KEYS = [
  { key: 'client-id', value: 'clientID', env: 'OAUTH2_PROXY_CLIENT_ID' },
  { key: 'client-secret', value: 'clientSecret', env: 'OAUTH2_PROXY_CLIENT_SECRET' },
  { key: 'cookie-secret', value: 'cookieSecret', env: 'OAUTH2_PROXY_COOKIE_SECRET' },
] as const;
