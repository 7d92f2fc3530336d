/**
 * The member search of /members/ (and its static pages /members/<n>/): filters over members.json
 * in the page, with the address as the state. Started by _MembersList.astro on `[data-member-root]`.
 */
import { EMPTY_MEMBER_QUERY, filterMembers, memberParamsOf, MEMBERS_PAGE_SIZE, parseMemberParams, type MemberRecord } from '../../search/member-search.ts';
import { withBase } from '../../model/urls.ts';
import { renderPagination } from '../pagination.ts';
import { renderMember } from './card.ts';
import { fillForm, formQuery } from './form.ts';

export function start(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('[data-member-form]')!;
  const list = root.querySelector<HTMLElement>('[data-members]')!;
  const count = root.querySelector<HTMLElement>('[data-result-count]')!;
  const notes = root.querySelector<HTMLElement>('[data-search-notes]')!;
  const nav = root.querySelector<HTMLElement>('[data-pagination]')!;
  const template = root.querySelector<HTMLTemplateElement>('[data-member-template]')!;
  const searching = root.querySelector<HTMLElement>('[data-searching]')!;
  // This address's answer is shown: first-paint.js's mark no longer hides the static list.
  const answered = () => document.documentElement.removeAttribute('data-address-filters');
  const base = root.dataset.base ?? '/';
  // This document is one static page of the list (/members/<n>/): coming back to it without a
  // search shows that page again, not page 1.
  const staticPath = location.pathname;
  const staticPage = Number(root.dataset.page ?? '1');
  let members: Promise<MemberRecord[]> | undefined;
  const load = () =>
    (members ??= fetch(root.dataset.indexUrl!).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json() as Promise<MemberRecord[]>;
    }));

  async function run() {
    const { query, notes: problems } = parseMemberParams(new URLSearchParams(location.search));
    notes.replaceChildren(...problems.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
    fillForm(form, query);
    // /members/<n>/ without a search is its own static page: nothing to do.
    if (memberParamsOf(query).toString() === '' && root.dataset.searchState !== 'done') return answered();
    if (location.search === '' && location.pathname === staticPath) query.page = staticPage;
    let all: MemberRecord[];
    try {
      all = await load();
    } catch (error) {
      notes.textContent = `The member search could not load its data (${(error as Error).message}).`;
      searching.textContent = 'The member search failed: see the note above.';
      return;
    }
    const found = filterMembers(all, query, new Date());
    const pages = Math.max(1, Math.ceil(found.length / MEMBERS_PAGE_SIZE));
    const page = Math.min(query.page, pages);
    count.textContent = `${found.length} member${found.length === 1 ? '' : 's'}`;
    list.replaceChildren(...found.slice((page - 1) * MEMBERS_PAGE_SIZE, page * MEMBERS_PAGE_SIZE).map((m) => renderMember(template, m, base)));
    renderPagination(nav, page, pages, (n) => {
      const params = memberParamsOf({ ...query, page: n });
      return `${withBase(base, '/members/')}${params.size ? `?${params}` : ''}`;
    });
    root.dataset.searchState = 'done';
    answered();
  }

  function navigate(params: URLSearchParams) {
    const search = memberParamsOf(parseMemberParams(params).query).toString();
    const path = root.dataset.searchState === 'done' || search ? withBase(base, '/members/') : location.pathname;
    history.pushState(null, '', `${path}${search ? `?${search}` : ''}`);
    void run();
  }

  let typing: ReturnType<typeof setTimeout> | undefined;
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.type !== 'text') return;
    clearTimeout(typing);
    typing = setTimeout(() => navigate(formQuery(form)), 200);
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.type === 'text') return;
    const rangeChosen = target.name === 'joined' && target.value === 'custom';
    navigate(formQuery(form));
    // "Between dates…" without days is no date filter yet (`any`), and run() has just put `any`
    // back in the form: keep the choice, with the range open, so the days can be given.
    if (rangeChosen) {
      target.value = 'custom';
      form.querySelector<HTMLElement>('[data-date-field="joined"] [data-range]')!.hidden = false;
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    navigate(formQuery(form));
  });
  form.addEventListener('reset', (event) => {
    event.preventDefault();
    fillForm(form, EMPTY_MEMBER_QUERY);
    navigate(new URLSearchParams());
  });
  nav.addEventListener('click', (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-page]');
    if (!link) return;
    event.preventDefault();
    history.pushState(null, '', link.href);
    void run();
  });
  window.addEventListener('popstate', () => void run());
  for (const hidden of root.querySelectorAll<HTMLElement>('[data-needs-js]')) hidden.hidden = false;
  void run();
}
