/**
 * `npm run build` when nothing has changed since the last build of the same output: it keeps that
 * output, which is what a clean build would write, and ends without starting Astro. Nothing has
 * changed when the site's code is byte for byte the same (src/, public/, schemas/, the lock file,
 * package.json, tsconfig.json, the config file), and so are the build's settings in the
 * environment and Node's version; when the content folder holds the same files, each with the size
 * and modification time it had (as make and Hugo judge sources: an editor, a copy or a checkout
 * changes the time); and when the output folder still holds exactly the files that build left
 * there, each with its size and modification time. Anything else, or `--clean`, builds.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeDigest, noteSource } from './cache.ts';
import { HOST_ENVIRONMENT } from '../integration/host.ts';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { folderFiles, type FolderFiles as Listing } from './folder-files.ts';

/** The last build: its code and settings, the content it read and the output it left. */
interface Stamp {
  inputs: string;
  content: Listing;
  outDir: string;
  files: Listing;
}

/** Settings in the environment a build reads: the config's (TAGSITE_*, Astro's PUBLIC_*) and the hosts' site address. */
function buildEnvironment(env: NodeJS.ProcessEnv): Array<[string, string]> {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && (/^(TAGSITE|PUBLIC|ASTRO)_/.test(entry[0]) || HOST_ENVIRONMENT.includes(entry[0]) || entry[0] === 'NODE_ENV'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** Digest of everything a build reads but its content; `configFile` is the config Astro is given (TAGSITE_CONFIG), if not the default. */
export function buildInputs(root: string, configFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const settings = {
    environment: buildEnvironment(env),
    config: configFile ? readIfThere(resolve(root, configFile)) : '',
    packageJson: readIfThere(join(root, 'package.json')),
    tsconfig: readIfThere(join(root, 'tsconfig.json')),
  };
  return codeDigest(root, JSON.stringify(settings));
}

/**
 * Where the stamp of the last build of `contentDir` into the output `out` (as given, or the
 * default) is kept: a folder among the build's caches, pruned with them once its content is gone.
 */
function stampFolder(root: string, contentDir: string, out: string | undefined): string {
  const key = createHash('sha1').update(`${contentDir}\0${out ?? ''}`).digest('hex').slice(0, 16);
  return join(root, '.tagsite-build', 'cache', `stamp-${key}`);
}

const stampFile = (root: string, contentDir: string, out: string | undefined) => join(stampFolder(root, contentDir, out), 'stamp.json');

function sameListing(now: Listing, then: Listing): boolean {
  return now.length === then.length && now.every(([path, size, mtimeMs], i) => {
    const [p, s, m] = then[i]!;
    return path === p && size === s && mtimeMs === m;
  });
}

/** The content folder's files as the stamp notes them. */
export const contentListing = folderFiles;

/**
 * The output folder the last build with exactly these inputs and content (`contentListing`) left,
 * when it is still exactly as it left it; else undefined.
 */
export function unchangedOutput(root: string, contentDir: string, out: string | undefined, inputs: string, content: Listing): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampFile(root, contentDir, out), 'utf8')) as Stamp;
    if (stamp.inputs !== inputs || !existsSync(stamp.outDir)) return undefined;
    return sameListing(content, stamp.content) && sameListing(folderFiles(stamp.outDir), stamp.files) ? stamp.outDir : undefined;
  } catch {
    return undefined; // no stamp yet, or unreadable: build
  }
}

/**
 * Notes the inputs of a build that has just written `outDir`, and what it left there (`files`, as
 * `folderFiles` lists them). `content` is the content folder's listing from before the build read
 * it: a file changed meanwhile differs from it, and the next build runs.
 */
export function stampBuild(root: string, contentDir: string, out: string | undefined, inputs: string, content: Listing, outDir: string, files: Listing): void {
  const folder = stampFolder(root, contentDir, out);
  mkdirSync(folder, { recursive: true });
  noteSource(folder, contentDir);
  writeFileAtomic(join(folder, 'stamp.json'), JSON.stringify({ inputs, content, outDir, files } satisfies Stamp));
}
