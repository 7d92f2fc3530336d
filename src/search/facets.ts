/**
 * Facets: the counts per tag, content type and author beside the search's choices (SPEC 4.2), as
 * the browser shows them after a search and as /search/ shows them for the whole site before one.
 */
import type { IndexedType } from './index-format.ts';
import type { SearchIndex, SearchResult } from './engine.ts';

/** Values a facet group shows. */
export const FACETS_SHOWN = 12;

/** The facet groups, in the order shown: title, the search parameter a click sets, its counts. */
export const FACET_GROUPS = [
  { title: 'Tags', param: 'tags', counts: 'tags' },
  { title: 'Content types', param: 'type', counts: 'types' },
  { title: 'Authors', param: 'author', counts: 'authors' },
] as const;

/** A facet button's text: the value (a content type by its name) and its count. */
export function facetText(param: string, value: string, count: number, types: readonly TypeChoice[]): string {
  const label = param === 'type' ? (types.find((type) => type.id === value)?.name ?? value) : value;
  return `${label} (${count})`;
}

/** Per group, the most frequent values as [tag, content-type id or author, count]. */
export interface NamedFacets {
  tags: Array<[string, number]>;
  types: Array<[string, number]>;
  authors: Array<[string, number]>;
}

/**
 * The `k` most frequent values of a count array as [value, count], most frequent first and ties in
 * value order; values counted 0 are left out. One pass with a small sorted buffer: a facet shows a
 * dozen values of thousands, so sorting them all would be the search's costliest step.
 */
export function topCounts(counts: ArrayLike<number>, k: number): Array<[number, number]> {
  const top: Array<[number, number]> = [];
  for (let value = 0; value < counts.length; value++) {
    const count = counts[value]!;
    // Values come in ascending order, so a count equal to the last kept one ranks after it.
    if (count === 0 || (top.length === k && count <= top[k - 1]![1])) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]![1] < count) at--;
    top.splice(at, 0, [value, count]);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * A search's facet counts by name, the `k` most frequent of each group. A forum's count includes
 * its sub-forums': it is what choosing it would find.
 */
export function namedFacets(index: SearchIndex, facets: SearchResult['facets'], k: number): NamedFacets {
  const named = (counts: ArrayLike<number>, name: (i: number) => string) => topCounts(counts, k).map(([i, n]): [string, number] => [name(i), n]);
  const typeCounts = new Uint32Array(index.types.length);
  facets.types.forEach((count, type) => {
    for (let t = type; count > 0 && t >= 0; t = index.types[t]!.parent) typeCounts[t]! += count;
  });
  return {
    tags: named(facets.tags, (i) => index.tagNames[i]!),
    types: named(typeCounts, (i) => index.types[i]!.id),
    authors: named(facets.authors, (i) => index.authorNames[i]!),
  };
}

/** A content-type choice of the search form: nested forums are indented by their depth. */
export interface TypeChoice {
  id: string;
  name: string;
  depth: number;
}

/** The content types as the form offers them, in the site's order. */
export function typeChoices(types: readonly IndexedType[]): TypeChoice[] {
  return types.map((type) => {
    let depth = 0;
    for (let p = type.parent; p >= 0; p = types[p]!.parent) depth++;
    return { id: type.id, name: type.name, depth };
  });
}

/** A content type's text in the form's choice list: nested forums are indented. */
export function typeOptionText(type: TypeChoice): string {
  return `${'\u00a0\u00a0'.repeat(type.depth)}${type.name}`;
}
