// Every command of the CLI, in the order `--help` lists them.
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

export const COMMANDS: ((program: Command, app: App) => void)[] = [render, template, diff, plan, lint, validate, crds, values, schema, docs, migrate, explain, completion, version];
