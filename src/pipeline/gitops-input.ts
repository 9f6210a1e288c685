// Reading the files a command names as GitOps objects: whether a file holds a Flux HelmRelease or
// an Argo CD Application of this chart, the releases it holds (src/gitops/), and the reader of the
// object's neighbours (its folder and the --values-from folders) and of the repository's files.
// The CLI's preAction step (src/cli/gitops-input.ts) and lint's positional files call it; what the
// object says is then mapped to the command's flags there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { mayBeGitops, readGitopsFile, type GitopsFile, type GitopsReader, type UserFile } from '../gitops/index.ts';
import { resolveFrom } from '../fs-path.ts';
import { expandTargets } from '../lint/targets.ts';
import { readUserFile, type InputReader } from '../values/load.ts';

function yamlFilesIn(dir: string, shownDir: string, cwd: string): UserFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort();
  } catch {
    return [];
  }
  const out: UserFile[] = [];
  for (const n of names) {
    try {
      const full = join(dir, n);
      const { text } = readUserFileSync(full);
      out.push({ name: relative(cwd, full) || join(shownDir, n), text });
    } catch {
      // Unreadable neighbours hold nothing the object can name.
    }
  }
  return out;
}

function isDir(full: string): boolean {
  try {
    return statSync(full).isDirectory();
  } catch {
    return false;
  }
}

function readUserFileSync(full: string): { text: string } {
  if (statSync(full).size > 1024 * 1024) throw new Error('too large');
  return { text: readFileSync(full, 'utf8') };
}

/** The reader of an object's neighbours: its folder and each --values-from folder; repository files from the first --values-from folder, else the current directory. */
export function gitopsReader(file: string, cwd: string, valuesFrom: readonly string[], fromCluster: readonly UserFile[] = []): GitopsReader {
  const dirs = [dirname(resolveFrom(cwd, file)), ...valuesFrom.map((d) => resolveFrom(cwd, d))];
  const root = valuesFrom[0] !== undefined ? resolveFrom(cwd, valuesFrom[0]) : cwd;
  let cached: UserFile[] | undefined;
  return {
    neighbours: () => (cached ??= [...dirs.flatMap((d) => yamlFilesIn(d, relative(cwd, d), cwd)), ...fromCluster]),
    repoFile(path) {
      const full = join(root, path);
      try {
        return { name: relative(cwd, full) || path, text: readUserFileSync(full).text };
      } catch {
        return undefined;
      }
    },
    repoDir(path) {
      try {
        return readdirSync(join(root, path), { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() || (e.isSymbolicLink() && isDir(join(root, path, e.name))) }));
      } catch {
        return undefined;
      }
    },
    repoRootText: valuesFrom[0] !== undefined ? `under --values-from ${valuesFrom[0]}` : 'under the current directory (the repository\'s root by default; pass another with --values-from DIR)',
  };
}


/**
 * The GitOps object in file `f`: its releases and notes; 'objects' when the file holds Kubernetes
 * objects that are not values (a ConfigMap, a kustomization.yaml: the chart's values have no
 * apiVersion and kind); undefined for a values file (or, with `unreadable: 'skip'`, a file that
 * cannot be read: the command refuses it later, after its own flags are checked).
 */
export async function readGitopsInput(
  f: string,
  cwd: string,
  reader: InputReader,
  valuesFrom: readonly string[],
  opts: {
    unreadable: 'skip' | 'throw';
    /** The valuesFrom sources no file holds, read from elsewhere (the cluster, with --cluster), as files of their own. */
    clusterSources?: (file: UserFile, reader: GitopsReader) => Promise<UserFile[]>;
  },
): Promise<GitopsFile | 'objects' | undefined> {
  const file = opts.unreadable === 'skip' ? await readUserFile(f, reader).catch(() => undefined) : await readUserFile(f, reader);
  if (!file) return undefined;
  if (mayBeGitops(file.text)) {
    const extra = opts.clusterSources ? await opts.clusterSources(file, gitopsReader(f, cwd, valuesFrom)) : [];
    const read = readGitopsFile(file, gitopsReader(f, cwd, valuesFrom, extra));
    if (read.isGitops) return read;
  }
  if (opts.unreadable === 'throw' && /^apiVersion:/m.test(file.text) && /^kind:/m.test(file.text)) return 'objects';
  return undefined;
}

/** lint's positional files and globs, expanded as lint expands them. */
export function lintTargetFiles(args: readonly string[], cwd: string): string[] {
  return expandTargets([...args], cwd);
}
