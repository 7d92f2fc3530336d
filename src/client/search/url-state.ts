/** The address is the search's state: reading a search from it, and writing history entries. */
import { parseSearchParams, searchParamsOf, type SearchQuery } from '../../search/query.ts';
import { moveTypedFilters, notUnderstoodText, readTypedFilters } from '../../search/typed-filters.ts';

/** A search read from an address, with what could not be understood in it. */
export interface AddressedSearch {
  query: SearchQuery;
  problems: string[];
  /** The operators in its words not understood, in one line (empty when none). */
  typedNote: string;
}

/**
 * `params` with the operators typed in its words moved into their parameters (typed-filters.ts):
 * done on submit, and for an address typed or linked with them, so the two mean the same.
 */
function withTypedFilters(params: URLSearchParams, fixedTag: string | undefined): { params: URLSearchParams; typedNote: string } {
  const moved = moveTypedFilters(params, new Date(), fixedTag === undefined ? {} : { fixedTag });
  return { params: moved.params, typedNote: notUnderstoodText(moved.problems) };
}

/** Whether an address's words hold operators that move (see withTypedFilters). */
export function hasTypedFilters(params: URLSearchParams, fixedTag: string | undefined): boolean {
  return readTypedFilters(params.get('q') ?? '', new Date(), fixedTag === undefined ? {} : { fixedTag }).params.length > 0;
}

/** The search a query string describes (a tag page adds its own tag). */
export function queryOf(address: URLSearchParams, fixedTag: string | undefined): AddressedSearch {
  const { params, typedNote } = withTypedFilters(address, fixedTag);
  const { query, notes: problems } = parseSearchParams(params);
  if (fixedTag) {
    query.tags = [fixedTag];
    // A tag page's own order is the listing order of SPEC 4.1 unless another sort is chosen.
    query.sort ??= query.q ? undefined : 'updated';
  }
  return { query, problems, typedNote };
}

/** The search the address says now. */
export function currentQuery(fixedTag: string | undefined): AddressedSearch {
  return queryOf(new URLSearchParams(location.search), fixedTag);
}

/** Whether the page's static listing shows `query`: a tag page's tag and its own order (sort=updated) are not filters. */
export function isUnfiltered(query: SearchQuery, fixedTag: string | undefined): boolean {
  const filters = fixedTag ? { ...query, tags: [], sort: query.sort === 'updated' ? undefined : query.sort } : query;
  return searchParamsOf(filters).toString() === '';
}

/** The query string of the search `params` ask for (a tag page's tag and own order are not written). */
export function searchOf(params: URLSearchParams, fixedTag: string | undefined): string {
  const { query } = parseSearchParams(withTypedFilters(params, fixedTag).params);
  if (fixedTag) {
    query.tags = [];
    if (query.sort === 'updated') delete query.sort;
  }
  return searchParamsOf(query).toString();
}

/** This page's address with the query string `search`. */
export function addressOf(search: string): string {
  return `${location.pathname}${search ? `?${search}` : ''}`;
}

/** The address of page `n` of the search shown. */
export function pageAddress(n: number): string {
  const params = new URLSearchParams(location.search);
  if (n > 1) params.set('page', String(n));
  else params.delete('page');
  return `?${params}`;
}

/** Runs `work` after the next frame is painted (or soon, where no frame comes: a hidden tab). */
export function afterPaint(work: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

export interface HistoryWriter {
  /** Writes `url` as a history entry once `shown` (its search's results) has resolved and been painted. */
  write(url: string, mode: 'push' | 'replace', shown: Promise<void>): void;
  /** Back or forward came first: the entry not yet written is no longer wanted. */
  forget(): void;
}

/**
 * History entries written after their search's results are painted: writing one is a
 * same-document navigation whose cost, in the page and in the browser, would otherwise compete
 * with the search.
 */
export function historyWriter(): HistoryWriter {
  let pending: (() => void) | undefined;
  const writePending = () => {
    const write = pending;
    pending = undefined;
    write?.();
  };
  return {
    write(url, mode, shown) {
      writePending(); // entries keep the order of their searches
      if (url === `${location.pathname}${location.search}`) return;
      const write = () => history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', url);
      pending = write;
      void shown.then(() => afterPaint(() => pending === write && writePending()));
    },
    forget() {
      pending = undefined;
    },
  };
}
