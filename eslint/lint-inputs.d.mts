/** The fingerprint of what the project's ESLint rules read besides the file they lint (lint-inputs.mjs). */
export function lintInputs(root: string): string;
