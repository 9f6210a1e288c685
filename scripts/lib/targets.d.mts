// The shape of scripts/lib/targets.mjs that test/exe/arm64.test.ts reads.
export interface Target {
  name: string;
  error?: string;
  hint?: string;
  native?: boolean;
  platform?: string;
  arch?: string;
}
export const HOST: string;
export function target(name: string): Target;
export function buildable(): string[];
export function launcher(t: Target): { argv: string[]; missing?: undefined; hint?: undefined } | { argv?: undefined; missing: string; hint: string };
export function qemuPackages(t: Target): string;
export function stripFor(t: Target): string | undefined;
