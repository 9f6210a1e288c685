// The project's LICENSE is the standard Apache-2.0 text that package.json declares, and ships in
// the pack; CHANGELOG.md keeps the Keep a Changelog layout and names every command the CLI has.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runBin } from '../cli/binary.ts';
import { NPM_GUARD_MS, VERSION } from '../helpers/pack.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
const LICENSE = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
const CHANGELOG = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

/** The license text with every run of white space made one space: layout aside, the words. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('LICENSE', () => {
  it('is the Apache License 2.0 that package.json declares', () => {
    expect(pkg.license).toBe('Apache-2.0');
    expect(words(LICENSE).startsWith('Apache License Version 2.0, January 2004 http://www.apache.org/licenses/ TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION')).toBe(true);
  });

  it('has the full standard text: its nine sections in order, the end of terms and the appendix, word for word', () => {
    const sections = [
      'Definitions',
      'Grant of Copyright License',
      'Grant of Patent License',
      'Redistribution',
      'Submission of Contributions',
      'Trademarks',
      'Disclaimer of Warranty',
      'Limitation of Liability',
      'Accepting Warranty or Additional Liability',
    ].map((title, i) => words(LICENSE).indexOf(` ${i + 1}. ${title}.`));
    expect(sections.every((at) => at > 0)).toBe(true);
    expect([...sections].sort((a, b) => a - b)).toEqual(sections);
    expect(words(LICENSE)).toContain('END OF TERMS AND CONDITIONS APPENDIX: How to apply the Apache License to your work.');
    // The digest of the standard text's words (as apache.org and Debian's common-licenses hold it).
    expect(createHash('sha256').update(words(LICENSE)).digest('hex')).toBe('0ffddef9e48f8a09aed5caf2d44f7ba1c1be2d9b8e0a6f693b1635b2d5566645');
  });

  it('ships in the pack, and the recipes (used from the repository) do not', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: NPM_GUARD_MS });
    expect(r.status, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toContain('LICENSE');
    expect(files.filter((f) => f.startsWith('recipes/') || f === '.pre-commit-hooks.yaml')).toEqual([]);
  });
});

describe('CHANGELOG.md', () => {
  it('keeps the Keep a Changelog layout: a title, releases newest first, the standard change types', () => {
    const lines = CHANGELOG.split('\n');
    expect(lines[0]).toBe('# Changelog');
    expect(CHANGELOG).toContain('[Keep a Changelog](https://keepachangelog.com/');
    const releases = lines.filter((l) => l.startsWith('## '));
    expect(releases.length).toBeGreaterThan(0);
    for (const r of releases) expect(r).toMatch(/^## \[(Unreleased|\d+\.\d+\.\d+)\]( - \d{4}-\d{2}-\d{2})?$/);
    const dated = releases.filter((r) => !r.includes('Unreleased')).map((r) => /\d{4}-\d{2}-\d{2}/.exec(r)![0]);
    expect([...dated].sort().reverse()).toEqual(dated);
    for (const h of lines.filter((l) => l.startsWith('### '))) expect(h).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/);
  });

  it("names package.json's version and every command of the CLI", () => {
    expect(CHANGELOG).toContain(VERSION);
    const help = runBin(['--help']).stdout;
    const block = help.slice(help.indexOf('Commands:')).split('\n\n')[0]!;
    const commands = [...block.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(5);
    for (const c of commands) expect(CHANGELOG, c).toContain(`\`agentplat ${c}`);
  });
});
