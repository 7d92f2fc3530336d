/**
 * Building the site the benchmark measures: the real build (`scripts/build.mjs`), run in a snapshot
 * of the project so it neither races with other builds in the checkout (Astro writes `.astro/`
 * there) nor disturbs them; or, for corpora too big to build in reasonable time, a real build of a
 * small "shell" corpus whose search index is then replaced by the big corpus's index.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildSearchIndex } from '../../src/search/index-build.ts';
import { sortForListing } from '../../src/model/listing.ts';
import type { SiteContent } from '../../src/content/load.ts';

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

/** Resident memory of every process in a process group, in bytes (Linux /proc). */
function groupRss(group: number): number {
  let bytes = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) : state ppid pgrp …
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== group) continue;
      bytes += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      // the process ended while being read
    }
  }
  return bytes;
}

/** Linux's clock ticks a second in /proc (USER_HZ, 100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (in seconds: user + system, and system alone) of this process's children that have
 * ended and been waited for, each with the children it waited for: /proc/self/stat's cutime and
 * cstime. Read before and after one child runs, it gives that child's CPU time, on every thread and core.
 */
function endedChildrenCpu(): { cpu: number; system: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // After the command name (which may hold spaces): state ppid … utime stime cutime cstime (fields 3…17).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = [Number(fields[13]), Number(fields[14])];
  return { cpu: (user + system) / TICKS_PER_SECOND, system: system / TICKS_PER_SECOND };
}

export interface BuildRun {
  seconds: number;
  /**
   * CPU time of the build and the processes it waited for (user + system, every thread): the work
   * it did, which the machine's other load changes less than the time it took. Also counts any
   * other child of this process that ended meanwhile (none does while a build runs).
   */
  cpuSeconds: number;
  /**
   * Of it, the time in the kernel (system time): making, writing and deleting files, mostly. A file
   * system slower at making files than usual shows here, not in the build's own work: ext4 without
   * a journal, for minutes after many files were deleted, takes ten times as long to make each.
   */
  systemSeconds: number;
  /** Highest sum of the resident memory of the build and every process it started (sampled every 100 ms). */
  peakRss: number;
  /** The build's output (stdout and stderr). */
  output: string;
}

/** Node's options for the build, as package.json's `build` script gives them (a smaller young generation: src/build/threads.ts). */
export const BUILD_NODE_OPTIONS = ['--max-semi-space-size=16', '--min-semi-space-size=16', '--v8-pool-size=1', '--experimental-strip-types', '--no-warnings'];

/**
 * Runs the real build of `contentDir` into `outDir` from `project`. A `clean` build (`--clean`)
 * forgets the caches of earlier builds, of this run or of an earlier bench run with the same code:
 * the renderings of posts and the words of topics are kept by their content, which a corpus
 * generated again with the same seed has too.
 */
export function realBuild(project: string, contentDir: string, outDir: string, timeoutMs: number, clean = false): Promise<BuildRun> {
  return runBuild(project, contentDir, outDir, timeoutMs, true, clean);
}

/** Runs the build and resolves whether it succeeds or not (`expectSuccess` false: for builds that must fail). */
export function runBuild(project: string, contentDir: string, outDir: string, timeoutMs: number, expectSuccess: boolean, clean = false): Promise<BuildRun & { code: number | null }> {
  return runMeasured(process.execPath, [...BUILD_NODE_OPTIONS, 'scripts/build.mjs', '--content', contentDir, '--out', outDir, ...(clean ? ['--clean'] : [])], project, timeoutMs, expectSuccess);
}

/**
 * Runs `command` in `cwd`, timed, sampling the resident memory of it and everything it starts;
 * rejects when it fails (with `expectSuccess`) or outlasts `timeoutMs`. What the steps before it
 * wrote is first flushed to disk (`sync`): otherwise the kernel writes it out while this command
 * runs, and slows its own writes (tagsite's clean build came right after the corpus was written,
 * Hugo's right after tagsite's 245 MB).
 */
export function runMeasured(command: string, args: string[], cwd: string, timeoutMs: number, expectSuccess = true): Promise<BuildRun & { code: number | null }> {
  spawnSync('sync', { stdio: 'ignore' });
  const started = performance.now();
  const cpuBefore = endedChildrenCpu();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a timeout stops the build and anything it started
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, groupRss(child.pid!))), 100);
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
      clearInterval(sampler);
      if (timedOut) reject(new StepTimeout(`${basename(command)} did not finish within ${Math.round(timeoutMs / 1000)} s`));
      else if (code !== 0 && expectSuccess) reject(new Error(`${basename(command)} failed (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`));
      else {
        const cpu = endedChildrenCpu();
        resolve({ seconds: (performance.now() - started) / 1000, cpuSeconds: cpu.cpu - cpuBefore.cpu, systemSeconds: cpu.system - cpuBefore.system, peakRss, output, code });
      }
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

/** Files, HTML pages and bytes of a built site. */
export function siteSize(dir: string): { files: number; pages: number; bytes: number } {
  let files = 0;
  let pages = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    if (entry.name.endsWith('.html')) pages++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, pages, bytes };
}

/**
 * Waits (at most `timeoutMs`) until no replaced output beside `outDir` is left: a build deletes the
 * output it replaced in a detached process after it ends, and the next measurement should not share
 * the machine with that deletion.
 */
export async function replacedOutputsGone(outDir: string, timeoutMs: number): Promise<boolean> {
  const prefix = `.${basename(outDir)}.building-`;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (!readdirSync(dirname(outDir)).some((name) => name.startsWith(prefix))) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
