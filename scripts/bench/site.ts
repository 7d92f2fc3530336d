/**
 * Building the site the benchmark measures: the real build (`scripts/build.ts`), run in a snapshot
 * of the project so it neither races with other builds in the checkout (Astro writes `.astro/`
 * there) nor disturbs them; or, for corpora too big to build in reasonable time, a real build of a
 * small "shell" corpus whose search index is then replaced by the big corpus's index.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSearchIndex } from '../../src/lib/search/index-build.ts';
import { sortForListing } from '../../src/lib/listing.ts';
import type { SiteContent } from '../../src/lib/content.ts';

/** What the build needs from the project; node_modules is linked, not copied. */
const PROJECT_PARTS = ['astro.config.mjs', 'package.json', 'tsconfig.json', 'src', 'schemas', 'scripts', 'public'];

/** Copies the project (as it is now) into `dir` and returns that folder. */
export function projectSnapshot(projectRoot: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const part of PROJECT_PARTS) {
    if (existsSync(join(projectRoot, part))) cpSync(join(projectRoot, part), join(dir, part), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

export class StepTimeout extends Error {}

/** Runs the real build of `contentDir` into `outDir` from `project`; resolves with the seconds it took. */
export function realBuild(project: string, contentDir: string, outDir: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', 'scripts/build.ts', '--content', contentDir, '--out', outDir], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a timeout stops the build and anything it started
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new StepTimeout(`the build did not finish within ${Math.round(timeoutMs / 1000)} s`));
      else if (code !== 0) reject(new Error(`the build failed (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`));
      else resolve((performance.now() - started) / 1000);
    });
  });
}

/** The search index of a content, exactly as the build makes it (src/search-files.ts). */
export function searchIndexOf(content: SiteContent): Map<string, string> {
  return buildSearchIndex(sortForListing(content.topics), content.contentTypes.list);
}

/** Replaces a built site's search index with `files` (other files under /search-index/ stay). */
export function replaceSearchIndex(outDir: string, files: Map<string, string>): void {
  const root = join(outDir, 'search-index');
  const owned = new Set([...files.keys()].map((path) => path.split('/')[0]!));
  for (const part of owned) rmSync(join(root, part), { recursive: true, force: true });
  for (const [path, text] of files) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** How many of `files` differ from what a built site has under /search-index/ (0: identical). */
export function indexDifferences(outDir: string, files: Map<string, string>): number {
  let differ = 0;
  for (const [path, text] of files) {
    const file = join(outDir, 'search-index', path);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) differ++;
  }
  return differ;
}

/**
 * Writes the shell corpus: the big corpus's data files and only the topics carrying one of
 * `tags`, so the shell's pages for those tags are the big site's pages (same topics, same counts).
 */
export function writeShellCorpus(corpusDir: string, content: SiteContent, tags: readonly string[], shellDir: string): number {
  mkdirSync(join(shellDir, 'topics'), { recursive: true });
  for (const name of ['content-types.json', 'members.json', 'links.json']) {
    if (existsSync(join(corpusDir, name))) cpSync(join(corpusDir, name), join(shellDir, name));
  }
  const wanted = new Set(tags);
  let count = 0;
  for (const topic of content.topics) {
    if (!topic.tags.some((tag) => wanted.has(tag))) continue;
    // topic.file is relative to the corpus folder (loadContent's root).
    const target = join(shellDir, topic.file);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(corpusDir, topic.file), target);
    count++;
  }
  return count;
}
