/**
 * Rendering routes' pages with the page code Astro bundled for prerendering, outside Astro's build:
 * by a content rebuild with the code the last full build kept (./kept-renderer.ts), and by the page
 * thread of a full build (./page-thread.ts). Astro's own runtime renders them through the same
 * prerenderer as in Astro's build (./prerenderer.ts), so the files are the ones it writes.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroPrerenderer, RouteData } from 'astro';
import { publicFiles, STATUS_PAGES, writingPrerenderer, type PageFiles } from './prerenderer.ts';
import { writer } from './write-files.ts';
import { buildStore, type PageReuse } from './store.ts';
import { stillAsRead } from './page-reads.ts';

/** The prerender bundle's app (Astro's `BuildApp`): what the default prerenderer calls on it. */
export interface BundleApp {
  setInternals(internals: { pagesByKeys: Map<string, { styles: unknown[] }>; entrySpecifierToBundleMap: Map<string, string> }): void;
  setOptions(options: { settings: { scripts: unknown[] }; logger: { options: { destination: unknown } } }): void;
  render(request: Request, options: { routeData: RouteData }): Promise<Response>;
  getSettings?(): { scripts?: Array<{ stage?: string }> };
  manifest: { routes: Array<{ routeData: RouteData }>; pageMap?: Map<string, () => Promise<unknown>> };
}

/**
 * Makes each route's page module of `app` load once: Astro's runtime asks its page map for the
 * module of every page it renders, and each ask is a dynamic `import()` through Node's module
 * loader (some 40 µs, half a second of a 10,000-topic build's main thread), which gives the same
 * module every time. Each route's first import is kept and given again. Returns `app`.
 */
export function pageModulesLoadedOnce<A extends Pick<BundleApp, 'manifest'>>(app: A): A {
  const { pageMap } = app.manifest;
  if (!pageMap) return app;
  for (const [component, load] of pageMap) {
    let loaded: Promise<unknown> | undefined;
    // A failed import is not kept: the next page asks Node again, as Astro would.
    const forget = (error: unknown) => {
      loaded = undefined;
      throw error;
    };
    pageMap.set(component, () => (loaded ??= load().catch(forget)));
  }
  return app;
}

/** What rendering with a bundle needs of the build that made it, besides the bundle. */
export interface BundleSettings {
  /** Each route's style sheets, by Astro's page key (`route&component`). */
  styles: Array<[key: string, styles: unknown[]]>;
  /** Scripts integrations injected (`injectScript`), which Astro puts into every page's <head>. */
  scripts: unknown[];
}

/** The app of the bundle whose entry module is `entry` (a file), set up as Astro's build sets it up for its pages. */
export async function bundleApp(entry: string, { styles, scripts }: BundleSettings): Promise<BundleApp> {
  const { app } = (await import(pathToFileURL(entry).href)) as { app: BundleApp };
  const destination = (await import('astro/logger/node')).default({ level: 'warn' });
  app.setInternals({ pagesByKeys: new Map(styles.map(([key, styles]) => [key, { styles }])), entrySpecifierToBundleMap: new Map() });
  app.setOptions({ settings: { scripts }, logger: { options: { destination } } });
  return pageModulesLoadedOnce(app);
}

/** The entry module of the bundle Astro wrote into `prerenderDir` (a file), if it is there. */
export function prerenderEntry(prerenderDir: string): string | undefined {
  const name = existsSync(prerenderDir) ? readdirSync(prerenderDir).find((file) => file.startsWith('prerender-entry') && file.endsWith('.mjs')) : undefined;
  return name && join(prerenderDir, name);
}

/** A route's path to render, as Astro's `StaticPaths` gives it. */
export interface RoutePath {
  pathname: string;
  route: RouteData;
}

/** The paths of the routes of `app` that `keep` takes, in Astro's order (its `StaticPaths`, over those routes only). */
export async function pathsOfRoutes(app: BundleApp, keep: (route: RouteData) => boolean): Promise<RoutePath[]> {
  const { StaticPaths } = await import('astro/runtime/prerender/static-paths.js');
  const manifest = { ...app.manifest, routes: app.manifest.routes.filter(({ routeData }) => keep(routeData)) };
  // The app as StaticPaths sees it, with those routes only: its methods stay the app's own.
  const some = new Proxy(app, {
    get(target, name) {
      if (name === 'manifest') return manifest;
      const value = Reflect.get(target, name) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new StaticPaths(some as never).getAll();
}

/** Where and how a bundle's pages are rendered. */
export interface RenderTarget {
  /** The folder the pages go into (the build's fresh folder). */
  outDir: string;
  /** The previous output, which reused pages are linked from. */
  from: string;
  reuse: PageReuse;
  /** Astro's `site`. */
  site: string;
  pageFiles: Omit<PageFiles, 'outDir' | 'reuse'>;
  trailingSlash: string;
}

/** Every route's pages, as Astro's build renders them (its `generatePages`); returns the pages' names as `astro:build:done` gives them. */
export async function renderPages(app: BundleApp, target: RenderTarget): Promise<string[]> {
  const { outDir, reuse, pageFiles, trailingSlash } = target;
  const defaults: AstroPrerenderer = {
    name: 'astro:default',
    getStaticPaths: () => pathsOfRoutes(app, () => true),
    render: async (request, { routeData }) => ({ response: await app.render(request, { routeData }) }),
  };
  const prerenderer = writingPrerenderer(defaults, { outDir, ...pageFiles, reuse: { from: target.from, pages: reuse } });
  const { base } = pageFiles;
  const origin = new URL(target.site).origin;
  const files = writer(outDir);
  const inPublic = publicFiles(pageFiles.publicDir);
  const pages: string[] = [];
  const { content } = buildStore();
  await prerenderer.setup?.();
  try {
    const seen = new Set<string>();
    for (const { pathname, route } of await prerenderer.getStaticPaths()) {
      // Two routes with one path: the first is built (Astro warns of the conflict in a full build).
      const path = pathname.replace(/\/$/, '');
      if (seen.has(path)) continue;
      seen.add(path);
      const file = routeFile(pathname, route);
      // A page or endpoint without parameters whose parts of the site's data are as they were (./page-reads.ts) is reused, not rendered.
      const earlier = route.params.length === 0 ? reuse.previous.get(file) : undefined;
      if (earlier !== undefined && content && stillAsRead(earlier, reuse, content)) {
        reuse.next.set(file, earlier);
        reuse.reused.add(file);
        continue;
      }
      if (route.type === 'page') pages.push(`/${(trailingSlash === 'never' ? pathname : pathname.replace(/\/?$/, '/')).replace(/^\//, '')}`);
      const { response } = normalized(await prerenderer.render(new Request(renderedUrl(pathname, route, base, trailingSlash, origin)), { routeData: route }));
      if (response.status >= 300 && response.status < 400) throw new Error(`${pathname} answered with a redirect, which a rebuild does not write: run npm run build -- --clean`);
      if (!response.body) continue; // written by the page writer
      if (inPublic.has(file)) continue; // public/'s file wins, as in Astro's build
      files.write(file, Buffer.from(await response.arrayBuffer()));
    }
  } finally {
    await prerenderer.teardown?.();
  }
  return pages;
}

/** The file of a route's path in the site, as Astro's build names it for the `directory` format. */
export function routeFile(pathname: string, route: RouteData): string {
  if (route.type === 'endpoint') return pathname.slice(1);
  return STATUS_PAGES.has(pathname) ? `${pathname.slice(1)}.html` : [pathname.replace(/^\/+|\/+$/g, ''), 'index.html'].filter(Boolean).join('/');
}

const normalized = (rendered: Response | { response: Response }) => (rendered instanceof Response ? { response: rendered } : rendered);

/** The address Astro's build renders a path at (its `getUrlForPath`, for the `directory` format). */
export function renderedUrl(pathname: string, route: RouteData, base: string, trailingSlash: string, origin: string): URL {
  const prefix = base.replace(/\/+$/, '');
  const inside = pathname.replace(/^\/+/, '');
  let path: string;
  if (inside === '') path = trailingSlash === 'never' ? prefix || '/' : `${prefix}/`;
  else if (route.type === 'endpoint') {
    path = `${prefix}/${inside}`;
    if (trailingSlash === 'always' && !/\.\w+$/.test(path)) path = `${path}/`;
    if (trailingSlash === 'never') path = path.replace(/\/+$/, '');
  } else path = `${prefix}/${inside.replace(/\/+$/, '')}${trailingSlash === 'never' ? '' : '/'}`;
  return new URL(path, origin);
}
