/**
 * A rebuild without Astro's bundling. A full build run by `npm run build` keeps, in the build's
 * cache, the page code Astro bundled for prerendering (the routes, the components, their
 * getStaticPaths, Astro's runtime) and what its pages' <head> takes from that build: each route's
 * style sheets. The next `npm run build` whose inputs are the same (code, config, environment,
 * Node: ./unchanged.ts) renders with that code: the same routes and components, run by Astro's own
 * runtime through the same prerenderer (./prerenderer.ts), so it writes the pages a full build
 * writes. Only Vite's start and bundling are skipped (3–4 s of a one-topic rebuild at 10,000
 * topics), and loading Astro's build. The browser's files (Astro's `_astro/` and public/) are
 * linked from the previous output while each is as that build left it.
 *
 * A site this cannot rebuild alike is always built in full: another build format than
 * `directory`, integrations besides tagsite and MDX (their build hooks would not run), Astro
 * redirect routes or injected page scripts.
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroConfig, AstroPrerenderer, RouteData } from 'astro';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { schemasChecked } from '../content/schema-validation.ts';
import { carryOver } from './cache.ts';
import { trimCompileCache } from './compile-cache.ts';
import { sameFile, type FolderListing } from './folder-files.ts';
import { finishBuild, pagesStarting, prepareBuild, withOutputLock, type Build } from './pipeline.ts';
import type { ModuleGraph } from './module-preloads.ts';
import { publicFiles, STATUS_PAGES, writingPrerenderer } from './prerenderer.ts';
import { writer } from './write-files.ts';
import { buildStore, type BuildOutcome } from './store.ts';
import { stillAsRead } from './page-reads.ts';
import type { ContentListing } from './unchanged.ts';
import { HEAD, type KeptRenderer } from './renderer-head.ts';

/** Integrations whose build hooks a content rebuild does not need: tagsite's own and MDX (none). */
const KNOWN_INTEGRATIONS = new Set(['tagsite', '@astrojs/mdx']);

/** What Astro's build knows of a route's page that a content rebuild needs (its `PageBuildData`). */
interface PageData {
  route: { type: string };
  styles: unknown[];
}

/** The prerender bundle's app (Astro's `BuildApp`): what the default prerenderer calls on it. */
interface BundleApp {
  setInternals(internals: { pagesByKeys: Map<string, { styles: unknown[] }>; entrySpecifierToBundleMap: Map<string, string> }): void;
  setOptions(options: { settings: { scripts: unknown[] }; logger: { options: { destination: unknown } } }): void;
  render(request: Request, options: { routeData: RouteData }): Promise<Response>;
  getSettings?(): { scripts?: Array<{ stage?: string }> };
}

/**
 * During a full build, notes what a content rebuild will need, and keeps it in `folder` once the
 * build has finished. Until then the folder holds no usable renderer: a build that fails or is
 * killed leaves none, and the next build is a full one.
 */
export function rendererKeeper(folder: string, inputs: string) {
  rmSync(join(folder, HEAD), { force: true });
  let config: AstroConfig | undefined;
  let pages: Map<string, PageData> | undefined;
  let bundle: { name: string; entry: string; scripts: unknown[] } | undefined;
  return {
    configured(done: AstroConfig): void {
      config = done;
    },
    /** Astro's page data, filled in as the build goes (`astro:build:setup`'s `pages`). */
    pagesKnown(known: Map<string, PageData>): void {
      pages = known;
    },
    /** When the pages are about to be rendered: the bundle is copied (Astro deletes it after rendering). */
    bundleWritten(prerenderDir: string, defaults: AstroPrerenderer): void {
      const scripts = (defaults as { app?: BundleApp }).app?.getSettings?.().scripts;
      const entry = existsSync(prerenderDir) ? readdirSync(prerenderDir).find((name) => name.startsWith('prerender-entry') && name.endsWith('.mjs')) : undefined;
      if (!scripts || !entry || scripts.some((script) => script.stage === 'page')) return;
      const name = `bundle-${process.pid}-${Date.now()}`;
      cpSync(prerenderDir, join(folder, name), { recursive: true });
      bundle = { name, entry, scripts };
    },
    /** The build is done and `outcome.outDir` holds its site: the renderer is kept, if the site allows. */
    built(build: Build, outcome: BuildOutcome, modules: ModuleGraph): void {
      if (!config || !pages || !bundle) return;
      const supported = config.build.format === 'directory' && config.integrations.every(({ name }) => KNOWN_INTEGRATIONS.has(name) || name.startsWith('astro:')) && [...pages.values()].every(({ route }) => route.type === 'page' || route.type === 'endpoint');
      if (!supported) return;
      const inPublic = publicFiles(publicDir(config));
      const assets = outcome.output.files.filter(([path]) => path.startsWith(`${config!.build.assets}/`) || inPublic.has(path));
      const kept: KeptRenderer = {
        inputs,
        bundle: bundle.name,
        entry: bundle.entry,
        settings: build.settings,
        pageFiles: { base: config.base, format: config.build.format, publicDir: publicDir(config), modules },
        trailingSlash: config.trailingSlash,
        styles: [...pages].map(([key, { styles }]) => [key, styles]),
        scripts: bundle.scripts,
        assets,
      };
      writeFileAtomic(join(folder, HEAD), JSON.stringify(kept));
      // The bundle before this one stays: a rebuild started meanwhile may still be loading its modules.
      const older = readdirSync(folder).filter((name) => name.startsWith('bundle-') && name !== bundle!.name);
      const bornAt = (name: string) => Number(name.split('-').at(-1));
      for (const name of older.sort((a, b) => bornAt(b) - bornAt(a)).slice(1)) rmSync(join(folder, name), { recursive: true, force: true });
      // The compiled code of the page code it replaced stays in Node's compile cache meanwhile.
      trimCompileCache();
    },
  };
}

export type RendererKeeper = ReturnType<typeof rendererKeeper>;

const publicDir = (config: AstroConfig) => fileURLToPath(config.publicDir);

/**
 * Builds `contentDir` with the renderer kept in `folder`: the same steps as a full build
 * (./pipeline.ts), with the pages rendered by the kept code. Undefined, before anything is read
 * or written, when the previous output's browser files are not as its build left them, or the
 * kept code does not load: then a full build makes them. The content is read once `listed` (the
 * content's listing for the stamp) has been taken, with the files' stamps it noted. It holds the
 * output's lock throughout; when `lastOutput` (checked under that lock) gives the output as the
 * last build left it, the output is updated in place (./in-place.ts).
 */
export async function rebuildContent(
  folder: string,
  kept: KeptRenderer,
  contentDir: string,
  listed: Promise<ContentListing>,
  lastOutput: () => Promise<(FolderListing & { outDir: string }) | undefined>,
): Promise<BuildOutcome | undefined> {
  const { settings } = kept;
  if (!kept.assets.every(([path, size, mtimeMs]) => sameFile(join(settings.outDir, path), size, mtimeMs))) return undefined;
  let app: BundleApp;
  let destination: unknown;
  try {
    app = ((await import(pathToFileURL(join(folder, kept.bundle, kept.entry)).href)) as { app: BundleApp }).app;
    destination = (await import('astro/logger/node')).default({ level: 'warn' });
  } catch {
    return undefined;
  }
  app.setInternals({ pagesByKeys: new Map(kept.styles.map(([key, styles]) => [key, { styles }])), entrySpecifierToBundleMap: new Map() });
  app.setOptions({ settings: { scripts: kept.scripts }, logger: { options: { destination } } });
  // The build that kept this code compiled the same schemas (they are among its inputs).
  schemasChecked();
  const { stamps } = await listed;

  return withOutputLock(settings.root, settings.outDir, async () => {
    // Checked while the content is read.
    const stamped = lastOutput().then((output) => (output?.outDir === settings.outDir ? output : undefined));
    const build = await prepareBuild({ ...settings, contentDir, clean: false }, stamped, stamps);
    const pages = await renderPages(app, build, kept);
    const assets = kept.assets.map(([path]) => path);
    if (build.previous) for (const path of assets) build.keep.add(path);
    else carryOver(assets, settings.outDir, build.fresh);
    return finishBuild(build, pages);
  });
}

/** Every route's pages, as Astro's build renders them (its `generatePages`); returns the pages' names as `astro:build:done` gives them. */
async function renderPages(app: BundleApp, build: Build, kept: KeptRenderer): Promise<string[]> {
  const { StaticPaths } = await import('astro/runtime/prerender/static-paths.js');
  const defaults: AstroPrerenderer = {
    name: 'astro:default',
    getStaticPaths: () => new StaticPaths(app as never).getAll(),
    render: async (request, { routeData }) => ({ response: await app.render(request, { routeData }) }),
  };
  const prerenderer = writingPrerenderer(defaults, { outDir: build.fresh, ...kept.pageFiles, reuse: { from: build.settings.outDir, pages: build.reuse } });
  const { base } = kept.pageFiles;
  const origin = new URL(build.settings.site!).origin;
  const files = writer(build.fresh);
  const inPublic = publicFiles(kept.pageFiles.publicDir);
  const pages: string[] = [];
  const { content } = buildStore();
  pagesStarting(build, false);
  await prerenderer.setup?.();
  try {
    const seen = new Set<string>();
    for (const { pathname, route } of await prerenderer.getStaticPaths()) {
      // Two routes with one path: the first is built (Astro warns of the conflict in a full build).
      const path = pathname.replace(/\/$/, '');
      if (seen.has(path)) continue;
      seen.add(path);
      const file = route.type === 'endpoint' ? pathname.slice(1) : STATUS_PAGES.has(pathname) ? `${pathname.slice(1)}.html` : [pathname.replace(/^\/+|\/+$/g, ''), 'index.html'].filter(Boolean).join('/');
      // A page or endpoint without parameters whose parts of the site's data are as they were (./page-reads.ts) is reused, not rendered.
      const { reuse } = build;
      const earlier = route.params.length === 0 ? reuse.previous.get(file) : undefined;
      if (earlier !== undefined && content && stillAsRead(earlier, reuse, content)) {
        reuse.next.set(file, earlier);
        reuse.reused.add(file);
        continue;
      }
      if (route.type === 'page') pages.push(`/${(kept.trailingSlash === 'never' ? pathname : pathname.replace(/\/?$/, '/')).replace(/^\//, '')}`);
      const { response } = normalized(await prerenderer.render(new Request(renderedUrl(pathname, route, base, kept.trailingSlash, origin)), { routeData: route }));
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

const normalized = (rendered: Response | { response: Response }) => (rendered instanceof Response ? { response: rendered } : rendered);

/** The address Astro's build renders a path at (its `getUrlForPath`, for the `directory` format). */
function renderedUrl(pathname: string, route: RouteData, base: string, trailingSlash: string, origin: string): URL {
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
