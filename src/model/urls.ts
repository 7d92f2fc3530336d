import { tagSlug } from './tags.ts';

/** Joins Astro's `base` and a site path, so every link works under a sub-path (`/sub/path/tags/`). */
export function withBase(base: string, path: string): string {
  const head = base.endsWith('/') ? base.slice(0, -1) : base;
  return `${head}/${path.replace(/^\/+/, '')}`;
}

/** Site path of a tag listing page; page 1 is the tag's own URL. */
export function tagPath(tag: string, page = 1): string {
  const slug = encodeURIComponent(tagSlug(tag));
  return page <= 1 ? `/tags/${slug}/` : `/tags/${slug}/${page}/`;
}

/** Site path of a topic page. */
export function topicPath(slug: string): string {
  return `/topics/${slug}/`;
}
