// Background fetching of display files (src/client/search/prefetch.ts): only from a visitor's
// second search on, only when the browser welcomes it, within the budget, each file once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISPLAY_PREFETCH_BUDGET, DisplayPrefetch, prefetchWelcome } from '../../src/client/search/prefetch.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function prefetcher(welcome = true) {
  const fetched = new Set<number>();
  const asked: number[] = [];
  const prefetch = new DisplayPrefetch(
    (n) => (asked.push(n), fetched.add(n)),
    (n) => fetched.has(n),
    () => welcome,
  );
  return { prefetch, asked, fetched };
}

describe('prefetching the display files of the next page of results', () => {
  it('waits for the second search, then fetches each file of its next page once, after the search answered', () => {
    const { prefetch, asked, fetched } = prefetcher();
    prefetch.searched([3, 4, 5]);
    vi.runAllTimers();
    expect(asked, 'one search is often all a visit does').toEqual([]);
    fetched.add(7); // fetched for a page shown
    prefetch.searched([7, 8, 8, 9]);
    expect(asked, 'not before the search has answered').toEqual([]);
    vi.runAllTimers();
    expect(asked).toEqual([8, 9]);
    prefetch.searched([9, 10]);
    vi.runAllTimers();
    expect(asked).toEqual([8, 9, 10]);
  });

  it(`never fetches more than ${DISPLAY_PREFETCH_BUDGET} files a visit`, () => {
    const { prefetch, asked } = prefetcher();
    prefetch.searched([]);
    for (let start = 0; start < 3 * DISPLAY_PREFETCH_BUDGET; start += 25) prefetch.searched(Array.from({ length: 25 }, (_, i) => start + i));
    vi.runAllTimers();
    expect(asked).toHaveLength(DISPLAY_PREFETCH_BUDGET);
    expect(new Set(asked).size).toBe(DISPLAY_PREFETCH_BUDGET);
  });

  it('fetches nothing when not welcome', () => {
    const { prefetch, asked } = prefetcher(false);
    for (let i = 0; i < 5; i++) prefetch.searched([i]);
    vi.runAllTimers();
    expect(asked).toEqual([]);
  });
});

describe('whether prefetching is welcome', () => {
  it('is not under Save-Data or on a slow connection', () => {
    expect(prefetchWelcome(undefined)).toBe(true);
    expect(prefetchWelcome({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(prefetchWelcome({ effectiveType: '4g', saveData: true })).toBe(false);
    for (const slow of ['slow-2g', '2g', '3g']) expect(prefetchWelcome({ effectiveType: slow }), slow).toBe(false);
  });
});
