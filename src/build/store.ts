/**
 * The one store shared across the module graphs of a build. `npm run build`, the tagsite
 * integration (loaded by Astro's config loader) and the page chunks (bundled by Vite) each get
 * their own copy of every module, so a module variable is not shared between them. This store
 * lives on one global symbol instead; nothing else crosses those boundaries.
 *
 * Pages read validated records from here rather than through Astro's content layer: copying
 * 100,000 records into its data store, and serialising that to disk, cost seconds and memory for
 * records that are already validated and normalised.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SiteSize } from './host-limits.ts';
import type { FolderListing } from './folder-files.ts';
import type { SiteContent, TopicKeys } from '../content/load.ts';
import type { IndexAndFeeds } from './index-and-feeds.ts';
import type { BuildPhases } from './phases.ts';

/** Where the content comes from and how it is read. */
export interface ContentSource {
  /** The project root (problems name files relative to it). */
  root: string;
  contentDir: string;
  excerptLength: number;
}

/** What `npm run build` asks of the build beyond Astro's own options (absent under a plain `astro build`). */
export interface BuildRequest {
  /** The content folder (default: `content/` in the project root). */
  contentDir?: string;
  /** Forget the build's caches first. */
  clean?: boolean;
  /** The config file Astro was given, as problems name it (default: astro.config.mjs). */
  configFile?: string;
  /** Where to keep the page code for the next build, and the inputs it is good for (./kept-renderer.ts). */
  keepRenderer?: { folder: string; inputs: string };
}

/** Pages that may be taken from the last build (see ./page-reuse.ts), and the keys of this one's. */
export interface PageReuse {
  /** Key of each page file (`topics/x/index.html`) in the previous output, for pages that may be reused. */
  previous: Map<string, string>;
  /** Key of every page file of this build. */
  next: Map<string, string>;
  /** Page files taken from the previous output instead of rendered. */
  reused: Set<string>;
  /** Those of `reused` already in the new site (the page writer links them while pages render). */
  carried: Set<string>;
  /** The previous output is updated in place (./in-place.ts): the reused files stay there and none is linked. */
  inPlace: boolean;
  /** Each topic record's digest, as the build's reading of the content gives it (src/content/load.ts). */
  topicKeys?: TopicKeys;
  /** The digest of the topics' records without their posts, as the build's reading of the content gives it (src/content/load.ts). */
  listings?: string;
  /**
   * The routes whose pages are made from the listings only (./page-reuse.ts): what each was made
   * from, and its page files, in the previous build (`previous`) and in this one (`next`).
   */
  routes: { previous: ReadonlyMap<string, RouteFiles>; next: Map<string, RouteFiles> };
  /**
   * The key of what the topics' shape gives (cache.ts shapeKey: their order, tags and dates, not
   * their titles or excerpts): a value made from it alone is kept while it is the same (./page-reuse.ts sameWhileShape).
   */
  fromShape?: string;
  /** The key of the topics' tags (cache.ts tagsKey): a value made from them alone is kept while it is the same (./page-reuse.ts sameWhileTags). */
  fromTags?: string;
  /** How many times a page asked for a topic's post, or said it shows more than the listings (page-reuse.ts showsMoreThanListings). */
  postsShown: number;
}

/**
 * A route's page files (or the feeds', ./index-and-feeds.ts, or the sitemap's), and a digest of
 * everything they were made from; or a value made from the same (./page-reuse.ts sameWhileShape).
 */
export interface RouteFiles {
  inputs: string;
  files: readonly string[];
  /** What the build made besides the files, as JSON keeps it: the feeds' line about intersection pages, the search page's answer to a search for nothing. */
  value?: unknown;
  /** A value for the next build only, which a build that does not make it does not carry on (routesToRemember). */
  once?: true;
}

/**
 * The routes and values to remember after this build: its own, and each value an earlier build
 * made that this one did not ask for (after a post edit, which tags share topics: no listing was
 * made). A value serves only a build with its inputs, and the memory only builds with the same code.
 */
export function routesToRemember({ previous, next }: PageReuse['routes']): Map<string, RouteFiles> {
  const routes = new Map(next);
  for (const [name, earlier] of previous) if (!routes.has(name) && earlier.files.length === 0 && earlier.value !== undefined && !earlier.once) routes.set(name, earlier);
  return routes;
}

/**
 * Reuses the files of the remembered route `name` (a route's pages, the sitemap) by their previous
 * keys, when the previous build made them from the same `inputs` and all are still as it left
 * them; says whether it did.
 */
export function reuseRoute(reuse: PageReuse, name: string, inputs: string | undefined): boolean {
  const earlier = reuse.routes.previous.get(name);
  if (inputs === undefined || earlier?.inputs !== inputs || !earlier.files.every((file) => reuse.previous.has(file))) return false;
  for (const file of earlier.files) {
    reuse.next.set(file, reuse.previous.get(file)!);
    reuse.reused.add(file);
  }
  reuse.routes.next.set(name, earlier);
  return true;
}

/** What a finished build reports back to `npm run build`. */
export interface BuildOutcome {
  outDir: string;
  /** Pages and feeds of the site, and how many of them were taken unchanged from the last build. */
  pages: number;
  reused: number;
  seconds: number;
  /** The output was updated in place (src/build/in-place.ts), not replaced by a new folder. */
  inPlace: boolean;
  /** The files and folders the build left in `outDir` (one walk of it, for the size and the no-change check). */
  output: FolderListing;
  /** What the site weighs and the known hosts' limits it passes (src/build/host-limits.ts). */
  size: SiteSize;
  warnings: string[];
  /** Where its time went (./phases.ts). */
  phases: BuildPhases;
  /** Of the pages rendered, those a second thread rendered (./page-thread.ts). */
  byThread: number;
}

interface Store {
  request?: BuildRequest;
  source?: ContentSource;
  /** The validated records of `source`. */
  content?: SiteContent & { from: ContentSource };
  /** Set for a build (not in `astro dev`). */
  reuse?: PageReuse;
  /** Set in the page thread (./page-thread.ts): the main thread has keyed every page, and this one makes its routes' pages unkeyed, all of them. */
  unkeyed?: boolean;
  /** The search index and tag feeds, being made in a worker thread while Astro renders pages. */
  indexAndFeeds?: Promise<IndexAndFeeds>;
  /** Whether that thread has finished, read without waiting for its message (the page thread starts then: ./page-thread.ts). */
  indexFinished?: () => boolean;
  /** Resolves once that thread has ended and its memory is let go: its message is heard only when this thread next looks at its messages. */
  indexGone?: Promise<void>;
  /** Pages rendered so far in this build (the progress line). */
  rendered?: number;
  /** Of this build's pages, those a second thread rendered (./page-thread.ts). */
  renderedByThread?: number;
  /** See pageReads. */
  reads?: AsyncLocalStorage<Set<string>>;
  outcome?: BuildOutcome;
}

const KEY = Symbol.for('tagsite.build-store');
const global = globalThis as { [KEY]?: Store };

/** The store of this process. */
export function buildStore(): Store {
  return (global[KEY] ??= {});
}

/**
 * The parts of the site's data the page being rendered has read (./site-records.ts notes them,
 * ./page-reads.ts keys pages by them). Each page renders in a context of its own: pages rendered
 * at once (a `build.concurrency` above 1) keep their reads apart.
 */
export function pageReads(): AsyncLocalStorage<Set<string>> {
  const store = buildStore();
  return (store.reads ??= new AsyncLocalStorage());
}
