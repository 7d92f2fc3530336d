// A search as a visitor would type it: every filter operators can say written in the words field
// (typed-filters.ts), the rest chosen in the form, then read as the page reads it on submit.
import { parseSearchParams, searchParamsOf, type SearchQuery } from '../../src/search/query.ts';
import { moveTypedFilters, typedFiltersOf } from '../../src/search/typed-filters.ts';

/** `query` typed as operators (`text`) and read back: what the engine is asked for after the submit. */
export function typedSearch(query: SearchQuery, now: Date): { text: string; query: SearchQuery; problems: number } {
  const { typed: text, rest } = typedFiltersOf(query);
  const form = searchParamsOf({ ...rest, q: 'x' });
  form.set('q', text);
  const moved = moveTypedFilters(form, now);
  return { text, query: parseSearchParams(moved.params).query, problems: moved.problems.length };
}
