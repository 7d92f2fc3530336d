// Background fetching of display rows and of the vocabulary (src/client/search/prefetch.ts): only
// from a visitor's second search on, only when the browser welcomes it, within the budget, each file once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISPLAY_PREFETCH_ALL_BYTES, DISPLAY_PREFETCH_FILES, DisplayPrefetch, prefetchWelcome, SearchGate, VOCABULARY_PREFETCH_BYTES, VocabularyPrefetch } from '../../src/client/search/prefetch.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A prefetcher over a site whose rows weigh `allBytes`, recording what it fetched. */
function prefetcher(allBytes: number, welcome = true) {
  const fetched = new Set<number>();
  const asked: number[] = [];
  let all = 0;
  const prefetch = new DisplayPrefetch(
    {
      file: (n) => (asked.push(n), fetched.add(n)),
      fetched: (n) => fetched.has(n),
      allBytes: () => allBytes,
      all: () => all++,
    },
    () => welcome,
  );
  return { prefetch, asked, fetched, all: () => all };
}

const BIG = DISPLAY_PREFETCH_ALL_BYTES + 1;

describe("prefetching a small site's rows", () => {
  it('fetches all of them once, from the second search on, after that search answered', () => {
    const { prefetch, asked, all } = prefetcher(DISPLAY_PREFETCH_ALL_BYTES);
    prefetch.searched([1, 2]);
    vi.runAllTimers();
    expect(all(), 'one search is often all a visit does').toBe(0);
    prefetch.searched([3, 4]);
    expect(all(), 'not before the search has answered').toBe(0);
    vi.runAllTimers();
    expect(all()).toBe(1);
    for (let i = 0; i < 5; i++) prefetch.searched([i]);
    vi.runAllTimers();
    expect(all()).toBe(1);
    expect(asked, 'no small files besides').toEqual([]);
  });
});

describe("prefetching a big site's rows: the next page's files", () => {
  it('waits for the second search, then fetches each file of its next page once', () => {
    const { prefetch, asked, fetched, all } = prefetcher(BIG);
    prefetch.searched([3, 4, 5]);
    vi.runAllTimers();
    expect(asked).toEqual([]);
    fetched.add(7); // fetched for a page shown
    prefetch.searched([7, 8, 8, 9]);
    expect(asked, 'not before the search has answered').toEqual([]);
    vi.runAllTimers();
    expect(asked).toEqual([8, 9]);
    prefetch.searched([9, 10]);
    vi.runAllTimers();
    expect(asked).toEqual([8, 9, 10]);
    expect(all()).toBe(0);
  });

  it(`never fetches more than ${DISPLAY_PREFETCH_FILES} files a visit`, () => {
    const { prefetch, asked } = prefetcher(BIG);
    prefetch.searched([]);
    for (let start = 0; start < 3 * DISPLAY_PREFETCH_FILES; start += 25) prefetch.searched(Array.from({ length: 25 }, (_, i) => start + i));
    vi.runAllTimers();
    expect(asked).toHaveLength(DISPLAY_PREFETCH_FILES);
    expect(new Set(asked).size).toBe(DISPLAY_PREFETCH_FILES);
  });
});

describe('prefetching the whole vocabulary (vocab-all.json)', () => {
  /** A prefetcher over a vocabulary of `bytes`, counting its fetches. */
  function vocabulary(bytes: number, welcome = true) {
    let fetched = 0;
    const prefetch = new VocabularyPrefetch(() => bytes, () => fetched++, () => welcome);
    return { prefetch, fetched: () => fetched };
  }

  it('fetches it once, from the second search with words on, after that search answered', () => {
    const { prefetch, fetched } = vocabulary(VOCABULARY_PREFETCH_BYTES);
    prefetch.searched();
    vi.runAllTimers();
    expect(fetched(), 'one search is often all a visit does').toBe(0);
    prefetch.searched();
    expect(fetched(), 'not before the search has answered').toBe(0);
    vi.runAllTimers();
    expect(fetched()).toBe(1);
    for (let i = 0; i < 5; i++) prefetch.searched();
    vi.runAllTimers();
    expect(fetched()).toBe(1);
  });

  it(`never fetches more than ${VOCABULARY_PREFETCH_BYTES} bytes, nor when unwelcome`, () => {
    for (const [bytes, welcome] of [[VOCABULARY_PREFETCH_BYTES + 1, true], [1000, false]] as const) {
      const { prefetch, fetched } = vocabulary(bytes, welcome);
      for (let i = 0; i < 5; i++) prefetch.searched();
      vi.runAllTimers();
      expect(fetched(), `${bytes} bytes, welcome: ${welcome}`).toBe(0);
    }
  });
});

describe('whether prefetching is welcome', () => {
  it('fetches nothing ahead when not', () => {
    for (const allBytes of [1000, BIG]) {
      const { prefetch, asked, all } = prefetcher(allBytes, false);
      for (let i = 0; i < 5; i++) prefetch.searched([i]);
      vi.runAllTimers();
      expect([asked, all()]).toEqual([[], 0]);
    }
  });

  it('is not under Save-Data or on a slow connection', () => {
    expect(prefetchWelcome(undefined)).toBe(true);
    expect(prefetchWelcome({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(prefetchWelcome({ effectiveType: '4g', saveData: true })).toBe(false);
    for (const slow of ['slow-2g', '2g', '3g']) expect(prefetchWelcome({ effectiveType: slow }), slow).toBe(false);
  });
});

describe('prefetching waits for searches (SearchGate)', () => {
  it('lets prefetching go on only when no search is under way, also after one failed', async () => {
    vi.useRealTimers();
    const gate = new SearchGate();
    const order: string[] = [];
    await gate.idle().then(() => order.push('idle at once'));
    let finishFirst!: () => void;
    let failSecond!: (error: Error) => void;
    const first = gate.during(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const second = gate.during(() => new Promise<void>((_, reject) => (failSecond = reject)));
    const waited = gate.idle().then(() => order.push('idle after both'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    finishFirst();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['idle at once']); // the second search is still running
    failSecond(new Error('offline'));
    await expect(second).rejects.toThrow('offline');
    await waited;
    expect(order).toEqual(['idle at once', 'idle after both']);
  });
});
