import type { Topic } from '../content/topics.ts';
import type { ContentType } from '../content/content-types.ts';
import { decodeIndex, runSearch } from './engine.ts';
import { FACETS_SHOWN, namedFacets, type NamedFacets } from './facets.ts';
import { structuredCore } from './index-build.ts';
import { EMPTY_QUERY } from './query.ts';

/** The unfiltered search: its total and pages, the topics of its first page, its facets. */
export interface UnfilteredSearch {
  total: number;
  pages: number;
  page: Topic[];
  facets: NamedFacets;
}

/**
 * What /search/ shows before any filter: the browser's own engine, run at build time over every
 * topic, so the static page is exactly what a search for nothing finds. `topics` in listing order.
 */
export function unfilteredSearch(topics: readonly Topic[], contentTypes: readonly ContentType[], pageSize: number): UnfilteredSearch {
  const index = decodeIndex(structuredCore(topics, contentTypes));
  // No date filter: the moment presets count from is never read.
  const result = runSearch(index, EMPTY_QUERY, new Date(0), pageSize);
  return {
    total: result.total,
    pages: result.pages,
    page: Array.from(result.page, (ordinal) => topics[ordinal]!),
    facets: namedFacets(index, result.facets, FACETS_SHOWN),
  };
}
