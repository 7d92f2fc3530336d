// Background fetching of display files, only where it pays and is welcome.

/**
 * Display files a page visit may fetch ahead of need, at most: 100 files of 4 rows (about 100 KB
 * gzip), four pages of results after the ones asked for.
 */
export const DISPLAY_PREFETCH_BUDGET = 100;

interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** Whether the browser lets us fetch what nobody asked for yet: not under Save-Data, not on a slow connection. */
export function prefetchWelcome(connection: ConnectionInfo | undefined = (navigator as Navigator & { connection?: ConnectionInfo }).connection): boolean {
  if (!connection) return true;
  return !connection.saveData && !['slow-2g', '2g', '3g'].includes(connection.effectiveType ?? '');
}

/**
 * The display files of the page after the one shown ("Next"), fetched after the search has
 * answered: only from a visitor's second search on (one search is often all a visit does), when
 * welcome, and within DISPLAY_PREFETCH_BUDGET files a visit.
 */
export class DisplayPrefetch {
  private searches = 0;
  private spent = 0;
  private readonly fetchFile: (n: number) => unknown;
  private readonly fetched: (n: number) => boolean;
  private readonly welcome: () => boolean;

  constructor(fetchFile: (n: number) => unknown, fetched: (n: number) => boolean, welcome: () => boolean = prefetchWelcome) {
    this.fetchFile = fetchFile;
    this.fetched = fetched;
    this.welcome = welcome;
  }

  /** A search was answered; `next` are the display files of its next page. */
  searched(next: readonly number[]): void {
    this.searches++;
    if (this.searches < 2 || !this.welcome()) return;
    const wanted = [...new Set(next)].filter((n) => !this.fetched(n)).slice(0, DISPLAY_PREFETCH_BUDGET - this.spent);
    if (wanted.length === 0) return;
    this.spent += wanted.length;
    setTimeout(() => {
      for (const n of wanted) this.fetchFile(n);
    }, 0);
  }
}
