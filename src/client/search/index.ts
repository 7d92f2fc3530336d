/**
 * The topic search of /search/ and of tag pages' filter panels (SPEC 4.2): a form, its facets and
 * the page's listing, with the address as the state. Started on each `[data-search-root]` by the
 * page's script (SearchArea.astro).
 */
import { filtersText } from '../../model/listing.ts';
import { EMPTY_QUERY, searchParamsOf, type SearchQuery } from '../../search/query.ts';
import { wordsWhileTyping } from '../../search/typed-filters.ts';
import { backends } from './backend.ts';
import { readConfig } from './config.ts';
import { facetsView, withFacet } from './facets.ts';
import { formParams, fillForm, wireForm } from './form.ts';
import { renderNoResults, waysOut } from './help.ts';
import type { Choices, SearchResults } from './protocol.ts';
import { renderListing } from './render.ts';
import { suggestions } from './suggestions.ts';
import { tagField } from './tag-field.ts';
import { addressOf, afterPaint, currentQuery, hasTypedFilters, historyWriter, isUnfiltered, pageAddress, queryOf, searchOf, type AddressedSearch } from './url-state.ts';

/**
 * The address's own answer is shown: first-paint.js's mark, which kept the static listing (the
 * answer to no filters) hidden since the first paint, is dropped.
 */
function answered(): void {
  document.documentElement.removeAttribute('data-address-filters');
}

export function start(root: HTMLElement): void {
  const config = readConfig(root);
  const { fixedTag } = config;
  const form = root.querySelector<HTMLFormElement>('[data-search-form]')!;
  const notes = root.querySelector<HTMLElement>('[data-search-notes]')!;
  const typedNote = root.querySelector<HTMLElement>('[data-typed-note]');
  const facets = root.querySelector<HTMLElement>('[data-facets]')!;
  const listing = root.querySelector<HTMLElement>('[data-listing]')!;
  const searching = listing.querySelector<HTMLElement>('[data-searching]')!;
  const noResults = listing.querySelector<HTMLElement>('[data-no-results]')!;
  const template = root.querySelector<HTMLTemplateElement>('[data-result-template]')!;
  const editFilters = root.querySelector<HTMLButtonElement>('[data-edit-filters]');
  const showError = (error: Error) => {
    notes.textContent = `Search failed: ${error.message}`;
    searching.textContent = 'Search failed: see the note above.';
  };
  let choices: Choices | undefined;
  let knownTags: Set<string> | undefined;
  let latest = 0;
  /** The search of the latest request: its results are the ones shown. */
  let latestQuery: SearchQuery = EMPTY_QUERY;
  /**
   * The page's own HTML lists what a search for nothing finds (a tag page's topics; on /search/,
   * every topic) until the first search replaces it: that answer needs no index at all.
   */
  let staticListing = true;
  const typeName = (id: string) => choices?.types.find((type) => type.id === id)?.name ?? id;

  const renderFacets = facetsView(facets, fixedTag, () => choices?.types ?? [], (name, value) => navigate(withFacet(formParams(form), name, value), 'push'));
  const suggest = suggestions(form, () => choices);
  const tagInput = form.querySelector<HTMLInputElement>('input[name="tags"]');
  const tags = tagInput ? tagField(tagInput, () => choices, () => commit()) : undefined;
  const where = backends(config, (backend) => {
    void backend.ready.then((offered) => {
      if (choices) return;
      choices = offered;
      knownTags = new Set(offered.tags);
      suggest(document.activeElement); // a field focused before the index was loaded
      tags?.update();
    }, showError);
  });
  const entries = historyWriter();

  /** On a phone the form folds into "Edit filters" once a search is shown, so its results come first. */
  const fold = (folded: boolean) => {
    if (!editFilters) return;
    root.toggleAttribute('data-filters-folded', folded);
    editFilters.setAttribute('aria-expanded', String(!folded));
  };
  editFilters?.addEventListener('click', () => {
    fold(false);
    form.querySelector<HTMLElement>('input, select')?.focus();
  });

  function show(results: SearchResults) {
    const query = latestQuery;
    renderListing(listing, template, results, query, config, pageAddress, typeName);
    if (results.total === 0) {
      const ways = waysOut(query, knownTags, results.closeWords, fixedTag, typeName);
      renderNoResults(noResults, query, ways, (way) => addressOf(searchOf(searchParamsOf(way), fixedTag)), typeName);
    } else if (!noResults.hidden) noResults.hidden = true;
    tags?.noteUnknown(fixedTag ? [] : query.tags);
    // A shared link's first results come before the counts: the page's own (for no filters) are not theirs.
    if (results.partial) facets.hidden = true;
    else renderFacets(results.facets);
    staticListing = false;
    root.dataset.searchState = 'done';
    root.dataset.searchMs = results.ms.toFixed(2);
    root.dataset.searchEngineMs = results.engineMs.toFixed(2);
    answered();
  }

  /**
   * Searches for `query` (the search is asked for before anything else is done) and shows it in the
   * form. Resolves once its results are shown, failed, or were overtaken by a newer search.
   */
  function run({ query, problems, typedNote: typed }: AddressedSearch, opening = false): Promise<void> {
    const searched = !(staticListing && isUnfiltered(query, fixedTag));
    // A shared link's words are answered in this thread; the worker starts once they are shown.
    const quick = searched && opening ? where.opening(query) : undefined;
    const backend = searched && !quick ? where.forQuery(query) : undefined;
    const id = ++latest; // a search still running for an earlier request is no longer shown
    let shown = Promise.resolve();
    if (!searched) {
      root.dataset.searchState = 'done'; // the page's own listing is the answer
      answered();
    } else {
      root.dataset.searchState = 'running';
      latestQuery = query;
      const filters = filtersText(fixedTag ? { ...query, tags: [] } : query, typeName);
      searching.textContent = filters ? `Searching for ${filters}…` : 'Searching…';
      const request = { query, now: Date.now(), pageSize: config.pageSize };
      const failed = (error: Error) => void (id === latest && showError(error));
      // The address the page opened on may be answered before the index has loaded (see
      // Searcher.search); the full search then fills in the counts.
      shown = (quick ? quick(request) : backend!.search(request)).then((results) => {
        if (id !== latest) return;
        // A synonym (tags.json) is searched, shown and addressed as its tag: `?tags=js` becomes `?tags=javascript`.
        if (results.canonicalTags && !fixedTag) return navigate(searchParamsOf({ ...query, tags: [...new Set(results.canonicalTags)] }), 'replace');
        show(results);
        // Once they are painted: the counts never hold up (or share the network with) the first results.
        if (results.partial) afterPaint(() => void where.forQuery(query).search(request).then((full) => void (id === latest && show(full)), failed));
      }, failed);
    }
    if (problems.length > 0 || notes.childElementCount > 0) {
      notes.replaceChildren(...problems.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
    }
    if (typedNote && typedNote.textContent !== typed) typedNote.textContent = typed;
    fillForm(form, query);
    return shown;
  }

  /** Shows the search `params` ask for; its history entry is written once its results are painted. */
  function navigate(params: URLSearchParams, mode: 'push' | 'replace') {
    const search = searchOf(params, fixedTag);
    const shown = run(queryOf(new URLSearchParams(search), fixedTag));
    entries.write(addressOf(search), mode, shown);
  }

  const commit = wireForm(form, {
    navigate,
    typing: (input) => {
      suggest(input);
      // The words' index files load during the pause before the search, not after it.
      if (input.name === 'q') where.words().prefetchWords(wordsWhileTyping(input.value));
    },
    shownTags: () => latestQuery.tags.join(','),
    submitted: () => fold(true),
  }, fixedTag);
  listing.addEventListener('click', (event) => {
    // Pages of a search (and /search/'s own static ones) have `data-page`; a tag page's static pages
    // are real pages. The ways out of no results (`data-search-link`) are searches too.
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('[data-pagination] a[data-page], a[data-search-link]');
    if (!link) return;
    event.preventDefault();
    navigate(new URLSearchParams(link.search), 'push');
    listing.scrollIntoView({ block: 'start' });
  });
  const showAddress = (opening = false) => {
    entries.forget(); // back or forward came first
    // An address with operators in its words (typed by hand, or the form sent without this script)
    // is shown as the address those operators move to.
    const address = new URLSearchParams(location.search);
    if (opening && hasTypedFilters(address, fixedTag)) history.replaceState(history.state, '', addressOf(searchOf(address, fixedTag)));
    void run(currentQuery(fixedTag), opening);
  };
  window.addEventListener('popstate', () => showAddress());
  root.hidden = false;
  for (const hidden of root.querySelectorAll<HTMLElement>('[data-needs-js]')) hidden.hidden = false;
  // A visitor about to filter (focus in or a pointer over the form or the counts) gets the index
  // loading before the first filter is chosen; reading or tabbing through the listing loads nothing.
  const prepare = () => void where.forQuery(latestQuery);
  for (const target of [form, facets]) {
    for (const type of ['focusin', 'pointerover']) target.addEventListener(type, prepare, { once: true });
  }
  const opened = currentQuery(fixedTag);
  const filtered = !isUnfiltered(opened.query, fixedTag);
  // A shared link with filters opens on its results: on a phone the form waits behind "Edit filters".
  fold(filtered);
  // A tag page's panel opens on an address with filters (or with a value it ignored): its form,
  // filled in, and its notes are then in view.
  const panel = root.querySelector<HTMLDetailsElement>('details.filter-panel');
  if (panel && (filtered || opened.problems.length > 0)) panel.open = true;
  showAddress(true);
}

/** Starts the search of each `[data-search-root]` of the page. */
export function startSearchAreas(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-search-root]')) start(root);
}
