import type { AstroConfig, AstroIntegration } from 'astro';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { resolveOptions, type ResolvedOptions, type TagsiteOptions } from './options.ts';
import { ContentProblemsError, type Problem } from '../content/problems.ts';
import { stopOnProblems } from '../cli/project.ts';
import { publishedLists } from '../outputs/workflow-list.ts';
import { buildStore } from '../build/store.ts';
import { securityHeaders } from '../outputs/headers.ts';
import { finishBuild, holdOutputLock, pagesStarting, prepareBuild, type Build } from '../build/pipeline.ts';
import { writingPrerenderer } from '../build/prerenderer.ts';
import { modulePreloadPlugin, type ModuleGraph } from '../build/module-preloads.ts';
import { hasMiddleware, pageHtmlPlugin } from '../build/page-html.ts';
import { onlyKnownIntegrations, renderableOutsideAstro, rendererKeeper, routeStyles, type PageData, type RendererKeeper } from '../build/kept-renderer.ts';
import { pageThreadWanted, threadedPrerenderer } from '../build/page-thread.ts';
import { prerenderEntry } from '../build/page-rendering.ts';
import { FIRST_PAINT_SCRIPT } from '../outputs/first-paint.ts';

const VIRTUAL_ID = 'virtual:tagsite/options';
/** The script listing pages inline in <head> (src/outputs/first-paint.ts). */
const FIRST_PAINT_ID = 'virtual:tagsite/first-paint';

/**
 * The project's own browser modules that two or more page scripts import, in one chunk: left to
 * itself the bundler splits them by which scripts share them, into chunks that import each other,
 * which a browser then fetches one after another before the search can start. Word matching, which
 * /search/'s own script imports and other pages only when words are searched, stays a file of its
 * own, so those pages do not load it with the shared code.
 */
const SHARED_CLIENT_CODE = {
  // Vite's helper for `import()` too: word matching and the page scripts both use it.
  groups: [{ name: 'shared', test: /[\\/]src[\\/](?!search[\\/]word-match\.ts$)(client|model|search|components)[\\/]|vite[\\/]preload-helper/, minShareCount: 2 }],
};

/** The tagsite integration, with its options validated and resolved once. */
export interface TagsiteIntegration extends AstroIntegration {
  /** Options with defaults filled in (meaningful only when `problems` is empty). */
  resolved: ResolvedOptions;
  /** What is wrong with the options given, one problem per option. */
  problems: Problem[];
}

/**
 * Whether a build takes each page's HTML from Astro's renderer as a string (src/build/page-html.ts):
 * where nothing but Astro stands between them (no other integration, no middleware of the
 * project's). `TAGSITE_PAGE_HTML=0` leaves every page's Response to Astro.
 */
function pageHtmlTaken(config: Pick<AstroConfig, 'integrations' | 'srcDir'>): boolean {
  return process.env.TAGSITE_PAGE_HTML !== '0' && onlyKnownIntegrations(config) && !hasMiddleware(fileURLToPath(config.srcDir));
}

/**
 * tagsite's Astro integration: `tagsite({...})` in astro.config.mjs owns the site options
 * (schemas/options.schema.json), hands them to pages as `virtual:tagsite/options`, and runs the
 * build pipeline (src/build/pipeline.ts) inside every `astro build`.
 */
export default function tagsite(options: TagsiteOptions = {}): TagsiteIntegration {
  const { options: resolved, problems } = resolveOptions(options);
  const lists = publishedLists(resolved.workflows);
  const listPaths = lists.map(({ path }) => path);
  let build: Build | undefined;
  /** Releases the output's lock, held from before the build looks at the output until its site is in place. */
  let releaseOutput: (() => void) | undefined;
  let keeper: RendererKeeper | undefined;
  let contentDir = '';
  let pageFiles = { base: '/', format: 'directory', publicDir: '' };
  let astroConfig: AstroConfig | undefined;
  /** Astro's page data, filled in as the build goes (`astro:build:setup`'s `pages`). */
  let knownPages: Map<string, PageData> | undefined;
  /** The client bundle's imports, known once Vite has written it, before Astro renders the pages. */
  const modules: ModuleGraph = { imports: {} };
  return {
    name: 'tagsite',
    resolved,
    problems,
    hooks: {
      'astro:config:setup': async ({ updateConfig, injectRoute, config, command }) => {
        const root = fileURLToPath(config.root);
        const store = buildStore();
        // `npm run build -- --content <dir> --clean` asks through the store; a plain `astro build` builds content/.
        const request = store.request ?? {};
        store.request = undefined;
        contentDir = request.contentDir ?? resolve(root, 'content');
        store.source = { root, contentDir, excerptLength: resolved.excerptLength };
        store.content = undefined;

        if (command === 'build') {
          // `npm run build` keeps the page code for its next build (src/build/kept-renderer.ts).
          keeper = request.keepRenderer ? rendererKeeper(request.keepRenderer.folder, request.keepRenderer.inputs) : undefined;
          const outDir = resolve(fileURLToPath(config.outDir));
          // Builds of one output take turns: the pages this one reuses stay as it found them until its swap.
          // A build that stops on problems gives the lock back; one that fails later leaves it to its
          // process, and the next build takes it over once that is gone.
          const release = await holdOutputLock(root, outDir);
          releaseOutput = release;
          const prepared = prepareBuild({
            root,
            outDir,
            contentDir,
            clean: request.clean ?? false,
            siteTitle: resolved.title,
            excerptLength: resolved.excerptLength,
            limits: resolved.limits,
            intersections: resolved.intersections,
            site: config.site,
            base: config.base,
            workflowLists: { paths: listPaths, cacheSeconds: resolved.workflows.cacheSeconds },
            securityHeaders: securityHeaders({ topicImages: resolved.topicImages, connect: [resolved.workflows.primaryUrl, resolved.workflows.backupUrl], images: [resolved.workflows.screenshotBase], inlineScripts: [FIRST_PAINT_SCRIPT] }),
            problems: problems.map((problem) => ({ ...problem, file: request.configFile ?? problem.file })),
            configDigest: JSON.stringify([resolved, config.site ?? '', config.base, config.trailingSlash, config.build.format]),
          });
          prepared.catch(() => {
            release();
            releaseOutput = undefined;
          });
          build = await stopOnProblems(prepared);
          // Astro renders into the build's own folder; the site takes the output's place when complete.
          // The folder is new, and the search index is already being written into it: Astro must not empty it.
          updateConfig({ outDir: pathToFileURL(`${build.fresh}/`), cacheDir: pathToFileURL(`${build.cacheDir}/astro/`), vite: { build: { emptyOutDir: false } } });
        } else if (problems.length > 0) {
          throw new ContentProblemsError(problems);
        }

        // The workflow lists, each key style at each of its addresses that is on this site.
        for (const { path: pattern, style } of lists) {
          const route = style === 'hyphenated' ? './routes/workflow-list.ts' : './routes/workflow-list-underscore.ts';
          injectRoute({ pattern, entrypoint: new URL(route, import.meta.url), prerender: true });
        }
        // A build writes these from its worker thread; `astro dev` serves them through routes.
        if (command === 'dev') {
          injectRoute({ pattern: '/search-index/[...file]', entrypoint: new URL('./routes/search-index.ts', import.meta.url), prerender: true });
          injectRoute({ pattern: '/tags/[tag]/rss.xml', entrypoint: new URL('./routes/tag-feed.ts', import.meta.url), prerender: true });
          injectRoute({ pattern: '/tags/intersection/[a]/[b]/rss.xml', entrypoint: new URL('./routes/intersection-feed.ts', import.meta.url), prerender: true });
          // A site being developed has fewer than the 45,000 pages that start a second sitemap file.
          for (const pattern of ['/sitemap-index.xml', '/sitemap-0.xml']) injectRoute({ pattern, entrypoint: new URL('./routes/sitemap.ts', import.meta.url), prerender: true });
        }
        updateConfig({
          vite: {
            // The browser's code shared by several pages' scripts goes into one file, which each
            // script imports directly: a page waits for one more file, never a chain of them.
            environments: { client: { build: { rolldownOptions: { output: { codeSplitting: SHARED_CLIENT_CODE } } } } },
            plugins: [
              modulePreloadPlugin((graph) => Object.assign(modules, graph)),
              // Each page's HTML goes to the build as a string, where nothing but Astro stands between (src/build/page-html.ts).
              ...(pageHtmlTaken(config) ? [pageHtmlPlugin()] : []),
              {
                name: 'tagsite-options',
                resolveId: (id: string) => (id === VIRTUAL_ID || id === FIRST_PAINT_ID ? `\0${id}` : undefined),
                load: (id: string) => {
                  if (id === `\0${VIRTUAL_ID}`) return `export default ${JSON.stringify(resolved)};`;
                  if (id === `\0${FIRST_PAINT_ID}`) return `export default ${JSON.stringify(FIRST_PAINT_SCRIPT)};`;
                  return undefined;
                },
              },
            ],
          },
        });
      },
      'astro:config:done': ({ config }) => {
        astroConfig = config;
        pageFiles = { base: config.base, format: config.build.format, publicDir: fileURLToPath(config.publicDir) };
        keeper?.configured(config);
      },
      'astro:build:setup': ({ pages }) => {
        knownPages = pages;
        keeper?.pagesKnown(pages);
      },
      // Pages are rendered by Astro and written by a thread of their own (src/build/prerenderer.ts);
      // a large site's listings are shared with a second renderer (src/build/page-thread.ts).
      'astro:build:start': ({ setPrerenderer }) => {
        if (!build) return;
        const running = build;
        const { fresh, reuse, settings } = running;
        setPrerenderer((defaults) => {
          const keeping = keeper;
          const known = knownPages;
          const prerenderer = threadedPrerenderer(
            defaults,
            (own) => writingPrerenderer(own, { outDir: fresh, ...pageFiles, modules, reuse: { from: settings.outDir, pages: reuse } }),
            // A large site's pages render in two threads in its full build (src/build/page-thread.ts).
            (app) => {
              const content = buildStore().content;
              const scripts = app.getSettings?.().scripts;
              const entry = prerenderEntry(join(fresh, '.prerender'));
              if (!content || !known || !scripts || !entry || !astroConfig || !renderableOutsideAstro(astroConfig, known, scripts) || !pageThreadWanted(content.topics.length)) return undefined;
              return [entry, { styles: routeStyles(known), scripts }, { pageFiles: { outDir: fresh, ...pageFiles, modules }, from: settings.outDir, site: settings.site!, trailingSlash: astroConfig.trailingSlash }, content, reuse];
            },
          );
          return { ...prerenderer, setup: async () => {
            // Astro has bundled the page code: the pages render from here on.
            pagesStarting(running, true);
            await prerenderer.setup?.();
            // The bundle is there while pages render; Astro deletes it before the build ends.
            keeping?.bundleWritten(join(fresh, '.prerender'), defaults);
          } };
        });
      },
      // `astro dev`: an edit under the content folder reloads the records and the open pages.
      'astro:server:setup': ({ server }) => {
        server.watcher.add(contentDir);
        server.watcher.on('all', (_event, path) => {
          if (!path.startsWith(contentDir)) return;
          buildStore().content = undefined;
          // Astro keeps every route's getStaticPaths() until its content-changed signal: without it
          // a new topic's page would 404 and a renamed tag keep its old page.
          for (const name of ['ssr', 'prerender']) server.environments[name]?.hot.send('astro:content-changed', {});
          server.ws.send({ type: 'full-reload' });
        });
      },
      'astro:build:done': async ({ pages }) => {
        if (!build) return;
        try {
          const outcome = await finishBuild(build, pages.map(({ pathname }) => `/${pathname}`));
          keeper?.built(build, outcome, modules);
        } finally {
          releaseOutput?.();
          releaseOutput = undefined;
          build = undefined;
          keeper = undefined;
        }
      },
    },
  };
}
