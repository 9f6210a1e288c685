// The plain `templateSet` member (src/precomputed.ts): templates/**/*.hbs compiled on first use.

import { packageFile } from '../package-root.ts';
import { compileTemplates, type TemplateSet } from './template-program.ts';
import { templateFiles } from './template-source.ts';

let set: TemplateSet | undefined;

export function plainTemplateSet(): TemplateSet {
  return (set ??= compileTemplates(templateFiles(packageFile('templates'))));
}
