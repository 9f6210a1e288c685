// Which values must never be echoed in a message: keys that name secrets, tokens, passwords or keys.
export function isSecretKey(key: unknown): boolean {
  return typeof key === 'string' && /(secret|token|password|passwd|apikey|api_key|(^|[a-z])key$|Key$)/i.test(key) && !/^(apiKeySecretRef|apiKeySecretKey|existingSecret|secretRef|caCertSecretRef|caCertSecretKey)$/.test(key);
}
