// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import tagsite from './src/integration/index.ts';

export default defineConfig({
  // The site's public address: used for absolute URLs (workflow list, feeds, canonical links).
  // TAGSITE_SITE sets it for one build (the GitHub Pages workflow passes the Pages address).
  site: process.env.TAGSITE_SITE || 'https://flowsmiths.example',
  // Serve under a sub-path by setting `base`, e.g. '/community' (or TAGSITE_BASE for one build).
  base: process.env.TAGSITE_BASE || '/',
  trailingSlash: 'ignore',
  // Pages are rendered while earlier ones are still being written, so the disk is not waited on.
  build: { concurrency: 8 },
  integrations: [
    mdx(),
    // Every option, with its default, is described in schemas/options.schema.json and README.md.
    tagsite({
      title: 'Flowsmiths Community',
      excerptLength: 200,
      tagsShown: 2,
      pageSize: 25,
      alwaysShowTags: false,
      workflows: {
        primaryUrl: '/api/workflows.json',
        backupUrl: '/api/workflows-backup.json',
        backupDownloadBase: 'https://mirror.flowsmiths.example/workflows/',
        cacheSeconds: 360,
      },
      lookup: { url: 'https://lookup.example/api/dns' },
    }),
  ],
});
