/**
 * Which files a content folder holds, by one rule for every path in it:
 *
 * - Symbolic links are followed when they lead to a file or folder inside the content folder; one
 *   that leads outside it, loops or leads nowhere is one problem, and is not read.
 * - A name Windows cannot check out (`con.md`, `aux/`, `nul`, `com1` …, a name ending in `.` or a
 *   space, or holding `<>:"|?*\`) is a problem: a clone on Windows would fail or lose the file.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Problem } from './problems.ts';
import { readFailure } from './source-text.ts';

/** A path with the system's separators, `/`-separated. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** The path problems give a file: relative to the project root, with `/`. */
export function shownPath(root: string, path: string): string {
  return toPosix(relative(root, path));
}

const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;

/** Why Windows cannot check out a file or folder of this name, or undefined when it can. */
export function windowsNameProblem(name: string): string | undefined {
  if (RESERVED.test(name)) return `'${name}' cannot be checked out on Windows (${name.split('.')[0]!.toUpperCase()} is a reserved device name there): rename it`;
  if (/[<>:"|?*\\\u0000-\u001f]/.test(name)) return `'${name}' cannot be checked out on Windows (it holds one of < > : " | ? * \\ or a control character): rename it`;
  if (/[. ]$/.test(name)) return `'${name}' cannot be checked out on Windows (a name there cannot end in a dot or a space): rename it`;
  return undefined;
}

/**
 * `join(root, file)` for a topic file (`/`-separated, relative to `root`), each folder joined once:
 * a site's topics are in a few folders, and a join for each of 10,000 took some 40 ms of a rebuild.
 */
export function inRoot(root: string): (file: string) => string {
  const folders = new Map<string, string>();
  return (file) => {
    const cut = file.lastIndexOf('/');
    if (cut < 0) return join(root, file);
    const folder = file.slice(0, cut);
    let full = folders.get(folder);
    if (full === undefined) folders.set(folder, (full = join(root, folder)));
    const name = file.slice(cut + 1);
    // As join gives it: no `./` before a name in the current folder, no second separator after the file system's root.
    return full === '.' ? name : full.endsWith(sep) ? `${full}${name}` : `${full}${sep}${name}`;
  };
}

/** Whether `path` (a real path) is `folder` or inside it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/** The content folder itself: a problem when it does not exist, is not a folder or cannot be read. */
export function contentFolderProblem(root: string, contentDir: string): Problem | undefined {
  const relativePath = shownPath(root, contentDir);
  const shown = relativePath.startsWith('..') ? toPosix(contentDir) : relativePath || '.';
  try {
    if (!statSync(contentDir).isDirectory()) return { file: shown, field: '(folder)', message: `the content folder ${shown} is not a folder` };
    readdirSync(contentDir);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file: shown, field: '(folder)', message: `the content folder ${shown} does not exist (give it with --content <dir>)` };
    return { file: shown, field: '(folder)', message: `the content folder ${shown} ${readFailure(error)}` };
  }
}

/**
 * A symbolic link's problem under the rule above, or undefined for a path that is not a link or
 * leads inside the content folder.
 */
export function linkProblem(path: string, file: string, realContent: string): Problem | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return undefined; // not there: the caller says what a missing file means
  }
  if (!stat.isSymbolicLink()) return undefined;
  try {
    const target = realpathSync(path);
    if (!inside(realContent, target)) return { file, field: '(file)', message: 'is a symbolic link to a path outside the content folder: links are followed only inside it' };
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { file, field: '(file)', message: 'is a symbolic link that loops (it leads back to itself)' };
    if (code === 'ENOENT') return { file, field: '(file)', message: 'is a symbolic link to a path that does not exist' };
    return { file, field: '(file)', message: `is a symbolic link that cannot be followed (${code ?? (error as Error).message})` };
  }
}

/** The real path of the content folder (links are judged against it). */
export function realContentFolder(contentDir: string): string {
  try {
    return realpathSync(contentDir);
  } catch {
    return contentDir;
  }
}

/**
 * Lists topic files under content/topics (paths relative to `root`, sorted); anything there that is
 * not a `.md` topic is a problem (topics are data, not code), and so is a link or name breaking the
 * rule above. Hidden entries (`.git`, editors' files) are skipped.
 */
export function topicFiles(root: string, contentDir: string, problems: Problem[]): string[] {
  const realContent = realContentFolder(contentDir);
  const top = join(contentDir, 'topics');
  const files: string[] = [];
  // Folders to read, each with the real paths of the folders above it (a link back to one of them is a loop).
  const pending: Array<{ dir: string; above: Set<string> }> = [];
  const topProblem = linkProblem(top, shownPath(root, top), realContent);
  if (topProblem) {
    problems.push(topProblem);
    return [];
  }
  try {
    if (!statSync(top).isDirectory()) return [];
    pending.push({ dir: top, above: new Set([realpathSync(top)]) });
  } catch {
    return [];
  }
  while (pending.length > 0) {
    const { dir, above } = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ file: shownPath(root, dir), field: '(folder)', message: readFailure(error) });
      continue;
    }
    // The folder's path as problems show it, once: each of its files' is that and the file's name.
    const shownDir = shownPath(root, dir);
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      // Joined only for a link or a folder, once: not for each of a big site's topic files.
      let joined: string | undefined;
      const path = () => (joined ??= join(dir, entry.name));
      const file = `${shownDir}/${entry.name}`;
      const badName = windowsNameProblem(entry.name);
      if (badName) {
        problems.push({ file, field: '(file)', message: badName });
        continue;
      }
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const problem = linkProblem(path(), file, realContent);
        if (problem) {
          problems.push(problem);
          continue;
        }
        const stat = statSync(path());
        isFolder = stat.isDirectory();
        isFile = stat.isFile();
      }
      if (isFolder) {
        const real = realpathSync(path());
        if (above.has(real)) problems.push({ file, field: '(file)', message: 'is a symbolic link that loops (it leads to a folder it is in)' });
        else pending.push({ dir: path(), above: new Set([...above, real]) });
      } else if (isFile) {
        if (entry.name.endsWith('.md')) files.push(file);
        else
          problems.push({
            file,
            field: '(file)',
            message: entry.name.endsWith('.mdx')
              ? 'topics are Markdown data: rename to .md (MDX is for the site\'s own pages)'
              : 'only .md topic files belong in content/topics',
          });
      }
    }
  }
  return files.sort();
}
