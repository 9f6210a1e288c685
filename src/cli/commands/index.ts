// Every command of the CLI, in the order `--help` lists them, with the names each registers.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { register as render } from './render.ts';
import { register as template } from './template.ts';
import { register as diff } from './diff.ts';
import { register as plan } from './plan.ts';
import { register as lint } from './lint.ts';
import { register as validate } from './validate.ts';
import { register as crds } from './crds.ts';
import { register as values } from './values.ts';
import { register as schema } from './schema.ts';
import { register as docs } from './docs.ts';
import { register as migrate } from './migrate.ts';
import { register as version } from './version.ts';
import { register as explain } from './explain.ts';
import { register as completion } from './completion.ts';
import { register as lsp } from './lsp.ts';

export interface CommandEntry {
  /** The command names the entry registers (the first word of a command line that runs it). */
  names: readonly string[];
  register: (program: Command, app: App) => void;
  /** The command reads the whole program (shell completion walks every command and option). */
  needsAll?: true;
}

export const COMMANDS: readonly CommandEntry[] = [
  { names: ['render'], register: render },
  { names: ['template'], register: template },
  { names: ['diff'], register: diff },
  { names: ['plan'], register: plan },
  { names: ['lint'], register: lint },
  { names: ['validate'], register: validate },
  { names: ['crds'], register: crds },
  { names: ['values'], register: values },
  { names: ['schema'], register: schema },
  { names: ['docs'], register: docs },
  { names: ['migrate'], register: migrate },
  { names: ['explain'], register: explain },
  { names: ['completion', 'complete'], register: completion, needsAll: true },
  { names: ['version'], register: version },
  { names: ['lsp'], register: lsp },
];
