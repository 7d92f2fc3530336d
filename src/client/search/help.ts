// What "Found 0 results" offers: the filters in effect, and one-click ways out of them.
import { dateFilterText, filterPhrases, noResultsText, wordsText } from '../../model/listing.ts';
import { EMPTY_QUERY, type SearchQuery } from '../../search/query.ts';
import { queryPhrases } from '../../search/words.ts';

/** One way out: a label and the search it leads to. */
export interface WayOut {
  label: string;
  query: SearchQuery;
}

/** The known tag closest to `tag` (at most a third of its letters apart), or undefined. */
export function closeTag(tag: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(tag.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of known) {
    if (Math.abs(name.length - tag.length) >= bestDistance) continue;
    const distance = editDistance(tag, name, bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/** Levenshtein distance, stopping early once it reaches `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, row[j]!);
    }
    if (rowMin >= cap) return cap;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * Ways out of a search that found nothing, most helpful first: a close tag for an unknown one, a
 * close word for a word that matched nothing, the words of a phrase without its quotes, any tag or
 * any word instead of all, then removing each filter in turn. `fixedTag` (a tag page's) is never
 * offered for removal.
 */
export function waysOut(query: SearchQuery, knownTags: ReadonlySet<string> | undefined, closeWords: ReadonlyArray<[string, string]>, fixedTag: string | undefined, typeName: (id: string) => string): WayOut[] {
  const ways: WayOut[] = [];
  const page1 = { ...query, page: 1 };
  const tags = fixedTag ? [] : query.tags;
  if (knownTags) {
    for (const tag of tags) {
      if (knownTags.has(tag)) continue;
      const close = closeTag(tag, [...knownTags]);
      if (close) ways.push({ label: `Tag '${close}' instead of '${tag}'`, query: { ...page1, tags: query.tags.map((t) => (t === tag ? close : t)) } });
    }
  }
  for (const [word, close] of closeWords) {
    if (!close) continue;
    const q = query.q.split(' ').map((w) => (w.toLowerCase() === word ? close : w)).join(' ');
    ways.push({ label: `Words '${q}' instead`, query: { ...page1, q } });
  }
  // A phrase asks for its words side by side: without the quotes they may stand apart.
  if (queryPhrases(query.q).length > 0) {
    const q = query.q.replaceAll('"', '').replace(/\s+/gu, ' ').trim();
    ways.push({ label: `Words '${q}' without quotes`, query: { ...page1, q } });
  }
  if (tags.length > 1 && query.match === 'all') ways.push({ label: 'Match any tag', query: { ...page1, match: 'any' } });
  if (query.q.includes(' ') && query.words === 'all') ways.push({ label: 'Match any word', query: { ...page1, words: 'any' } });
  if (query.q && query.in === 'titles') ways.push({ label: 'Search titles and posts', query: { ...page1, in: 'all' } });
  for (const tag of tags) ways.push({ label: `Remove tag '${tag}'`, query: { ...page1, tags: query.tags.filter((t) => t !== tag) } });
  if (query.q) ways.push({ label: `Remove words ${wordsText({ ...query, in: 'all' })}`, query: { ...page1, q: '' } });
  const single = (changes: Partial<SearchQuery>) => ({ ...page1, ...changes });
  const [author, type] = [filterPhrases({ ...EMPTY_QUERY, author: query.author }), filterPhrases({ ...EMPTY_QUERY, type: query.type }, typeName)];
  if (query.author) ways.push({ label: `Remove ${author[0]}`, query: single({ author: '' }) });
  if (query.type) ways.push({ label: `Remove ${type[0]}`, query: single({ type: '' }) });
  for (const field of ['created', 'updated'] as const) {
    const text = dateFilterText(field, query[field]);
    if (text) ways.push({ label: `Remove ${text}`, query: single({ [field]: { kind: 'any' } }) });
  }
  if (query.minReplies > 0) ways.push({ label: 'Remove the minimum replies', query: single({ minReplies: 0 }) });
  if (query.minViews > 0) ways.push({ label: 'Remove the minimum views', query: single({ minViews: 0 }) });
  if (query.maxReplies !== undefined) ways.push({ label: 'Remove the maximum replies', query: single({ maxReplies: undefined }) });
  if (query.maxViews !== undefined) ways.push({ label: 'Remove the maximum views', query: single({ maxViews: undefined }) });
  for (const tag of query.excludeTags) ways.push({ label: `Include tag '${tag}' again`, query: single({ excludeTags: query.excludeTags.filter((t) => t !== tag) }) });
  return ways;
}

/** Fills the no-results box (Listing.astro's `[data-no-results]`): what was asked for and links out of it. */
export function renderNoResults(box: HTMLElement, query: SearchQuery, ways: readonly WayOut[], addressOf: (query: SearchQuery) => string, typeName: (id: string) => string): void {
  const text = document.createElement('p');
  text.textContent = noResultsText(query, typeName);
  const list = document.createElement('ul');
  list.setAttribute('aria-label', 'Ways to find more');
  for (const way of ways) {
    const link = document.createElement('a');
    link.href = addressOf(way.query);
    link.dataset.searchLink = '';
    link.textContent = way.label;
    const item = document.createElement('li');
    item.append(link);
    list.append(item);
  }
  box.replaceChildren(text, ...(ways.length > 0 ? [list] : []));
  box.hidden = false;
}
