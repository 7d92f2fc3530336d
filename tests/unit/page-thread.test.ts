/** How a full build parts its pages between Astro and the page thread (src/build/page-thread.ts). */
import { afterEach, expect, it, vi } from 'vitest';
import type { RouteData } from 'astro';
import { pageThreadWanted, sharedLast } from '../../src/build/page-thread.ts';

const route = (pattern: string, params: string[] = []) => ({ route: pattern, type: 'page', params }) as unknown as RouteData;
const tag = route('/tags/[tag]', ['tag']);
const topic = route('/topics/[slug]', ['slug']);
const news = route('/tags/news');
const member = route('/members/[slug]', ['slug']);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

it("shares the listings' pages and keeps the others, in Astro's order", () => {
  const paths = [
    { pathname: '/topics/a/', route: topic },
    { pathname: '/tags/x/', route: tag },
    { pathname: '/members/m/', route: member },
    { pathname: '/tags/y/', route: tag },
    { pathname: '/', route: route('/') },
  ];
  const { own, sharing } = sharedLast(paths);
  expect(own.map(({ pathname }) => pathname)).toEqual(['/topics/a/', '/']);
  expect(sharing.map(({ pathname }) => pathname)).toEqual(['/tags/x/', '/members/m/', '/tags/y/']);
});

it('builds the first of two routes that make one path, and says so as Astro does', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  // A page of its own before a tag's listing with its path, and the other way round.
  const first = sharedLast([{ pathname: '/tags/news/', route: news }, { pathname: '/tags/news/', route: tag }]);
  expect(first.own.map(({ route }) => route)).toEqual([news]);
  expect(first.sharing).toEqual([]);
  const second = sharedLast([{ pathname: '/tags/news/', route: tag }, { pathname: '/tags/news', route: news }, { pathname: '/tags/news/', route: tag }]);
  expect(second.sharing.map(({ route }) => route)).toEqual([tag]);
  expect(second.own).toEqual([]);
  expect(warn.mock.calls.map(([line]) => line)).toEqual([
    'Could not render `/tags/news` from route `/tags/[tag]` as it conflicts with higher priority route `/tags/news`.',
    'Could not render `/tags/news` from route `/tags/news` as it conflicts with higher priority route `/tags/[tag]`.',
    'Could not render `/tags/news` from route `/tags/[tag]` as it conflicts with higher priority route `/tags/[tag]`.',
  ]);
});

it('starts the thread from 1,000 topics, or as TAGSITE_PAGE_THREAD says', () => {
  vi.stubEnv('TAGSITE_PAGE_THREAD', undefined);
  expect(pageThreadWanted(999)).toBe(false);
  expect(pageThreadWanted(1000)).toBe(true);
  vi.stubEnv('TAGSITE_PAGE_THREAD', '0');
  expect(pageThreadWanted(100_000)).toBe(false);
  vi.stubEnv('TAGSITE_PAGE_THREAD', '1');
  expect(pageThreadWanted(3)).toBe(true);
});
