// Tests that drive a real tool from the distribution's packages or the cluster suite's cache
// (podman, Neovim, helm, kubectl) run where it is. Where it is missing, a developer's run skips
// them with a line saying what is missing and how to get it; CI sets AGENTPLAT_REQUIRE_TOOLS=1
// (.ci/run installs or builds every one of them first), and there a missing tool fails the file
// instead, so a green CI never hides a test that did not run.
export const TOOLS_REQUIRED = process.env.AGENTPLAT_REQUIRE_TOOLS === '1';

/**
 * Says that `what` cannot run here and why: throws under AGENTPLAT_REQUIRE_TOOLS=1, else prints
 * the reason on stderr and returns true (the caller skips).
 */
export function toolMissing(what: string, why: string): true {
  const line = `${what}: ${why}`;
  if (TOOLS_REQUIRED) throw new Error(`${line} (AGENTPLAT_REQUIRE_TOOLS=1: every tool must be there)`);
  console.warn(`skipped: ${line}`);
  return true;
}
