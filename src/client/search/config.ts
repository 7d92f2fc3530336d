import type { IndexSource } from './protocol.ts';
import type { ListingOptions } from './render.ts';

/** What the page tells the search (from data-* attributes on the search root, SearchArea.astro). */
export interface SearchConfig extends ListingOptions {
  indexUrl: string;
  source: IndexSource;
  pageSize: number;
  /** Topics the search covers: it decides where searches run (backend.ts). */
  topics: number;
  /** The tag of a tag page: fixed, not in the URL. */
  fixedTag?: string;
}

export function readConfig(root: HTMLElement): SearchConfig {
  const data = root.dataset;
  return {
    base: data.base ?? '/',
    indexUrl: data.indexUrl!,
    source: data.tagSlug ? { kind: 'tag', slug: data.tagSlug } : { kind: 'site' },
    pageSize: Number(data.pageSize),
    topics: Number(data.topics),
    tagsShown: Number(data.tagsShown),
    alwaysShowTags: data.alwaysShowTags === 'true',
    ...(data.fixedTag ? { fixedTag: data.fixedTag } : {}),
  };
}
