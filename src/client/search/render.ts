import { entryShowsTags, entryTags, repliesText, resultCountText, searchHeadingText } from '../../lib/listing.ts';
import { tagPath, topicPath, withBase } from '../../lib/urls.ts';
import type { ResultRow } from './protocol.ts';

export interface ListingOptions {
  base: string;
  tagsShown: number;
  alwaysShowTags: boolean;
}

/** Fills a clone of the static listing's entry template with one result (text only: never HTML). */
export function renderEntry(template: HTMLTemplateElement, row: ResultRow, options: ListingOptions): HTMLElement {
  const entry = (template.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  entry.dataset.topic = row.slug;
  const title = entry.querySelector<HTMLAnchorElement>('[data-title]')!;
  title.textContent = row.title;
  title.href = withBase(options.base, topicPath(row.slug));
  entry.querySelector('[data-excerpt]')!.textContent = row.excerpt;

  const meta = entry.querySelector<HTMLElement>('[data-replies]')?.parentElement;
  const replies = entry.querySelector<HTMLElement>('[data-replies]');
  if (replies) {
    if (row.replies > 0) replies.textContent = repliesText(row.replies);
    else replies.remove();
  }
  const tagsBox = entry.querySelector<HTMLElement>('[data-tags]');
  if (tagsBox) {
    const { shown, more } = entryTags(row.tags, options.tagsShown);
    if (!entryShowsTags(row, options.alwaysShowTags) || row.tags.length === 0) tagsBox.remove();
    else {
      const sample = tagsBox.querySelector<HTMLAnchorElement>('[data-tag]');
      const moreTags = tagsBox.querySelector<HTMLElement>('[data-more-tags]');
      tagsBox.querySelectorAll('[data-tag]').forEach((node) => node.remove());
      for (const tag of shown) {
        const link = (sample?.cloneNode(true) as HTMLAnchorElement | undefined) ?? document.createElement('a');
        link.dataset.tag = tag;
        link.textContent = tag;
        link.href = withBase(options.base, tagPath(tag));
        tagsBox.insertBefore(link, moreTags);
      }
      if (moreTags) {
        if (more > 0) moreTags.textContent = `and ${more} more`;
        else moreTags.remove();
      }
    }
  }
  if (meta && meta.children.length === 0) meta.remove();
  return entry;
}

/** The listing heading for a search: names the tags (SPEC 4.1), else the words. */
export function headingText(tags: string[], match: 'any' | 'all', q: string): string {
  if (tags.length > 0) return searchHeadingText(tags, match);
  if (q) return `Showing results for '${q}'`;
  return 'Showing all topics';
}

/** Pagination in the static listing's markup; `urlOf(n)` gives page n's address. */
export function renderPagination(nav: HTMLElement, page: number, pages: number, urlOf: (n: number) => string): void {
  nav.replaceChildren();
  nav.hidden = pages <= 1;
  if (pages <= 1) return;
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
