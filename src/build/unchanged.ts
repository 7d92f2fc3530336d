/**
 * `npm run build` when nothing has changed since the last build of the same output: it keeps that
 * output, which is what a clean build would write, and ends without starting Astro. Nothing has
 * changed when the site's code is byte for byte the same (src/, public/, schemas/, the lock file,
 * package.json, tsconfig.json, the config file), and so are the build's settings in the
 * environment and Node's version; when the content folder holds the same files, each with the size
 * and modification time it had (as make and Hugo judge sources: an editor, a copy or a checkout
 * changes the time); and when the output folder still holds exactly the files that build left
 * there, each with its size and modification time. Anything else, or `--clean`, builds.
 *
 * The check reads no folder: it looks up each file the last build noted, and each folder's
 * modification time, which moves whenever an entry is added to the folder, taken out or renamed
 * (a file or folder put anywhere in the content or the output moves its folder's). At 10,000
 * topics that is a third of the time of listing both folders again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeDigest, noteSource } from './cache.ts';
import { HOST_ENVIRONMENT } from '../integration/host.ts';
import { replaceFile } from '../cli/atomic-file.ts';
import type { FolderFiles, FolderListing } from './folder-files.ts';
import { folderTimes, stampListing, stampListingInThread, unchangedFolder, unchangedFolderInThread, type FolderTimes, type StampListing } from './output-check.ts';

/** The last build: its code and settings, the content it read and the output it left. */
interface Stamp {
  inputs: string;
  content: FolderFiles;
  contentFolders: FolderTimes;
  outDir: string;
  files: FolderFiles;
  folders: FolderTimes;
}

/** A folder's listing as the stamp notes it: its files, and its folders with their modification times now. */
export type ContentListing = StampListing;

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

/** Where the last build of `contentDir` into `out` keeps its page code for the next (./kept-renderer.ts): beside its stamp. */
export const rendererFolder = (root: string, contentDir: string, out: string | undefined) => join(stampFolder(root, contentDir, out), 'renderer');

/** The content folder's files and folders as the stamp notes them: taken before a build reads the content. */
export function contentListing(contentDir: string): ContentListing {
  return stampListing(contentDir);
}

/**
 * What a build's stamp takes of the content's listing (stampBuild): its files as the stamp's JSON
 * text, and its folders. Held from the reading of the content to the end of the build: 100,000
 * topic files are some 17 MB of the heap as arrays, 9 MB as text.
 */
export interface ContentStamp {
  filesJson: string;
  folders: FolderTimes;
}

/** The listing as a build's stamp takes it (without the files' stamps, which were for the reading). */
export const contentStamp = ({ files, folders }: ContentListing): ContentStamp => ({ filesJson: JSON.stringify(files), folders });

/** contentListing, taken by a thread of its own (while the build loads its code). */
export function contentListingInThread(contentDir: string): Promise<ContentListing> {
  return stampListingInThread(contentDir);
}

/**
 * The stamp of the last build of `contentDir` into `out`, when that build had exactly these
 * `inputs`; undefined when there is none, or it cannot be read (one of an older build's form).
 */
function readStamp(root: string, contentDir: string, out: string | undefined, inputs: string): Stamp | undefined {
  try {
    return stampOf(readFileSync(stampFile(root, contentDir, out), 'utf8'), inputs);
  } catch {
    return undefined;
  }
}

/** The stamp text parsed last, and what it gave: a build reads the stamp twice (unchangedOutput, then stampedOutput under the output's lock), mostly the same text, of megabytes. */
let parsed: { text: string; stamp: Partial<Stamp> } | undefined;

/** A stamp file's text as a stamp, when it is whole and of these `inputs`. */
function stampOf(text: string, inputs: string): Stamp | undefined {
  try {
    const stamp = parsed?.text === text ? parsed.stamp : (JSON.parse(text) as Partial<Stamp>);
    parsed = { text, stamp };
    const whole = [stamp.content, stamp.contentFolders, stamp.files, stamp.folders].every(Array.isArray) && typeof stamp.outDir === 'string';
    return whole && stamp.inputs === inputs ? (stamp as Stamp) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The output folder the last build with exactly these inputs left, when the content and that
 * output are still exactly as it left them; else undefined.
 */
export function unchangedOutput(root: string, contentDir: string, out: string | undefined, inputs: string): string | undefined {
  const stamp = readStamp(root, contentDir, out, inputs);
  if (!stamp || !existsSync(stamp.outDir)) return undefined;
  return unchangedFolder(contentDir, stamp.content, stamp.contentFolders) && unchangedFolder(stamp.outDir, stamp.files, stamp.folders) ? stamp.outDir : undefined;
}

const listedOutput = (stamp: Stamp): FolderListing & { outDir: string } => ({ outDir: stamp.outDir, files: stamp.files, folders: stamp.folders.map(([folder]) => folder), folderTimes: new Map(stamp.folders) });

/**
 * The output the last build with exactly these `inputs` left, as it left it (its files and
 * folders), when it is still exactly so: a content rebuild then updates it in place
 * (./in-place.ts). Undefined when there is no such build, or the output was changed since.
 *
 * The output is checked file by file in a worker thread while this one goes on (a rebuild reads
 * the content meanwhile). The thread is given the stamp's text as read here, so both judge the same stamp.
 */
export function stampedOutput(root: string, contentDir: string, out: string | undefined, inputs: string): Promise<(FolderListing & { outDir: string }) | undefined> {
  let text: string;
  try {
    text = readFileSync(stampFile(root, contentDir, out), 'utf8');
  } catch {
    return Promise.resolve(undefined); // no stamp: no last build to update
  }
  const stamp = stampOf(text, inputs);
  if (!stamp) return Promise.resolve(undefined);
  return unchangedFolderInThread(text).then((unchanged) => (unchanged ? listedOutput(stamp) : undefined));
}

/**
 * Notes the inputs of a build that has just written `outDir`, and what it left there (`output`, as
 * `folderListing` lists it). `content` is the content folder's listing from before the build read
 * it: a file changed meanwhile differs from it, and the next build runs.
 */
export function stampBuild(root: string, contentDir: string, out: string | undefined, inputs: string, content: ContentStamp, outDir: string, output: FolderListing): void {
  const folder = stampFolder(root, contentDir, out);
  mkdirSync(folder, { recursive: true });
  noteSource(folder, contentDir);
  const stamp: Omit<Stamp, 'content'> = { inputs, contentFolders: content.folders, outDir, files: output.files, folders: folderTimes(outDir, output.folders, output.folderTimes) };
  // Not flushed to the disk first (some 60 ms): a stamp lost or cut short by a crash is no stamp, and
  // the next build builds; an older one left in its place no longer matches the output's files.
  // The content's files go in as the text they were kept as: the stamp's last field.
  const rest = JSON.stringify(stamp);
  replaceFile(join(folder, 'stamp.json'), (put) => put(`${rest.slice(0, -1)},"content":${content.filesJson}}`), { flush: false });
}
