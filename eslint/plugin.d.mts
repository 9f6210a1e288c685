// The shape of eslint/plugin.mjs that test/eslint-rules.test.ts reads.
declare const plugin: { meta: { name: string }; rules: Record<string, unknown>; processors: Record<string, unknown> };
export default plugin;
