import type { SearchQuery } from '../../search/query.ts';
import { SMALL_SITE_MAX_TOPICS } from '../../search/index-format.ts';
import { onlyWords } from '../../search/relevance.ts';
import type { SearchConfig } from './config.ts';
import type { Choices, SearchRequest, SearchResults, WorkerRequest, WorkerResponse } from './protocol.ts';
import { Searcher } from './searcher.ts';

/** Where searches run: the page's own thread or the worker. */
export interface Backend {
  /** What the form can offer, once the index is loaded. */
  ready: Promise<Choices>;
  search(request: SearchRequest): Promise<SearchResults>;
  /** Words being typed: their index files load during the pause before the search. */
  prefetchWords(q: string): void;
}

function pageBackend(searcher: Searcher): Backend {
  let loaded = false;
  const ready = searcher.choices().then((choices) => {
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

/** `deferIndex`: see WorkerRequest 'init'. */
function workerBackend(config: SearchConfig, deferIndex: boolean): Backend {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (results: SearchResults) => void; reject: (error: Error) => void }>();
  let next = 0;
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    return waiting;
  };
  const ready = new Promise<Choices>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const message = event.data;
      if (message.type === 'ready') resolve(message.choices);
      else if (message.type === 'results') settle(message.id)?.resolve(message);
      else if (message.id === undefined) reject(new Error(message.message));
      else settle(message.id)?.reject(new Error(message.message));
    };
  });
  const post = (request: WorkerRequest) => worker.postMessage(request);
  post({ type: 'init', indexUrl: config.indexUrl, source: config.source, deferIndex });
  // The worker loads what each search needs itself: searches are posted at once.
  return {
    ready,
    search: (request) =>
      new Promise<SearchResults>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve, reject });
        post({ type: 'search', id, ...request });
      }),
    prefetchWords: (q) => post({ type: 'prefetch', q }),
  };
}

export interface Backends {
  /** The backend that runs `query`, started on first need. */
  forQuery(query: SearchQuery): Backend;
  /**
   * The first search of /search/ opened with words (a shared link), in the page's own thread: no
   * worker has to start before its results. Words alone are answered from the word index and
   * display files only (Searcher.search `partial`), before any core.json; words with other filters,
   * on a site small enough for the page's thread, from the core.json first-paint.js asked for.
   * Undefined for other searches.
   */
  opening(query: SearchQuery): ((request: SearchRequest) => Promise<SearchResults>) | undefined;
  /** The backend of searches with words (the worker), started on first need. */
  words(): Backend;
}

/**
 * A small site's structured filters run in the page's own thread: a few milliseconds, and no
 * thread hops. Words, and everything on big sites, run in the worker. Each loads on first need,
 * so a tag page costs nothing until its panel is used. `started` is told of each backend as it starts.
 */
export function backends(config: SearchConfig, started: (backend: Backend) => void): Backends {
  const inPage = config.topics <= SMALL_SITE_MAX_TOPICS;
  let pageSearcher: Searcher | undefined;
  const ownSearcher = () => {
    if (pageSearcher) return pageSearcher;
    pageSearcher = new Searcher(config.indexUrl);
    pageSearcher.init(config.source);
    return pageSearcher;
  };
  let pageSearch: Backend | undefined;
  let workerSearch: Backend | undefined;
  const start = (backend: Backend) => {
    started(backend);
    return backend;
  };
  const words = (deferIndex = false) => (workerSearch ??= start(workerBackend(config, deferIndex)));
  return {
    words: () => words(),
    // A worker started for words alone over the whole site (a shared link) leaves core.json for later.
    forQuery: (query) => (inPage && !query.q ? (pageSearch ??= start(pageBackend(ownSearcher()))) : words(config.source.kind === 'site' && onlyWords(query))),
    opening: (query) => {
      if (config.source.kind !== 'site' || !query.q) return undefined;
      // A core.json asked for from <head> is used, whatever else the address holds.
      if (onlyWords(query) && !('tagsiteCoreFile' in globalThis)) {
        const searcher = ownSearcher();
        return (request) => searcher.search({ ...request, partial: true });
      }
      if (!inPage) return undefined;
      // Started for the form's choices and later searches; this one asks at once (Searcher.search
      // loads the index and the words' files side by side).
      pageSearch ??= start(pageBackend(ownSearcher()));
      return (request) => ownSearcher().search(request);
    },
  };
}
