// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import tagsite from './src/integration/index.ts';
import { hostSiteAddress, SAMPLE_SITE } from './src/integration/host.ts';

export default defineConfig({
  // The site's public address: used for absolute URLs (workflow list, feeds, canonical links).
  // Replace the sample's with yours. Until then it comes from TAGSITE_SITE (the GitHub Pages workflow
  // passes the Pages address) or the host's build environment (Netlify, Cloudflare Pages, Vercel).
  site: hostSiteAddress() ?? SAMPLE_SITE,
  // Serve under a sub-path by setting `base`, e.g. '/community' (or TAGSITE_BASE for one build).
  base: process.env.TAGSITE_BASE || '/',
  trailingSlash: 'ignore',
  // One page at a time: a full build's pages are written by a writer thread, so rendering does not
  // wait on the disk. Above 1, Astro queues up to 100,000 pages at once (some 50 MB at 100,000 topics).
  build: { concurrency: 1 },
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
