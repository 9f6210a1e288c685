// Every command of the CLI, in the order `--help` lists them.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { register as render } from './render.ts';
import { register as template } from './template.ts';
import { register as diff } from './diff.ts';
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

/**
 * Each command's name and the function that adds it to the program. The names are the words a
 * command line starts with: a run whose first word names a command registers only that one
 * (src/cli/program.ts; `complete`, which completion scripts call and which walks every command,
 * is no key, so it gets them all); a test requires each name to be what its function registers.
 */
export const COMMANDS: Readonly<Record<string, (program: Command, app: App) => void>> = { render, template, diff, lint, validate, crds, values, schema, docs, migrate, explain, completion, version };
