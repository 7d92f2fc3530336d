/**
 * The module resolutions of `npm run build`, remembered for the next build. Before Node loads a
 * module it resolves each of its imports to a file: some 1,000 of them in a rebuild (Astro's
 * runtime and its dependencies, the build's own modules, the page code the last build kept), each
 * a walk through folders and package.json files, some 0.1 s of a 10,000-topic rebuild's main thread.
 * The compile cache (scripts/build.mjs) keeps what modules compile to, not where they are.
 *
 * So scripts/build.mjs registers `resolve` below with Node (module.registerHooks, Node 22.15 and
 * later; earlier Nodes resolve as they always do), and an import resolved before, from the same
 * module, under the same conditions, is answered from the memory while its file is still there.
 * What could change an answer otherwise is the dependencies or the project's package.json: the
 * memory holds the stamps (size and modification time) of package.json and the package managers'
 * lock files (PACKAGE_FILES: node_modules/.package-lock.json, which npm rewrites on every install,
 * among them) and Node's version, and is forgotten when any differs. A remembered file that is gone is resolved anew, so a missing module
 * gets Node's own error.
 */
import * as nodeModule from 'node:module';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceFile } from '../cli/atomic-file.ts';

/** A resolution as Node's `resolve` hooks give it. */
interface Resolved {
  url: string;
  format?: string | null | undefined;
}

interface ResolveContext {
  parentURL?: string | undefined;
  conditions?: readonly string[];
  importAttributes?: Record<string, string>;
}

type NextResolve = (specifier: string, context?: ResolveContext) => Resolved;

/** More remembered than this, and the memory keeps only what the build that saves it used: each full build keeps its page code at a new path (./kept-renderer.ts). */
export const MAX_REMEMBERED = 5000;

interface Saved {
  validity: string;
  resolutions: Array<[key: string, url: string, format: string | null]>;
}

/** The package manifest, and the lock files that npm, Yarn and pnpm write (those in node_modules on every install). */
const PACKAGE_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'yarn.lock', 'node_modules/.yarn-state.yml', 'pnpm-lock.yaml', 'node_modules/.modules.yaml'];

/** What a remembered resolution stands on: Node's version and the stamps of the project's package files. */
export function resolutionValidity(root: string): string {
  const stamp = (file: string) => {
    try {
      const { size, mtimeMs } = statSync(join(root, file));
      return `${size}:${mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return JSON.stringify([process.version, ...PACKAGE_FILES.map(stamp)]);
}

/** The resolutions saved in `file` while `validity` is theirs; none otherwise. */
function savedResolutions(file: string, validity: string): Map<string, Resolved> {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<Saved>;
    if (saved.validity !== validity || !Array.isArray(saved.resolutions)) return new Map();
    return new Map(saved.resolutions.map(([key, url, format]) => [key, { url, format }]));
  } catch {
    return new Map(); // none yet, or unreadable
  }
}

/** An import as the memory knows it: the same specifier from the same module under the same conditions and attributes resolves alike. */
const keyOf = (specifier: string, { parentURL = '', conditions = [], importAttributes = {} }: ResolveContext) => JSON.stringify([parentURL, specifier, conditions, importAttributes]);

/** Whether a remembered resolution's file is still there. */
function stillThere(url: string): boolean {
  try {
    return existsSync(fileURLToPath(url));
  } catch {
    return false;
  }
}

export interface ResolutionMemory {
  /** A `resolve` hook (module.registerHooks): the remembered answer, or the next hook's, remembered. */
  resolve(specifier: string, context: ResolveContext, next: NextResolve): Resolved & { shortCircuit?: boolean };
  /** Saves what this process resolved anew with what `file` holds (another build's may have been saved meanwhile); nothing when nothing was. */
  save(): void;
}

/** The resolutions remembered in `file` (under `validity`: resolutionValidity), answering and remembering as `resolve` is asked. */
export function resolutionMemory(file: string, validity: string): ResolutionMemory {
  const known = savedResolutions(file, validity);
  const used = new Set<string>();
  let added = 0;
  return {
    resolve(specifier, context, next) {
      const key = keyOf(specifier, context);
      const remembered = known.get(key);
      if (remembered && stillThere(remembered.url)) {
        used.add(key);
        return { url: remembered.url, format: remembered.format ?? undefined, shortCircuit: true };
      }
      const resolved = next(specifier, context);
      // Only files: built-in modules (node:fs) cost nothing to resolve.
      if (resolved.url.startsWith('file:')) {
        known.set(key, { url: resolved.url, format: resolved.format ?? null });
        used.add(key);
        added++;
      }
      return resolved;
    },
    save() {
      if (added === 0) return;
      const all = new Map([...savedResolutions(file, validity), ...known]);
      const kept = all.size > MAX_REMEMBERED ? [...used].map((key) => [key, known.get(key)!] as const) : [...all];
      const saved: Saved = { validity, resolutions: kept.map(([key, { url, format }]) => [key, url, format ?? null]) };
      try {
        mkdirSync(dirname(file), { recursive: true });
        replaceFile(file, (put) => put(JSON.stringify(saved)), { flush: false });
      } catch {
        // a memory the next build can do without
      }
    },
  };
}

/**
 * Answers this thread's module resolutions from `file` from now on, and saves them there as the
 * process ends. Does nothing on a Node without module.registerHooks.
 */
export function rememberResolutions(file: string, root: string): void {
  const register = (nodeModule as { registerHooks?: (hooks: { resolve: ResolutionMemory['resolve'] }) => unknown }).registerHooks;
  if (typeof register !== 'function') return;
  const memory = resolutionMemory(file, resolutionValidity(root));
  register({ resolve: (specifier, context, next) => memory.resolve(specifier, context, next) });
  process.once('exit', () => memory.save());
}
