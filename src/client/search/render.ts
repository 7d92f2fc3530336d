import { entryShowsTags, entryTags, repliesText, resultCountText } from '../../model/listing.ts';
import { tagPath, topicPath, withBase } from '../../model/urls.ts';
import type { ResultRow } from './protocol.ts';

export interface ListingOptions {
  base: string;
  tagsShown: number;
  alwaysShowTags: boolean;
}

/** Writes text only when it changes: an unchanged node needs no new style, layout or text shaping. */
export function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
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

/** Puts a row's text and links into an entry of its shape (text only: never HTML). */
function fillEntry(entry: HTMLElement, row: ResultRow, options: ListingOptions): void {
  setAttribute(entry, 'data-topic', row.slug);
  const title = entry.querySelector('[data-title]')!;
  setText(title, row.title);
  setAttribute(title, 'href', withBase(options.base, topicPath(row.slug)));
  setText(entry.querySelector('[data-excerpt]')!, row.excerpt);
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
export function renderEntry(template: HTMLTemplateElement, row: ResultRow, options: ListingOptions): HTMLElement {
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
  fillEntry(entry, row, options);
  shapes.set(entry, shapeOf(row, options));
  return entry;
}

/**
 * Shows `rows` in a results list, reusing the entries already there: an entry of the same shape
 * only has its text and links replaced (new elements would each need style and layout).
 */
export function renderEntries(list: Element, template: HTMLTemplateElement, rows: readonly ResultRow[], options: ListingOptions): void {
  rows.forEach((row, i) => {
    const old = list.children[i] as HTMLElement | undefined;
    if (old && shapes.get(old) === shapeOf(row, options)) fillEntry(old, row, options);
    else if (old) old.replaceWith(renderEntry(template, row, options));
    else list.append(renderEntry(template, row, options));
  });
  while (list.children.length > rows.length) list.lastElementChild!.remove();
}

const paginationShown = new WeakMap<Element, string>();

/** Pagination in the static listing's markup; `urlOf(n)` gives page n's address. */
export function renderPagination(nav: HTMLElement, page: number, pages: number, urlOf: (n: number) => string): void {
  const hidden = pages <= 1;
  if (nav.hidden !== hidden) nav.hidden = hidden;
  const key = hidden ? '' : `${page}/${pages}/${page > 1 ? urlOf(page - 1) : ''}/${page < pages ? urlOf(page + 1) : ''}`;
  if (paginationShown.get(nav) === key && (key !== '' || nav.childElementCount === 0)) return;
  paginationShown.set(nav, key);
  nav.replaceChildren();
  if (hidden) return;
  const link = (n: number, rel: string, label: string) => {
    const a = document.createElement('a');
    a.rel = rel;
    a.href = urlOf(n);
    a.textContent = label;
    a.dataset.page = String(n);
    return a;
  };
  if (page > 1) nav.append(link(page - 1, 'prev', '← Previous'));
  const where = document.createElement('span');
  where.className = 'page-of';
  where.textContent = `Page ${page} of ${pages}`;
  nav.append(where);
  if (page < pages) nav.append(link(page + 1, 'next', 'Next →'));
}

export { resultCountText };
