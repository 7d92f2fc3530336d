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
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroConfig, AstroPrerenderer } from 'astro';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { schemasChecked } from '../content/schema-validation.ts';
import { carryOver } from './cache.ts';
import { trimCompileCache } from './compile-cache.ts';
import { sameFile, type FolderListing } from './folder-files.ts';
import { finishBuild, pagesStarting, prepareBuild, withOutputLock, type Build } from './pipeline.ts';
import type { ModuleGraph } from './module-preloads.ts';
import { publicFiles } from './prerenderer.ts';
import { bundleApp, prerenderEntry, renderPages, type BundleApp } from './page-rendering.ts';
import type { BuildOutcome } from './store.ts';
import type { ContentListing } from './unchanged.ts';
import { HEAD, type KeptRenderer } from './renderer-head.ts';

/** Integrations whose build hooks a content rebuild does not need: tagsite's own and MDX (none). */
const KNOWN_INTEGRATIONS = new Set(['tagsite', '@astrojs/mdx']);

/** What Astro's build knows of a route's page that a content rebuild needs (its `PageBuildData`). */
export interface PageData {
  route: { type: string };
  styles: unknown[];
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
  let bundle: { name: string; entry: string; scripts: Array<{ stage?: string }> } | undefined;
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
      const entry = prerenderEntry(prerenderDir);
      if (!scripts || !entry) return;
      const name = `bundle-${process.pid}-${Date.now()}`;
      cpSync(prerenderDir, join(folder, name), { recursive: true });
      bundle = { name, entry: basename(entry), scripts };
    },
    /** The build is done and `outcome.outDir` holds its site: the renderer is kept, if the site allows. */
    built(build: Build, outcome: BuildOutcome, modules: ModuleGraph): void {
      if (!config || !pages || !bundle) return;
      if (!renderableOutsideAstro(config, pages, bundle.scripts)) return;
      const inPublic = publicFiles(publicDir(config));
      const assets = outcome.output.files.filter(([path]) => path.startsWith(`${config!.build.assets}/`) || inPublic.has(path));
      const kept: KeptRenderer = {
        inputs,
        bundle: bundle.name,
        entry: bundle.entry,
        settings: build.settings,
        pageFiles: { base: config.base, format: config.build.format, publicDir: publicDir(config), modules },
        trailingSlash: config.trailingSlash,
        styles: routeStyles(pages),
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

/**
 * Whether the site's pages render alike outside Astro's build, with its bundle (./page-rendering.ts):
 * the `directory` build format, no integrations besides tagsite and MDX (their build hooks would
 * not run), no Astro redirect routes, no scripts injected into pages.
 */
export function renderableOutsideAstro(config: AstroConfig, pages: ReadonlyMap<string, PageData>, scripts: ReadonlyArray<{ stage?: string }>): boolean {
  return (
    config.build.format === 'directory' &&
    onlyKnownIntegrations(config) &&
    [...pages.values()].every(({ route }) => route.type === 'page' || route.type === 'endpoint') &&
    !scripts.some((script) => script.stage === 'page')
  );
}

/** Whether the project's integrations are tagsite's and MDX alone (and Astro's own): none renders, routes or wraps pages besides Astro. */
export const onlyKnownIntegrations = (config: Pick<AstroConfig, 'integrations'>): boolean => config.integrations.every(({ name }) => KNOWN_INTEGRATIONS.has(name) || name.startsWith('astro:'));

/** Each route's style sheets, by Astro's page key, as a bundle renders with them (BundleSettings.styles). */
export const routeStyles = (pages: ReadonlyMap<string, PageData>): Array<[string, unknown[]]> => [...pages].map(([key, { styles }]) => [key, styles]);

const publicDir = (config: AstroConfig) => fileURLToPath(config.publicDir);

/**
 * Builds `contentDir` with the renderer kept in `folder`: the same steps as a full build
 * (./pipeline.ts), with the pages rendered by the kept code. Undefined, before anything is read
 * or written, when the previous output's browser files are not as its build left them, or the
 * kept code does not load: then a full build makes them. The content is read once `listed` (the
 * content's listing for the stamp) has been taken, with the files' stamps it noted; the build's
 * caches are read while it is taken. It holds the output's lock throughout; when `lastOutput`
 * (checked under that lock) gives the output as the last build left it, the output is updated in
 * place (./in-place.ts).
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
  try {
    app = await bundleApp(join(folder, kept.bundle, kept.entry), kept);
  } catch {
    return undefined;
  }
  // The build that kept this code compiled the same schemas (they are among its inputs).
  schemasChecked();
  // Awaited once the build has read its caches (the topic memory among them), which it reads meanwhile.
  const stamps = listed.then((listing) => listing.stamps);
  stamps.catch(() => undefined); // a failed listing fails the build there

  return withOutputLock(settings.root, settings.outDir, async () => {
    // Checked while the content is read.
    const stamped = lastOutput().then((output) => (output?.outDir === settings.outDir ? output : undefined));
    const build = await prepareBuild({ ...settings, contentDir, clean: false }, stamped, stamps);
    pagesStarting(build, false);
    const pages = await renderPages(app, { outDir: build.fresh, from: settings.outDir, reuse: build.reuse, site: settings.site!, pageFiles: kept.pageFiles, trailingSlash: kept.trailingSlash });
    const assets = kept.assets.map(([path]) => path);
    if (build.previous) for (const path of assets) build.keep.add(path);
    else carryOver(assets, settings.outDir, build.fresh);
    return finishBuild(build, pages);
  });
}
