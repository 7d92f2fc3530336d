/**
 * A full build's second page renderer. Astro renders a site's pages one after another on the main
 * thread; in a large site's full build a thread of this module renders pages beside it, with the
 * same page code (the bundle Astro has just written) and the same prerenderer (./page-rendering.ts,
 * ./prerenderer.ts), and writes their files itself: both cores render pages, where the second was
 * idle once the index thread had finished.
 *
 * The listings' pages (tags, intersections, members) are shared. The main thread settles every
 * page's path as Astro would (Astro's order of routes, the first route's page where two make one
 * path), hands the listings' to the thread, and renders its own (topic pages and those without
 * parameters) first; the thread renders the listings' from the first on while the main thread,
 * once done with its own, renders them from the last one back. Each page goes to whichever thread
 * claims it first, in a flag the two share: neither waits for the other, whatever the site's mix
 * of pages. The thread holds the topics without their posts, which listings do not show. The main
 * thread has keyed every page (./page-reuse.ts; the thread keys none) and Astro lists every page
 * as rendered, so the thread gives back only how many it rendered.
 */
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { AstroPrerenderer, RouteData } from 'astro';
import type { SiteContent } from '../content/load.ts';
import { THREAD_LIMITS } from './threads.ts';
import { bundleApp, pageModulesLoadedOnce, pathsOfRoutes, renderedUrl, routeFile, type BundleApp, type BundleSettings, type RoutePath } from './page-rendering.ts';
import { publicFiles, writingPrerenderer, type PageFiles } from './prerenderer.ts';
import { buildStore, type ContentSource, type PageReuse } from './store.ts';
import { shareNames } from '../content/shared-names.ts';
import { withoutPost } from '../content/kept-posts.ts';

/** The routes whose pages are shared with the page thread: each tag's, each intersection's and each member's listing, which show no post. */
const SHARED_ROUTES = new Set(['/tags/[tag]', '/tags/[tag]/[page]', '/tags/intersection/[a]/[b]', '/tags/intersection/[a]/[b]/[page]', '/members/[slug]', '/members/[slug]/[page]']);

/** Whether the pages of `route` are shared with the page thread. */
const shared = (route: RouteData): boolean => route.type === 'page' && SHARED_ROUTES.has(route.route);

/** From this many topics a full build starts the page thread: below, its start costs more than it saves. */
const THREAD_TOPICS = 1000;

/** Whether a full build of this many topics starts the page thread (TAGSITE_PAGE_THREAD=1 or 0 says so whatever the size). */
export function pageThreadWanted(topics: number): boolean {
  const asked = process.env.TAGSITE_PAGE_THREAD;
  return asked === '1' || (asked !== '0' && topics >= THREAD_TOPICS);
}

/** Where the pages go and how they are addressed. */
export interface ThreadTarget {
  pageFiles: Omit<PageFiles, 'reuse'>;
  /** The previous output (the build's `outDir`). */
  from: string;
  /** Astro's `site` and `trailingSlash`. */
  site: string;
  trailingSlash: string;
}

/** What the thread starts from: the bundle, where its pages go, and the content as the main thread's pages have it. */
interface PageThreadStart {
  entry: string;
  bundle: BundleSettings;
  target: ThreadTarget;
  source: ContentSource;
  /** The content, its topics without their posts. */
  content: SiteContent;
  /**
   * What the pages' props are made from as on the main thread: the values the last build made
   * that this one takes while their inputs are the same (page-reuse.ts sameWhile), not the page
   * keys: the main thread has keyed every page, and this one makes its routes' pages unkeyed.
   */
  reuse: Pick<PageReuse, 'listings' | 'fromShape' | 'fromTags' | 'inPlace'> & { routes: PageReuse['routes']['previous'] };
}

/** The main thread's word to the thread: the shared paths in order, and one flag each (0 free, else claimed). */
interface SharedPages {
  paths: string[];
  flags: SharedArrayBuffer;
}

/** A flag's value once the main thread or the page thread has claimed its page. */
const BY_MAIN = 1;
const BY_THREAD = 2;

/**
 * Astro's default prerenderer (`defaults`) made into the build's by `wrap` (./prerenderer.ts),
 * with a page thread when `starting` gives what it starts from, once Astro's app is set up. The
 * pages of shared routes are then settled as Astro would (the first route's where two make one
 * path), and given to Astro last and in reverse order; a page the thread has claimed first is
 * answered empty (nothing is written for it). The teardown waits for the thread.
 *
 * The thread starts once the index thread has finished (the build store's `indexFinished`) and
 * ended (`indexGone`): until then the index thread keeps the second core busy, and the three
 * threads, each holding the topics, made a build's peak memory (2.25 GB at 100,000 topics, 1.84 GB
 * with the start put off, in the same time; a 7.7 GB peak at 1,000,000). With more than two cores
 * (`cores`) it also starts when Astro comes to the first shared page, if that is sooner. Once the
 * index thread has finished, the next page waits for its end: this thread hears of it only when it
 * next looks at its messages, which it may not do for minutes while it renders (156 s at 1,000,000
 * topics), the index thread's memory held all that time. `start` starts the thread
 * (startPageThread; another in tests).
 */
export function threadedPrerenderer(defaults: AstroPrerenderer, wrap: (defaults: AstroPrerenderer) => AstroPrerenderer, starting: (app: BundleApp) => Parameters<typeof startPageThread> | undefined, { start = startPageThread, cores = availableParallelism() }: { start?: typeof startPageThread; cores?: number } = {}): AstroPrerenderer {
  let thread: PageThread | undefined;
  /** What the thread starts from, once Astro's app is set up; the shared pages, once settled. */
  let from: Parameters<typeof startPageThread> | undefined;
  let given: SharedPages | undefined;
  /** Set once the teardown has begun: a page still waiting for the index thread's end starts no thread. */
  let closing = false;
  const startThread = () => {
    if (closing) return;
    thread = start(...from!);
    if (given) thread.share(given);
  };
  const indexFinished = () => buildStore().indexFinished?.() ?? true;
  /** Set once the index thread's end has been waited for. */
  let indexEnded = false;
  /** Set once this thread has come to the shared pages. */
  let atShared = false;
  let target: ThreadTarget | undefined;
  let flags: Int32Array | undefined;
  /** A shared page's index by the address Astro renders it at. */
  const indexOf = new Map<string, number>();
  const app = () => (defaults as unknown as { app: BundleApp }).app;
  const settled = async () => {
    const paths = await defaults.getStaticPaths();
    const { own, sharing } = sharedLast(paths);
    const { base } = target!.pageFiles;
    const origin = new URL(target!.site).origin;
    sharing.forEach(({ pathname, route }, index) => indexOf.set(renderedUrl(pathname, route, base, target!.trailingSlash, origin).href, index));
    flags = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, sharing.length)));
    given = { paths: sharing.map(({ pathname }) => pathname), flags: flags.buffer as SharedArrayBuffer };
    thread?.share(given);
    return [...own, ...sharing.reverse()];
  };
  const wrapped = wrap({
    ...defaults,
    getStaticPaths: () => (from ? settled() : defaults.getStaticPaths()),
    async render(request, options) {
      if (from && !indexEnded && indexFinished()) {
        await buildStore().indexGone;
        indexEnded = true;
      }
      if (from && !thread && (indexEnded || (cores > 2 && flags !== undefined && shared(options.routeData)))) startThread();
      if (flags && shared(options.routeData)) {
        const index = indexOf.get(request.url);
        if (index === undefined) throw new Error(`${request.url} is not among the pages shared with the page thread (TAGSITE_PAGE_THREAD=0 leaves every page to Astro)`);
        // A thread started before this one came to the shared pages has claimed its first page before
        // this one claims any: it never starts for nothing. One started later is not waited for.
        if (!atShared && thread) await thread.started;
        atShared = true;
        if (Atomics.compareExchange(flags, index, 0, BY_MAIN) !== 0) return { response: new Response(null) };
      }
      return defaults.render(request, options);
    },
  });
  return {
    ...wrapped,
    async setup() {
      await wrapped.setup?.();
      pageModulesLoadedOnce(app());
      from = starting(app());
      if (from) target = from[2];
    },
    async teardown() {
      closing = true;
      try {
        await wrapped.teardown?.();
      } finally {
        // A thread not given its pages renders none: the build failed before they were settled.
        if (thread && !flags) await thread.stop();
      }
      if (thread && flags) buildStore().renderedByThread = await thread.finished();
    },
  };
}

/**
 * `paths` as Astro orders and settles them (the first of two with one path is built, with Astro's
 * warning), parted into the pages of shared routes and the others.
 */
export function sharedLast(paths: readonly RoutePath[]): { own: RoutePath[]; sharing: RoutePath[] } {
  const seen = new Map<string, RoutePath>();
  const own: RoutePath[] = [];
  const sharing: RoutePath[] = [];
  for (const path of paths) {
    const bare = path.pathname.replace(/\/$/, '');
    const winner = seen.get(bare);
    if (winner) {
      console.warn(`Could not render \`${bare}\` from route \`${path.route.route}\` as it conflicts with higher priority route \`${winner.route.route}\`.`);
      continue;
    }
    seen.set(bare, path);
    (shared(path.route) ? sharing : own).push(path);
  }
  return { own, sharing };
}

interface PageThread {
  /** Gives the thread the shared pages: it starts rendering them. */
  share(pages: SharedPages): void;
  /** Resolves once the thread has claimed the first shared page (or there is none), or has failed. */
  started: Promise<void>;
  /** How many pages the thread rendered, once it has finished. */
  finished(): Promise<number>;
  /** Ends the thread, whatever it is doing. */
  stop(): Promise<void>;
}

/** Starts the page thread with the bundle whose entry module is `entry`; it waits to be given its pages. */
export function startPageThread(entry: string, bundle: BundleSettings, target: ThreadTarget, content: SiteContent & { from: ContentSource }, reuse: PageReuse): PageThread {
  const { from: source, ...rest } = content;
  const start: PageThreadStart = {
    entry,
    bundle,
    target,
    source,
    // The build's records hold no post where its memory holds it (../content/load.ts, withoutPosts): only the others are copied without.
    content: { ...rest, keptPosts: undefined, topics: rest.topics.map(withoutPost) },
    reuse: { listings: reuse.listings, fromShape: reuse.fromShape, fromTags: reuse.fromTags, inPlace: reuse.inPlace, routes: new Map([...reuse.routes.previous].filter(([, route]) => route.value !== undefined)) },
  };
  const worker = new Worker(new URL(import.meta.url), { workerData: { pageThread: start }, resourceLimits: THREAD_LIMITS });
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = new Promise<number>((resolve, reject) => {
    worker.on('message', (message: 'started' | number) => (message === 'started' ? markStarted() : resolve(message)));
    worker.once('error', (error: Error) => reject(new Error(`the page thread failed: ${error.message}`)));
    worker.once('exit', (code) => reject(new Error(`the page thread stopped (exit code ${code})`)));
  });
  done.catch(() => undefined); // a failure is reported when the build waits for the thread
  return {
    share: (pages) => worker.postMessage(pages),
    started: Promise.race([started, done.then(() => undefined, () => undefined)]),
    async finished() {
      try {
        return await done;
      } finally {
        await worker.terminate();
      }
    },
    async stop() {
      await worker.terminate();
    },
  };
}

/** The thread: renders the shared pages from the first on, until it comes to one the main thread has claimed. */
async function renderInThread(start: PageThreadStart): Promise<number> {
  const port = parentPort!;
  const given = new Promise<SharedPages>((resolve) => port.once('message', resolve));
  const app = await bundleApp(start.entry, start.bundle);
  const { content, source, target } = start;
  shareNames(content.topics);
  const reuse: PageReuse = { ...start.reuse, previous: new Map(), next: new Map(), reused: new Set(), carried: new Set(), routes: { previous: start.reuse.routes, next: new Map() }, postsShown: 0 };
  Object.assign(buildStore(), { source, content: { ...content, from: source }, reuse, unkeyed: true, rendered: 0 });
  // The shared routes' pages as this thread's getStaticPaths make them (with their props), by path:
  // all of them, those the main thread has not given it too (reused from the previous output).
  const mine = new Map((await pathsOfRoutes(app, shared)).map((path) => [path.pathname, path]));
  const prerenderer = writingPrerenderer(
    { name: 'astro:default', getStaticPaths: async () => [], render: async (request, { routeData }) => ({ response: await app.render(request, { routeData }) }) },
    { ...target.pageFiles, writeHere: true },
  );
  const { base } = target.pageFiles;
  const origin = new URL(target.site).origin;
  const inPublic = publicFiles(target.pageFiles.publicDir);
  const { paths, flags: buffer } = await given;
  const flags = new Int32Array(buffer);
  if (paths.length === 0) port.postMessage('started');
  await prerenderer.setup?.();
  try {
    for (let index = 0; index < paths.length; index++) {
      if (Atomics.compareExchange(flags, index, 0, BY_THREAD) !== 0) break; // the main thread renders the rest
      if (index === 0) port.postMessage('started');
      const path = mine.get(paths[index]!);
      if (!path) throw new Error(`the page thread has no page ${paths[index]} (its getStaticPaths gave other pages than the main thread's)`);
      const rendered = await prerenderer.render(new Request(renderedUrl(path.pathname, path.route, base, target.trailingSlash, origin)), { routeData: path.route });
      const response = rendered instanceof Response ? rendered : rendered.response;
      // Written by the prerenderer, or public/'s file, which wins as in Astro's build.
      if (response.body && !inPublic.has(routeFile(path.pathname, path.route))) throw new Error(`${path.pathname} answered with status ${response.status}, which the page thread does not write (TAGSITE_PAGE_THREAD=0 leaves every page to Astro)`);
    }
  } finally {
    await prerenderer.teardown?.();
  }
  // Its topics have no posts: a page that showed one would have shown it empty.
  if (reuse.postsShown > 0) throw new Error('a listing page asked for a post, which the page thread does not have (TAGSITE_PAGE_THREAD=0 leaves every page to Astro)');
  return buildStore().rendered ?? 0;
}

if (!isMainThread && parentPort && (workerData as { pageThread?: PageThreadStart })?.pageThread) {
  renderInThread((workerData as { pageThread: PageThreadStart }).pageThread).then(
    (rendered) => parentPort!.postMessage(rendered),
    (error: unknown) => {
      throw error;
    },
  );
}
