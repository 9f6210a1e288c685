// The tool's version: built into the bundle; read from package.json when running from source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

declare const __AGENTPLAT_VERSION__: string | undefined;

let sourceVersion: string | undefined;

/** The bundle has the version built in; a run from source (tests) reads package.json, so both agree. */
export function packageVersion(): string {
  if (typeof __AGENTPLAT_VERSION__ === 'string') return __AGENTPLAT_VERSION__;
  if (sourceVersion === undefined) {
    try {
      sourceVersion = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      sourceVersion = '0.0.0-dev';
    }
  }
  return sourceVersion;
}
