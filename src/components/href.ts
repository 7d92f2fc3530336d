import { base } from 'astro:config/client';
import { withBase, tagPath, topicPath } from '../model/urls.ts';

// The configured `base`, not import.meta.env.BASE_URL: Astro fills that from a BASE_URL
// environment variable when one is set (as Vitest and some CI systems do), which would send
// every link outside a sub-path site.

/** Astro's `base` itself, for addresses that may be a site path or a URL elsewhere (siteAddress). */
export { base };

/** A site path with Astro's `base` in front. */
export const href = (path: string): string => withBase(base, path);
export const tagHref = (tag: string, page = 1): string => href(tagPath(tag, page));
export const topicHref = (slug: string): string => href(topicPath(slug));
