import { EMPTY_QUERY, parseSearchParams, searchParamsOf, type SearchQuery } from '../../lib/search/query.ts';
import { headingText, renderEntry, renderPagination, resultCountText, type ListingOptions } from './render.ts';
import type { Choices, IndexSource, WorkerRequest, WorkerResponse } from './protocol.ts';

/** What the page tells the search (from data-* attributes on the search root). */
interface SearchConfig extends ListingOptions {
  indexUrl: string;
  source: IndexSource;
  pageSize: number;
  /** The tag of a tag page: fixed, not in the URL. */
  fixedTag?: string;
}

function readConfig(root: HTMLElement): SearchConfig {
  const data = root.dataset;
  return {
    base: data.base ?? '/',
    indexUrl: data.indexUrl!,
    source: data.tagSlug ? { kind: 'tag', slug: data.tagSlug } : { kind: 'site' },
    pageSize: Number(data.pageSize),
    tagsShown: Number(data.tagsShown),
    alwaysShowTags: data.alwaysShowTags === 'true',
    ...(data.fixedTag ? { fixedTag: data.fixedTag } : {}),
  };
}

/** The form's current values as URL parameters (empty fields left out). */
function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') params.set(name, value);
  return params;
}

/** Puts a search into the form's fields. */
function fillForm(form: HTMLFormElement, query: SearchQuery, keepTyped = true): void {
  const params = searchParamsOf({ ...query, page: 1 });
  const written = params.toString();
  for (const element of Array.from(form.elements) as Array<HTMLInputElement | HTMLSelectElement>) {
    if (!element.name) continue;
    const value = params.get(element.name) ?? '';
    // A field whose value already means this search is left as typed: `api, ` and `clipboard ` keep the
    // comma or space typed before the next word, and `Between dates…` stays chosen before its dates
    // (a choice the search states, such as `custom` for a range, is always shown).
    if (keepTyped && !(element instanceof HTMLSelectElement && value !== '')) {
      const mixed = new URLSearchParams(params);
      mixed.set(element.name, element.value);
      if (searchParamsOf(parseSearchParams(mixed).query).toString() === written) continue;
    }
    if (element instanceof HTMLSelectElement) element.value = value || (element.options[0]?.value ?? '');
    else element.value = value;
  }
  for (const box of form.querySelectorAll<HTMLElement>('[data-date-field]')) {
    const select = box.querySelector('select')!;
    box.querySelector<HTMLElement>('[data-range]')!.hidden = select.value !== 'custom';
  }
}

function fillChoices(root: HTMLElement, choices: Choices): void {
  const option = (value: string, label = value) => Object.assign(document.createElement('option'), { value, textContent: label });
  root.querySelector('[data-tag-suggestions]')?.replaceChildren(...choices.tags.map((tag) => option(tag)));
  root.querySelector('[data-author-suggestions]')?.replaceChildren(...choices.authors.map((author) => option(author)));
  const select = root.querySelector<HTMLSelectElement>('[data-type-select]');
  if (select) {
    const current = select.value;
    select.replaceChildren(option('', 'Any'), ...choices.types.map((type) => option(type.id, `${'\u00a0\u00a0'.repeat(type.depth)}${type.name}`)));
    select.value = current;
  }
}

/** Wires a search form, its worker and a listing: the URL is the state. */
export function startSearch(root: HTMLElement): void {
  const config = readConfig(root);
  const form = root.querySelector<HTMLFormElement>('[data-search-form]')!;
  const notes = root.querySelector<HTMLElement>('[data-search-notes]')!;
  const facets = root.querySelector<HTMLElement>('[data-facets]')!;
  const listing = root.querySelector<HTMLElement>('[data-listing]')!;
  const template = root.querySelector<HTMLTemplateElement>('[data-result-template]')!;
  let choices: Choices | undefined;
  let latest = 0;
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;

  // The worker and its data load on first need: a tag page costs nothing until the panel is used.
  const ensureWorker = () =>
    (ready ??= new Promise<void>((resolve, reject) => {
      worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
        const message = event.data;
        if (message.type === 'ready') {
          choices = message.choices;
          fillChoices(root, choices);
          resolve();
        } else if (message.type === 'results') {
          if (message.id === latest) showResults(message);
        } else {
          notes.textContent = `Search failed: ${message.message}`;
          if (message.id === undefined) reject(new Error(message.message));
        }
      };
      const init: WorkerRequest = { type: 'init', indexUrl: config.indexUrl, source: config.source };
      worker.postMessage(init);
    }));

  const currentQuery = () => {
    const { query, notes: problems } = parseSearchParams(new URLSearchParams(location.search));
    if (config.fixedTag) {
      query.tags = [config.fixedTag];
      // A tag page's own order is the listing order of SPEC 4.1 unless another sort is chosen.
      query.sort ??= query.q ? undefined : 'updated';
    }
    return { query, problems };
  };

  // A tag page's own order (sort=updated, set above) is not a filter: its static listing already shows it.
  const isUnfiltered = (query: SearchQuery) =>
    searchParamsOf({ ...query, tags: [], sort: config.fixedTag && query.sort === 'updated' ? undefined : query.sort }).toString() === '';

  function showResults(message: Extract<WorkerResponse, { type: 'results' }>) {
    const { query } = currentQuery();
    listing.querySelector('[data-search-heading]')!.textContent = headingText(query.tags, query.match, query.q);
    listing.querySelector('[data-result-count]')!.textContent = resultCountText(message.total);
    listing.querySelector('[data-results]')!.replaceChildren(...message.rows.map((row) => renderEntry(template, row, config)));
    const nav = listing.querySelector<HTMLElement>('[data-pagination]')!;
    renderPagination(nav, message.pageNumber, message.pages, (n) => {
      const params = new URLSearchParams(location.search);
      if (n > 1) params.set('page', String(n));
      else params.delete('page');
      return `?${params}`;
    });
    renderFacets(message.facets);
    root.dataset.searchState = 'done';
    root.dataset.searchMs = message.ms.toFixed(2);
    root.dataset.searchEngineMs = message.engineMs.toFixed(2);
  }

  function renderFacets(counts: Extract<WorkerResponse, { type: 'results' }>['facets']) {
    facets.hidden = false;
    const group = (title: string, name: string, entries: Array<[string, number]>, label: (value: string) => string) => {
      const box = document.createElement('section');
      box.dataset.facet = name;
      const heading = document.createElement('h2');
      heading.textContent = title;
      const list = document.createElement('ul');
      for (const [value, count] of entries.slice(0, 12)) {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.facetValue = value;
        button.textContent = `${label(value)} (${count})`;
        button.addEventListener('click', () => applyFacet(name, value));
        item.append(button);
        list.append(item);
      }
      box.append(heading, list);
      return box;
    };
    const typeName = (id: string) => choices?.types.find((type) => type.id === id)?.name ?? id;
    facets.replaceChildren(
      ...(config.fixedTag ? [] : [group('Tags', 'tags', counts.tags, (v) => v)]),
      group('Content types', 'type', counts.types, typeName),
      group('Authors', 'author', counts.authors, (v) => v),
    );
  }

  function applyFacet(name: string, value: string) {
    const params = formParams(form);
    if (name === 'tags') {
      const tags = (params.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      if (!tags.includes(value)) tags.push(value);
      params.set('tags', tags.join(','));
    } else params.set(name, value);
    navigate(params, 'push');
  }

  async function run() {
    const { query, problems } = currentQuery();
    notes.replaceChildren(...problems.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
    fillForm(form, query);
    if (config.fixedTag && isUnfiltered(query) && root.dataset.searchState !== 'done') return; // the static listing is the answer
    root.dataset.searchState = 'running';
    await ensureWorker();
    const request: WorkerRequest = { type: 'search', id: ++latest, query, now: Date.now(), pageSize: config.pageSize };
    worker!.postMessage(request);
  }

  function navigate(params: URLSearchParams, mode: 'push' | 'replace') {
    const { query } = parseSearchParams(params);
    if (config.fixedTag) {
      query.tags = [];
      if (query.sort === 'updated') delete query.sort;
    }
    const search = searchParamsOf(query).toString();
    const url = `${location.pathname}${search ? `?${search}` : ''}`;
    if (url !== `${location.pathname}${location.search}`) history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', url);
    void run();
  }

  let typing: ReturnType<typeof setTimeout> | undefined;
  let typedSinceCommit = false;
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target instanceof HTMLSelectElement || target.type === 'date' || target.type === 'number') return;
    clearTimeout(typing);
    // Typing replaces the current history entry; the first keystroke after a commit starts a new one.
    typing = setTimeout(() => {
      navigate(formParams(form), typedSinceCommit ? 'replace' : 'push');
      typedSinceCommit = true;
    }, 180);
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    if (target instanceof HTMLInputElement && target.type !== 'date' && target.type !== 'number') return;
    typedSinceCommit = false;
    const params = formParams(form);
    params.delete('page');
    navigate(params, 'push');
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    typedSinceCommit = false;
    const params = formParams(form);
    params.delete('page');
    navigate(params, 'push');
  });
  form.addEventListener('reset', (event) => {
    event.preventDefault();
    fillForm(form, EMPTY_QUERY, false);
    navigate(new URLSearchParams(), 'push');
  });
  listing.addEventListener('click', (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('[data-pagination] a[data-page]');
    if (!link || root.dataset.searchState !== 'done') return;
    event.preventDefault();
    navigate(new URLSearchParams(link.search), 'push');
    listing.scrollIntoView({ block: 'start' });
  });
  window.addEventListener('popstate', () => void run());
  root.hidden = false;
  for (const hidden of root.querySelectorAll<HTMLElement>('[data-needs-js]')) hidden.hidden = false;
  // Focusing the form prepares the index before the first filter is chosen.
  form.addEventListener('focusin', () => void ensureWorker(), { once: true });
  void run();
}
