import type { SearchQuery } from '../../search/query.ts';
import type { NamedFacets, TypeChoice } from '../../search/facets.ts';

/** Where the worker's data comes from: the whole site (core.json) or one tag's file. */
export type IndexSource = { kind: 'site' } | { kind: 'tag'; slug: string };

/** One search: the query, the moment its date presets count from, and the page size. */
export interface SearchRequest {
  query: SearchQuery;
  now: number;
  pageSize: number;
  /** Results without facet counts are welcome if they come sooner (a shared link's first results: see Searcher.search). */
  partial?: boolean;
}

export type WorkerRequest =
  /** With `deferIndex`, the index is fetched only when a search needs it (a shared link's first results may not). */
  | { type: 'init'; indexUrl: string; source: IndexSource; deferIndex: boolean }
  | ({ type: 'search'; id: number } & SearchRequest)
  /** Words being typed: their index files are fetched before the search asks for them. */
  | { type: 'prefetch'; q: string };

/** One listing entry, as the result template shows it. */
export interface ResultRow {
  slug: string;
  title: string;
  excerpt: string;
  replies: number;
  tags: string[];
  author: string;
  updatedMs: number;
}

export interface Choices {
  /** Every tag of the index, the most used first. */
  tags: string[];
  /** Every author of the index, the most active first. */
  authors: string[];
  types: TypeChoice[];
}

export interface SearchResults {
  total: number;
  pageNumber: number;
  pages: number;
  rows: ResultRow[];
  facets: NamedFacets;
  /** Shown before the site's index arrived: no facet counts yet (a full search follows). */
  partial?: boolean;
  /** The query's tags as the site names them, when one was a synonym (tags.json): `js` → `javascript`. */
  canonicalTags?: string[];
  /** The index terms the words matched (folded; typos and prefixes included): results mark them. */
  marks: string[];
  /** Words that matched nothing, each with a close term of the index when one exists ('' if none). */
  closeWords: Array<[string, string]>;
  /** The whole search, index files loading included. */
  ms: number;
  /** runSearch alone: filters, word combination, sort, facets (no file loading). */
  engineMs: number;
}

export type WorkerResponse =
  | { type: 'ready'; choices: Choices }
  | ({ type: 'results'; id: number } & SearchResults)
  | { type: 'error'; id?: number; message: string };
