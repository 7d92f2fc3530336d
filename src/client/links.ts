/**
 * The link directory's tag filter (/links/). The `tag` query parameter is the state: clicking a
 * tag pushes `?tag=…`, back and forward re-apply it, and a shared URL opens filtered. Records stay
 * in the HTML; filtering only hides them, so without this script every record is listed.
 */
import { normaliseTag } from '../model/tags.ts';
import { linkCountText } from '../model/link-records.ts';

/** Filters the records in `root` (the page's document) by the address's tag. */
export function start(root: Document | HTMLElement): void {
  const list = root.querySelector<HTMLElement>('[data-link-records]');
  if (!list) return;
  const records = [...list.querySelectorAll<HTMLElement>('[data-link-record]')].map((element) => ({
    element,
    tags: new Set(JSON.parse(element.dataset.linkTags ?? '[]') as string[]),
  }));
  const count = root.querySelector<HTMLElement>('[data-link-count]');
  const filters = [...root.querySelectorAll<HTMLAnchorElement>('[data-link-filter-tag]')];

  const chosenTag = () => normaliseTag(new URL(location.href).searchParams.get('tag') ?? '');

  const apply = () => {
    const tag = chosenTag();
    let shown = 0;
    for (const { element, tags } of records) {
      element.hidden = tag !== '' && !tags.has(tag);
      if (!element.hidden) shown++;
    }
    if (count) count.textContent = linkCountText(shown, records.length, tag);
    for (const filter of filters) {
      if (filter.dataset.linkFilterTag === tag) filter.setAttribute('aria-current', 'true');
      else filter.removeAttribute('aria-current');
    }
  };

  // Tag links that lead to this same page filter in place instead of reloading it.
  root.addEventListener('click', (clicked) => {
    const event = clicked as MouseEvent;
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-link-filter-tag], a[data-link-tag]');
    if (!link) return;
    const target = new URL(link.href);
    if (target.origin !== location.origin || target.pathname !== location.pathname) return;
    event.preventDefault();
    if (target.search !== location.search) history.pushState(null, '', target);
    apply();
  });
  window.addEventListener('popstate', apply);
  apply();
  // This address's answer is shown: first-paint.js's mark no longer hides the listing.
  document.documentElement.removeAttribute('data-address-filters');
}
