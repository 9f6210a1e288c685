// The problems a render reports itself, once lint has passed: what only rendering finds out.
// They are errors that stop the render (nothing is printed), so `--rule` does not take them; the
// docs/rules.md's rule table lists them next to the linter's catalog (lint/config.ts, ruleCatalog).

export const RENDER_RULES = {
  'render/values': 'The chart renders with the values: a value the linter lets through but a template refuses stops the render',
  'render/duplicate-object': 'No two rendered objects share kind, namespace and name (names cut to 63 characters can meet)',
  'render/object-name': 'Every rendered name and namespace is one the API server accepts',
} as const;

export type RenderRuleId = keyof typeof RENDER_RULES;
