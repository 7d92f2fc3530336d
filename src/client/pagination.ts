// Pagination in the static listing's markup (Pagination.astro), for the topic and member searches.

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
