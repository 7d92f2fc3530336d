import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { resolveOptions, type ResolvedOptions, type TagsiteOptions } from './options.ts';
import { ContentProblemsError, type Problem } from '../content/problems.ts';
import { publishedListPaths, workflowAddressProblems } from '../outputs/workflow-list.ts';
import { writeWorkflowHeaders } from '../outputs/headers.ts';
import { forgetContent, setContentSource } from '../build/store.ts';
import { siteRootUrl } from '../model/urls.ts';
import { writeBuildFiles } from '../build/write-files.ts';

const VIRTUAL_ID = 'virtual:tagsite/options';

/** The tagsite integration, with its options validated and resolved once. */
export interface TagsiteIntegration extends AstroIntegration {
  /** Options with defaults filled in (meaningful only when `problems` is empty). */
  resolved: ResolvedOptions;
  /** What is wrong with the options given, one problem per option. */
  problems: Problem[];
}

/**
 * tagsite's Astro integration: `tagsite({...})` in astro.config.mjs owns the site options
 * (schemas/options.schema.json) and hands them to pages and loaders as `virtual:tagsite/options`.
 */
export default function tagsite(options: TagsiteOptions = {}): TagsiteIntegration {
  const { options: resolved, problems: optionProblems } = resolveOptions(options);
  const problems = optionProblems.length > 0 ? optionProblems : workflowAddressProblems(resolved.workflows);
  const listPaths = publishedListPaths(resolved.workflows);
  let base = '/';
  let site: string | undefined;
  let contentDir = '';
  return {
    name: 'tagsite',
    resolved,
    problems,
    hooks: {
      'astro:config:setup': ({ updateConfig, injectRoute, config, command }) => {
        if (problems.length > 0) throw new ContentProblemsError(problems);
        base = config.base;
        site = config.site;
        // The content folder: content/, or another one given by `npm run build -- --content <dir>`.
        const root = fileURLToPath(config.root);
        contentDir = resolve(root, process.env.TAGSITE_CONTENT ?? 'content');
        setContentSource({ root, contentDir, excerptLength: resolved.excerptLength });
        // The workflow list file, at each of its addresses that is on this site.
        for (const pattern of listPaths) injectRoute({ pattern, entrypoint: new URL('./routes/workflow-list.ts', import.meta.url), prerender: true });
        // `astro build` writes these files itself when the pages are done (src/build-files.ts).
        if (command === 'dev') {
          injectRoute({ pattern: '/search-index/[...file]', entrypoint: new URL('./routes/search-index.ts', import.meta.url), prerender: true });
          injectRoute({ pattern: '/tags/[tag]/rss.xml', entrypoint: new URL('./routes/tag-feed.ts', import.meta.url), prerender: true });
        }
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'tagsite-options',
                resolveId: (id: string) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
                load: (id: string) => (id === `\0${VIRTUAL_ID}` ? `export default ${JSON.stringify(resolved)};` : undefined),
              },
            ],
          },
        });
      },
      // `astro dev`: an edit under the content folder reloads the records and the open pages.
      'astro:server:setup': ({ server }) => {
        server.watcher.add(contentDir);
        server.watcher.on('all', (_event, path) => {
          if (!path.startsWith(contentDir)) return;
          forgetContent();
          server.ws.send({ type: 'full-reload' });
        });
      },
      'astro:build:done': async ({ dir, pages }) => {
        writeWorkflowHeaders(fileURLToPath(dir), listPaths, base, resolved.workflows.cacheSeconds);
        await writeBuildFiles(fileURLToPath(dir), {
          siteRoot: siteRootUrl(site, base),
          siteTitle: resolved.title,
          pages: pages.map(({ pathname }) => `/${pathname}`),
        });
      },
    },
  };
}
