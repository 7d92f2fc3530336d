// Background fetching of display rows and of the vocabulary, only where it pays and is welcome.

/**
 * Display rows a page visit may fetch ahead of need, at most. All of a site's rows, when they are
 * no more than DISPLAY_PREFETCH_ALL_BYTES (about 1.7 MB gzip: a site of some 12,000 topics), so
 * every later result waits for no file; otherwise the rows of the page after each one shown
 * ("Next"), up to DISPLAY_PREFETCH_FILES small files (about 100 KB gzip) a visit.
 */
export const DISPLAY_PREFETCH_ALL_BYTES = 4_500_000;
export const DISPLAY_PREFETCH_FILES = 100;

interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** Whether the browser lets us fetch what nobody asked for yet: not under Save-Data, not on a slow connection. */
export function prefetchWelcome(connection: ConnectionInfo | undefined = (navigator as Navigator & { connection?: ConnectionInfo }).connection): boolean {
  if (!connection) return true;
  return !connection.saveData && !['slow-2g', '2g', '3g'].includes(connection.effectiveType ?? '');
}

/** What can be prefetched: small display files one by one, or every row at once. */
export interface PrefetchTargets {
  /** Fetches display file `n` (a few rows). */
  file(n: number): void;
  /** Whether display file `n`'s rows are here or on their way. */
  fetched(n: number): boolean;
  /** Uncompressed bytes of all the site's rows. */
  allBytes(): number;
  /** Fetches all the site's rows. */
  all(): void;
}

/**
 * Fetches display rows after a search has answered: only from a visitor's second search on (one
 * search is often all a visit does), when welcome, within the budget above.
 */
export class DisplayPrefetch {
  private searches = 0;
  private spent = 0;
  private allStarted = false;
  private readonly targets: PrefetchTargets;
  private readonly welcome: () => boolean;

  constructor(targets: PrefetchTargets, welcome: () => boolean = prefetchWelcome) {
    this.targets = targets;
    this.welcome = welcome;
  }

  /** A search was answered; `next` are the display files of its next page. */
  searched(next: readonly number[]): void {
    this.searches++;
    if (this.searches < 2 || this.allStarted || !this.welcome()) return;
    if (this.targets.allBytes() <= DISPLAY_PREFETCH_ALL_BYTES) {
      this.allStarted = true;
      setTimeout(() => this.targets.all(), 0);
      return;
    }
    const wanted = [...new Set(next)].filter((n) => !this.targets.fetched(n)).slice(0, DISPLAY_PREFETCH_FILES - this.spent);
    if (wanted.length === 0) return;
    this.spent += wanted.length;
    setTimeout(() => {
      for (const n of wanted) this.targets.file(n);
    }, 0);
  }
}

/**
 * The whole vocabulary (vocab-all.json) a visit may fetch ahead of need, at most: about 330 KB gzip
 * (a site of 10,000 topics has some 280 KB, 95 KB gzip). With it, a later word waits only for its
 * postings: one request fewer a word, and a typo's terms are known before any file is asked for.
 */
export const VOCABULARY_PREFETCH_BYTES = 1_000_000;

/**
 * Fetches the whole vocabulary once, from a visitor's second search with words on (one search is
 * often all a visit does), when welcome and within the budget above.
 */
export class VocabularyPrefetch {
  private searches = 0;
  private started = false;
  private readonly bytes: () => number;
  private readonly fetch: () => void;
  private readonly welcome: () => boolean;

  /** `bytes`: uncompressed bytes of vocab-all.json; `fetch` asks for it. */
  constructor(bytes: () => number, fetch: () => void, welcome: () => boolean = prefetchWelcome) {
    this.bytes = bytes;
    this.fetch = fetch;
    this.welcome = welcome;
  }

  /** A search with words was answered. */
  searched(): void {
    this.searches++;
    if (this.searches < 2 || this.started || !this.welcome() || this.bytes() > VOCABULARY_PREFETCH_BYTES) return;
    this.started = true;
    setTimeout(this.fetch, 0);
  }
}

/**
 * Keeps background fetching out of a search's way: searches run `during` it, and prefetching
 * waits for `idle` before each file, so a search's own files never queue behind prefetched ones
 * for the browser's few connections to the host (six over HTTP/1.1).
 */
export class SearchGate {
  private running = 0;
  private waiting: Array<() => void> = [];

  /** Runs one search; the gate is busy until it has finished (or failed). */
  async during<T>(search: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await search();
    } finally {
      if (--this.running === 0) {
        const waiting = this.waiting;
        this.waiting = [];
        for (const resume of waiting) resume();
      }
    }
  }

  /** Resolves once no search is under way (at once when none is). */
  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resume) => this.waiting.push(resume));
  }
}
