// Module resolution hooks (node:module register): each specifier a run resolves and the URL it
// resolves to, one line each, appended to the log file register.mjs passes in.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (log) appendFileSync(log, `${specifier} ${result.url}\n`);
  return result;
}
