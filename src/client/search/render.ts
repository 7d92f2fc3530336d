// A search's results in the static listing's markup (Listing.astro, ResultEntry.astro).
import { entryDate, entryShowsTags, entryTags, repliesText, resultCountText, searchResultsHeadingText } from '../../model/listing.ts';
import { tagPath, topicPath, withBase } from '../../model/urls.ts';
import type { SearchQuery } from '../../search/query.ts';
import { setText } from '../dom.ts';
import { setMarkedText } from './marks.ts';
import { renderPagination } from '../pagination.ts';
import type { ResultRow, SearchResults } from './protocol.ts';

export interface ListingOptions {
  base: string;
  tagsShown: number;
  alwaysShowTags: boolean;
}

function setAttribute(node: Element, name: string, value: string): void {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Which parts an entry keeps (replies, the tags shown, `and N more`): entries of one shape differ only in text. */
const shapes = new WeakMap<Element, string>();

function shapeOf(row: ResultRow, options: ListingOptions): string {
  const { shown, more } = entryTags(row.tags, options.tagsShown);
  const tags = entryShowsTags(row, options.alwaysShowTags) && row.tags.length > 0;
  return `${row.replies > 0}/${tags ? shown.length : -1}/${tags && more > 0}`;
}

const NO_MARKS: ReadonlySet<string> = new Set();

/** Puts a row's text and links into an entry of its shape (text only: never HTML), its matched words marked. */
function fillEntry(entry: HTMLElement, row: ResultRow, options: ListingOptions, marks: ReadonlySet<string>): void {
  setAttribute(entry, 'data-topic', row.slug);
  const title = entry.querySelector('[data-title]')!;
  setMarkedText(title, row.title, marks);
  setAttribute(title, 'href', withBase(options.base, topicPath(row.slug)));
  setMarkedText(entry.querySelector('[data-excerpt]')!, row.excerpt, marks);
  const date = entryDate(row.updatedMs);
  const time = entry.querySelector('[data-date]');
  if (time) {
    setText(time, date.text);
    setAttribute(time, 'datetime', date.iso);
  }
  const author = entry.querySelector('[data-author]');
  if (author) setText(author, row.author);
  const replies = entry.querySelector('[data-replies]');
  if (replies) setText(replies, repliesText(row.replies));
  const { shown, more } = entryTags(row.tags, options.tagsShown);
  entry.querySelectorAll('[data-tags] [data-tag]').forEach((link, i) => {
    setAttribute(link, 'data-tag', shown[i]!);
    setText(link, shown[i]!);
    setAttribute(link, 'href', withBase(options.base, tagPath(shown[i]!)));
  });
  const moreTags = entry.querySelector('[data-more-tags]');
  if (moreTags) setText(moreTags, `and ${more} more`);
}

/** A clone of the static listing's entry template for one result, with the parts it does not show removed. */
export function renderEntry(template: HTMLTemplateElement, row: ResultRow, options: ListingOptions, marks = NO_MARKS): HTMLElement {
  const entry = (template.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  const meta = entry.querySelector<HTMLElement>('[data-replies]')?.parentElement;
  if (row.replies <= 0) entry.querySelector('[data-replies]')?.remove();
  const tagsBox = entry.querySelector<HTMLElement>('[data-tags]');
  if (tagsBox) {
    const { shown, more } = entryTags(row.tags, options.tagsShown);
    if (!entryShowsTags(row, options.alwaysShowTags) || row.tags.length === 0) tagsBox.remove();
    else {
      const sample = tagsBox.querySelector<HTMLAnchorElement>('[data-tag]');
      const moreTags = tagsBox.querySelector<HTMLElement>('[data-more-tags]');
      tagsBox.querySelectorAll('[data-tag]').forEach((node) => node.remove());
      for (let i = 0; i < shown.length; i++) {
        tagsBox.insertBefore((sample?.cloneNode(true) as HTMLAnchorElement | undefined) ?? document.createElement('a'), moreTags);
      }
      if (more <= 0) moreTags?.remove();
    }
  }
  if (meta && meta.children.length === 0) meta.remove();
  fillEntry(entry, row, options, marks);
  shapes.set(entry, shapeOf(row, options));
  return entry;
}

/**
 * Shows `rows` in a results list, reusing the entries already there: an entry of the same shape
 * only has its text and links replaced (new elements would each need style and layout).
 */
export function renderEntries(list: Element, template: HTMLTemplateElement, rows: readonly ResultRow[], options: ListingOptions, marks = NO_MARKS): void {
  rows.forEach((row, i) => {
    const old = list.children[i] as HTMLElement | undefined;
    if (old && shapes.get(old) === shapeOf(row, options)) fillEntry(old, row, options, marks);
    else if (old) old.replaceWith(renderEntry(template, row, options, marks));
    else list.append(renderEntry(template, row, options, marks));
  });
  while (list.children.length > rows.length) list.lastElementChild!.remove();
}

/** Shows a search's heading, count, entries and pages in the listing; `pageUrl(n)` gives page n's address. */
export function renderListing(
  listing: HTMLElement,
  template: HTMLTemplateElement,
  results: SearchResults,
  query: SearchQuery,
  options: ListingOptions,
  pageUrl: (n: number) => string,
  typeName: (id: string) => string,
): void {
  setText(listing.querySelector('[data-search-heading]')!, searchResultsHeadingText(query, typeName));
  setText(listing.querySelector('[data-result-count]')!, resultCountText(results.total));
  renderEntries(listing.querySelector('[data-results]')!, template, results.rows, options, new Set(results.marks));
  renderPagination(listing.querySelector<HTMLElement>('[data-pagination]')!, results.pageNumber, results.pages, pageUrl);
}
