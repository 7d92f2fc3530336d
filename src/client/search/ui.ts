import { EMPTY_QUERY, parseSearchParams, searchParamsOf, type SearchQuery } from '../../search/query.ts';
import { renderEntries, renderPagination, resultCountText, setText, type ListingOptions } from './render.ts';
import { searchResultsHeadingText } from '../../model/listing.ts';
import { FACET_GROUPS, facetText } from '../../search/facets.ts';
import { SMALL_SITE_MAX_TOPICS } from '../../search/index-format.ts';
import type { Choices, IndexSource, SearchRequest, SearchResults, WorkerRequest, WorkerResponse } from './protocol.ts';
import { Searcher } from './searcher.ts';

/** Where searches run: the page's own thread or the worker. */
interface Backend {
  /** What the form can offer, once the index is loaded. */
  ready: Promise<Choices>;
  search(request: SearchRequest): Promise<SearchResults>;
  /** Words being typed: their index files load during the pause before the search. */
  prefetchWords(q: string): void;
}

function pageBackend(config: SearchConfig): Backend {
  const searcher = new Searcher(config.indexUrl);
  let loaded = false;
  const ready = searcher.init(config.source).then((choices) => {
    loaded = true;
    return choices;
  });
  return {
    ready,
    // Once loaded, a search whose display rows are in memory finishes in this same task.
    search: (request) => (loaded ? searcher.search(request) : ready.then(() => searcher.search(request))),
    prefetchWords: (q) => searcher.prefetchWords(q),
  };
}

function workerBackend(config: SearchConfig): Backend {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (results: SearchResults) => void; reject: (error: Error) => void }>();
  let next = 0;
  let loaded = false;
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    return waiting;
  };
  const ready = new Promise<Choices>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const message = event.data;
      if (message.type === 'ready') {
        loaded = true;
        resolve(message.choices);
      } else if (message.type === 'results') settle(message.id)?.resolve(message);
      else if (message.id === undefined) reject(new Error(message.message));
      else settle(message.id)?.reject(new Error(message.message));
    };
  });
  const post = (request: WorkerRequest) => worker.postMessage(request);
  post({ type: 'init', indexUrl: config.indexUrl, source: config.source });
  return {
    ready,
    search: (request) =>
      new Promise<SearchResults>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve, reject });
        // The worker takes searches once its index is loaded.
        if (loaded) post({ type: 'search', id, ...request });
        else ready.then(() => post({ type: 'search', id, ...request }), reject);
      }),
    prefetchWords: (q) => {
      if (loaded) post({ type: 'prefetch', q });
    },
  };
}

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
    const shown = element instanceof HTMLSelectElement ? value || (element.options[0]?.value ?? '') : value;
    if (element.value === shown) continue; // already says it (the common case after a submit)
    // A field whose value already means this search is left as typed: `api, ` and `clipboard ` keep the
    // comma or space typed before the next word, and `Between dates…` stays chosen before its dates
    // (a choice the search states, such as `custom` for a range, is always shown).
    if (keepTyped && !(element instanceof HTMLSelectElement && value !== '')) {
      const mixed = new URLSearchParams(params);
      mixed.set(element.name, element.value);
      if (searchParamsOf(parseSearchParams(mixed).query).toString() === written) continue;
    }
    element.value = shown;
  }
  for (const box of form.querySelectorAll<HTMLElement>('[data-date-field]')) {
    const range = box.querySelector<HTMLElement>('[data-range]')!;
    const hidden = box.querySelector('select')!.value !== 'custom';
    if (range.hidden !== hidden) range.hidden = hidden;
  }
}

/** Runs `work` after the next frame is painted (or soon, where no frame comes: a hidden tab). */
function afterPaint(work: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

/** Names a tags or author field suggests at once: the most used of those that fit what is typed. */
const SUGGESTIONS = 12;

/**
 * Puts into a field's datalist the known names that start with what is being typed (in a tags
 * field, the tag after the last comma, with the tags before it kept in each suggestion). A dozen
 * options at a time keep the browser's own datalist and form code quick on every keystroke.
 */
function suggest(input: HTMLInputElement, names: readonly string[], several: boolean): void {
  const value = input.value;
  const cut = several ? value.lastIndexOf(',') + 1 : 0;
  const typed = value.slice(cut).trim().toLowerCase();
  const kept = cut > 0 ? `${value.slice(0, cut).trimEnd()} ` : '';
  const found: string[] = [];
  for (let i = 0; i < names.length && found.length < SUGGESTIONS; i++) {
    if (names[i]!.toLowerCase().startsWith(typed)) found.push(`${kept}${names[i]}`);
  }
  input.list?.replaceChildren(...found.map((name) => Object.assign(document.createElement('option'), { value: name })));
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
  /** The search of the latest request: its results are the ones shown. */
  let latestQuery: SearchQuery = EMPTY_QUERY;
  // A small site's structured filters run in the page's own thread: a few milliseconds, and no
  // thread hops. Words, and everything on big sites, run in the worker. Each loads on first need:
  // a tag page costs nothing until its panel is used.
  const inPage = Number(root.dataset.topics) <= SMALL_SITE_MAX_TOPICS;
  let pageSearch: Backend | undefined;
  let workerSearch: Backend | undefined;
  const onReady = (backend: Backend) => {
    void backend.ready.then((offered) => {
      if (choices) return;
      choices = offered;
      suggestFor(document.activeElement); // a field focused before the index was loaded
    }, (error: Error) => (notes.textContent = `Search failed: ${error.message}`));
    return backend;
  };
  const wordsBackend = () => (workerSearch ??= onReady(workerBackend(config)));
  const backendFor = (query: SearchQuery) => (inPage && !query.q ? (pageSearch ??= onReady(pageBackend(config))) : wordsBackend());

  /** The search a query string describes (a tag page adds its own tag). */
  const queryOf = (params: URLSearchParams) => {
    const { query, notes: problems } = parseSearchParams(params);
    if (config.fixedTag) {
      query.tags = [config.fixedTag];
      // A tag page's own order is the listing order of SPEC 4.1 unless another sort is chosen.
      query.sort ??= query.q ? undefined : 'updated';
    }
    return { query, problems };
  };

  // A tag page's tag and its own order (sort=updated, set above) are not filters: its static listing shows them.
  const isUnfiltered = (query: SearchQuery) =>
    searchParamsOf(config.fixedTag ? { ...query, tags: [], sort: query.sort === 'updated' ? undefined : query.sort } : query).toString() === '';
  /**
   * The page's own HTML lists what a search for nothing finds (a tag page's topics; on /search/,
   * every topic) until the first search replaces it: that answer needs no index at all.
   */
  let staticListing = true;

  function showResults(message: SearchResults) {
    const query = latestQuery;
    setText(listing.querySelector('[data-search-heading]')!, searchResultsHeadingText(query.tags, query.match, query.q));
    setText(listing.querySelector('[data-result-count]')!, resultCountText(message.total));
    renderEntries(listing.querySelector('[data-results]')!, template, message.rows, config);
    const nav = listing.querySelector<HTMLElement>('[data-pagination]')!;
    renderPagination(nav, message.pageNumber, message.pages, (n) => {
      const params = new URLSearchParams(location.search);
      if (n > 1) params.set('page', String(n));
      else params.delete('page');
      return `?${params}`;
    });
    renderFacets(message.facets);
    staticListing = false;
    root.dataset.searchState = 'done';
    root.dataset.searchMs = message.ms.toFixed(2);
    root.dataset.searchEngineMs = message.engineMs.toFixed(2);
  }

  /** Facet groups, made once (or found in the page's HTML) and then updated in place: only changed text is written. */
  const facetLists = new Map<string, HTMLElement>();
  const groups = FACET_GROUPS.filter((group) => !(config.fixedTag && group.param === 'tags'));
  for (const box of facets.querySelectorAll<HTMLElement>('[data-facet]')) facetLists.set(box.dataset.facet!, box.querySelector('ul')!);
  function renderFacets(counts: SearchResults['facets']) {
    if (facets.hidden) facets.hidden = false;
    if (facetLists.size === 0) {
      facets.replaceChildren(
        ...groups.map(({ title, param }) => {
          const box = document.createElement('section');
          box.dataset.facet = param;
          const heading = document.createElement('h2');
          heading.textContent = title;
          const list = document.createElement('ul');
          facetLists.set(param, list);
          box.append(heading, list);
          return box;
        }),
      );
    }
    for (const { param, counts: group } of groups) {
      const list = facetLists.get(param)!;
      const shown = counts[group];
      shown.forEach(([value, count], i) => {
        let button = list.children[i]?.firstElementChild as HTMLButtonElement | undefined;
        if (!button) {
          const item = document.createElement('li');
          button = document.createElement('button');
          button.type = 'button';
          item.append(button);
          list.append(item);
        }
        if (button.dataset.facetValue !== value) button.dataset.facetValue = value;
        setText(button, facetText(param, value, count, choices?.types ?? []));
      });
      while (list.children.length > shown.length) list.lastElementChild!.remove();
    }
  }

  facets.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>('[data-facet-value]');
    const name = button?.closest<HTMLElement>('[data-facet]')?.dataset.facet;
    if (button && name) applyFacet(name, button.dataset.facetValue!);
  });

  function applyFacet(name: string, value: string) {
    const params = formParams(form);
    if (name === 'tags') {
      const tags = (params.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      if (!tags.includes(value)) tags.push(value);
      params.set('tags', tags.join(','));
    } else params.set(name, value);
    navigate(params, 'push');
  }

  /**
   * Searches for `query` (the search is asked for before anything else is done) and shows it in the
   * form. Resolves once its results are shown, failed, or were overtaken by a newer search.
   */
  function run({ query, problems }: { query: SearchQuery; problems: string[] }): Promise<void> {
    const backend = staticListing && isUnfiltered(query) ? undefined : backendFor(query);
    const id = ++latest; // a search still running for an earlier request is no longer shown
    let shown = Promise.resolve();
    if (!backend) root.dataset.searchState = 'done'; // the page's own listing is the answer
    else {
      root.dataset.searchState = 'running';
      latestQuery = query;
      shown = backend
        .search({ query, now: Date.now(), pageSize: config.pageSize })
        .then(
          (results) => void (id === latest && showResults(results)),
          (error: Error) => void (id === latest && (notes.textContent = `Search failed: ${error.message}`)),
        );
    }
    if (problems.length > 0 || notes.childElementCount > 0) {
      notes.replaceChildren(...problems.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
    }
    fillForm(form, query);
    return shown;
  }

  // A search's history entry is written once its results are painted: results come first. Writing
  // an entry is a same-document navigation that costs the page ~2 ms and the browser's own process
  // ~6 ms (Chromium, measured on a 2-core machine), which would otherwise compete with the search.
  let pendingEntry: (() => void) | undefined;
  const writePendingEntry = () => {
    const write = pendingEntry;
    pendingEntry = undefined;
    write?.();
  };
  function writeEntry(url: string, mode: 'push' | 'replace', shown: Promise<void>) {
    writePendingEntry(); // entries keep the order of their searches
    if (url === `${location.pathname}${location.search}`) return;
    const write = () => history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', url);
    pendingEntry = write;
    void shown.then(() => afterPaint(() => pendingEntry === write && writePendingEntry()));
  }

  function navigate(params: URLSearchParams, mode: 'push' | 'replace') {
    const { query } = parseSearchParams(params);
    if (config.fixedTag) {
      query.tags = [];
      if (query.sort === 'updated') delete query.sort;
    }
    const search = searchParamsOf(query).toString();
    const shown = run(queryOf(new URLSearchParams(search)));
    writeEntry(`${location.pathname}${search ? `?${search}` : ''}`, mode, shown);
  }

  const currentRun = () => {
    pendingEntry = undefined; // back or forward came first: that entry is no longer wanted
    void run(queryOf(new URLSearchParams(location.search)));
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  let typedSinceCommit = false;
  const suggestFor = (target: EventTarget | null) => {
    if (!(target instanceof HTMLInputElement) || !choices) return;
    if (target.name === 'tags') suggest(target, choices.tags, true);
    else if (target.name === 'author') suggest(target, choices.authors, false);
  };
  form.addEventListener('focusin', (event) => suggestFor(event.target));
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target instanceof HTMLSelectElement || target.type === 'date' || target.type === 'number') return;
    suggestFor(target);
    // The words' index files load during the pause before the search, not after it.
    if (target.name === 'q') wordsBackend().prefetchWords(target.value);
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
    // Pages of a search (and /search/'s own static ones) have `data-page`; a tag page's static pages are real pages.
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('[data-pagination] a[data-page]');
    if (!link) return;
    event.preventDefault();
    navigate(new URLSearchParams(link.search), 'push');
    listing.scrollIntoView({ block: 'start' });
  });
  window.addEventListener('popstate', currentRun);
  root.hidden = false;
  for (const hidden of root.querySelectorAll<HTMLElement>('[data-needs-js]')) hidden.hidden = false;
  // A visitor about to filter (focus in or a pointer over the form or the counts) gets the index
  // loading before the first filter is chosen; reading or tabbing through the listing loads nothing.
  const prepare = () => void backendFor(latestQuery);
  for (const target of [form, facets]) {
    for (const type of ['focusin', 'pointerover']) target.addEventListener(type, prepare, { once: true });
  }
  currentRun();
}
