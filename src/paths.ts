import { withBase, tagPath, topicPath } from './lib/urls.ts';

const base = import.meta.env.BASE_URL;

/** A site path with Astro's `base` in front. */
export const href = (path: string): string => withBase(base, path);
export const tagHref = (tag: string, page = 1): string => href(tagPath(tag, page));
export const topicHref = (slug: string): string => href(topicPath(slug));
