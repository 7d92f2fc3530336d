/**
 * Routes made from the listings only, and values made from the topics' shape only
 * (src/build/page-reuse.ts): while the topics without their posts, the data files and the options
 * are as the previous build had them, a route's pages are reused by their previous keys without
 * being made; while the topics' order, tags and dates are, a value is the one made then.
 */
import { afterAll, beforeEach, expect, it, vi } from 'vitest';
import { resolve } from 'node:path';
import { buildStore, routesToRemember, type PageReuse } from '../../src/build/store.ts';

vi.mock('virtual:tagsite/options', () => ({ default: { pageSize: 25, intersections: { minTopics: 5, maxPages: 100 } } }));
const { listingKeyer, listingPagesToRender, pagesToRender, sameWhileShape, sameWhileTags, sameWhileTopics } = await import('../../src/build/page-reuse.ts');
import type { Topic } from '../../src/content/topics.ts';

const root = resolve(import.meta.dirname, '../..');
const store = buildStore();
const before = { source: store.source, content: store.content, reuse: store.reuse };
afterAll(() => Object.assign(store, before));

/** A build's reuse: the last one's keys and routes, and the listings' and the shape's digests as this build's reading gave them. */
function nextBuild(listings: string, last?: PageReuse, lose: string[] = [], shape = 'shape-1', tags = 'tags-1'): PageReuse {
  const previous = new Map(last?.next);
  for (const file of lose) previous.delete(file);
  const reuse: PageReuse = { previous, next: new Map(), reused: new Set(), carried: new Set(), inPlace: false, listings, fromShape: shape, fromTags: tags, routes: { previous: new Map(last?.routes.next), next: new Map() }, postsShown: 0 };
  // Each build reads its content anew (the values made from it are made once a build).
  Object.assign(store, { source: { root, contentDir: resolve(root, 'content'), excerptLength: 200 }, content: undefined, reuse });
  return reuse;
}

const paths = () => ['alpha', 'beta', 'gamma'].map((slug) => ({ params: { slug }, props: { slug, title: `The ${slug} page` } }));
const files = ['x/alpha/index.html', 'x/beta/index.html', 'x/gamma/index.html'];

beforeEach(() => {
  Object.assign(store, { reuse: undefined, unkeyed: undefined });
});

it("reuses a route's pages by their previous keys without making them while the listings are the same, and makes them when not", async () => {
  const make = vi.fn(paths);
  const first = nextBuild('listings-1');
  expect((await listingPagesToRender('/x/[slug]/', make)).map(({ params }) => params.slug)).toEqual(['alpha', 'beta', 'gamma']);
  expect(make).toHaveBeenCalledTimes(1);
  expect(first.routes.next.get('/x/[slug]/')?.files).toEqual(files);

  const second = nextBuild('listings-1', first);
  expect(await listingPagesToRender('/x/[slug]/', make)).toEqual([]);
  expect(make, 'not made again').toHaveBeenCalledTimes(1);
  expect(second.next).toEqual(first.next);
  expect([...second.reused]).toEqual(files);

  // Other listings: made and keyed again (the keys are the same, so every page is still reused).
  const third = nextBuild('listings-2', second);
  expect(await listingPagesToRender('/x/[slug]/', make)).toEqual([]);
  expect(make).toHaveBeenCalledTimes(2);
  expect(third.routes.next.get('/x/[slug]/')?.inputs).not.toBe(second.routes.next.get('/x/[slug]/')?.inputs);

  // A page no longer as its build left it (not among the previous keys): the route is made, and that page rendered.
  nextBuild('listings-2', third, ['x/beta/index.html']);
  expect((await listingPagesToRender('/x/[slug]/', make)).map(({ params }) => params.slug)).toEqual(['beta']);
  expect(make).toHaveBeenCalledTimes(3);
});

it('gives the value made from the same shape by the previous build, whatever the listings, and makes it again for another shape', async () => {
  const make = vi.fn(() => ({ total: 3, page: ['alpha'] }));
  const first = nextBuild('listings-1');
  expect(sameWhileShape('(a value)', make)).toEqual({ total: 3, page: ['alpha'] });
  // A title changed: other listings, the same shape.
  const second = nextBuild('listings-2', first);
  expect(sameWhileShape('(a value)', () => ({ total: 0, page: [] }))).toEqual({ total: 3, page: ['alpha'] });
  expect(second.routes.next.get('(a value)')).toEqual(first.routes.next.get('(a value)'));
  nextBuild('listings-2', second, [], 'shape-2');
  expect(sameWhileShape('(a value)', () => ({ total: 4, page: [] }))).toEqual({ total: 4, page: [] });
  expect(make).toHaveBeenCalledTimes(1);
});

it('gives the value made from the same tags by the previous build, whatever the shape, and makes it again for other tags', () => {
  const first = nextBuild('listings-1');
  expect(sameWhileTags('(pairs)', () => ['api + json'])).toEqual(['api + json']);
  // A topic bumped: another shape, the same tags.
  const second = nextBuild('listings-2', first, [], 'shape-2');
  expect(sameWhileTags('(pairs)', () => ['made again'])).toEqual(['api + json']);
  nextBuild('listings-2', second, [], 'shape-2', 'tags-2');
  expect(sameWhileTags('(pairs)', () => ['made again'])).toEqual(['made again']);
});

it('remembers a value a build did not ask for, for the next build that does: after a post edit, say', () => {
  const first = nextBuild('listings-1');
  sameWhileTags('(pairs)', () => ['api + json']);
  // A post edit: no listing is made, the pairs are not asked for. The build remembers its own routes and the earlier values.
  const second = nextBuild('listings-1', first);
  expect(second.routes.next.has('(pairs)')).toBe(false);
  const remembered = { ...second, routes: { ...second.routes, next: routesToRemember(second.routes) } };
  expect(remembered.routes.next.get('(pairs)')).toEqual(first.routes.next.get('(pairs)'));
  // A bump: the same tags, the value of the first build.
  nextBuild('listings-2', remembered, [], 'shape-2');
  expect(sameWhileTags('(pairs)', () => ['made again'])).toEqual(['api + json']);
  // A route's pages are not remembered for a build that did not make them: each build lists its own.
  const routes = routesToRemember({ previous: new Map([['/x/[slug]/', { inputs: 'listings-1', files }]]), next: new Map() });
  expect(routes.has('/x/[slug]/')).toBe(false);
});

it("keys each page of a listing by its own topics' records, its place in the listing and what else the listing's pages show", async () => {
  const topics = ['alpha', 'beta', 'gamma'].map((slug) => ({ slug, title: `The ${slug} topic`, tags: ['api'] }) as unknown as Topic);
  // One topic a page.
  const keysOf = async (listing: Topic[], also: unknown) => {
    const reuse = nextBuild('listings-1');
    const pages = listing.map((topic, i) => ({ topics: [topic], page: i + 1, pages: listing.length, total: listing.length }));
    (await listingKeyer())(pages, also, ['api']);
    await pagesToRender('/x/[slug]/', pages.map((props) => ({ params: { slug: String(props.page) }, props })));
    return [...reuse.next.values()];
  };
  const first = await keysOf(topics, ['api', 'A description.']);
  expect(new Set(first).size, 'a key for each page').toBe(3);
  expect(await keysOf(topics, ['api', 'A description.']), 'the same listing, the same keys').toEqual(first);
  const changed = (keys: string[]) => keys.map((key, i) => key !== first[i]);
  expect(changed(await keysOf([topics[0]!, topics[1]!, { ...topics[2]!, title: 'Renamed' }], ['api', 'A description.'])), "the last page's topic retitled").toEqual([false, false, true]);
  expect(changed(await keysOf([topics[1]!, topics[0]!, topics[2]!], ['api', 'A description.'])), 'the first two swapped').toEqual([true, true, false]);
  expect(changed(await keysOf(topics.slice(0, 2), ['api', 'A description.'])), 'a page less').toEqual([true, true]);
  expect(changed(await keysOf(topics, ['api', 'Another description.'])), 'another description').toEqual([true, true, true]);
});

it("gives the value made from the same topics' records and the same other inputs by the previous build, and makes it again when one of them changed", async () => {
  const topics = () => ['alpha', 'beta'].map((slug) => ({ slug, title: `The ${slug} workflow`, workflow: { file: `${slug}.zip` } }) as unknown as Topic);
  const make = vi.fn(() => ({ list: 'made' }));
  const first = nextBuild('listings-1');
  expect(await sameWhileTopics('(lists)', topics(), ['https://a.example/'], make)).toEqual({ list: 'made' });
  // The same records read again (other objects), other listings and another shape: kept.
  const second = nextBuild('listings-2', first, [], 'shape-2', 'tags-2');
  expect(await sameWhileTopics('(lists)', topics(), ['https://a.example/'], () => ({ list: 'made again' }))).toEqual({ list: 'made' });
  expect(make).toHaveBeenCalledTimes(1);
  const retitled = topics();
  retitled[1] = { ...retitled[1]!, title: 'Renamed' };
  nextBuild('listings-2', second);
  expect(await sameWhileTopics('(lists)', retitled, ['https://a.example/'], () => ({ list: 'retitled' })), 'a topic retitled').toEqual({ list: 'retitled' });
  nextBuild('listings-2', second);
  expect(await sameWhileTopics('(lists)', topics().slice(0, 1), ['https://a.example/'], () => ({ list: 'shorter' })), 'a topic less').toEqual({ list: 'shorter' });
  nextBuild('listings-2', second);
  expect(await sameWhileTopics('(lists)', topics(), ['https://b.example/'], () => ({ list: 'elsewhere' })), 'another site address').toEqual({ list: 'elsewhere' });
  store.reuse = undefined;
  expect(await sameWhileTopics('(lists)', topics(), ['https://a.example/'], () => ({ list: 'outside a build' }))).toEqual({ list: 'outside a build' });
});

it('makes everything, and remembers nothing, outside a build (astro dev)', async () => {
  const make = vi.fn(paths);
  expect(await listingPagesToRender('/x/[slug]/', make)).toHaveLength(3);
  expect(sameWhileShape('(a value)', () => 7)).toBe(7);
  expect(make).toHaveBeenCalledTimes(1);
});

it('in the page thread (unkeyed), makes every page of a route, keys none and reuses none, and still takes the values made from the same shape', async () => {
  const first = nextBuild('listings-1');
  await listingPagesToRender('/x/[slug]/', paths);
  expect(sameWhileShape('(a value)', () => 'made first')).toBe('made first');
  // What the main thread of the next build, whose listings are the same, would reuse every page of.
  const thread = nextBuild('listings-1', first);
  store.unkeyed = true;
  expect((await listingPagesToRender('/x/[slug]/', paths)).map(({ params }) => params.slug)).toEqual(['alpha', 'beta', 'gamma']);
  expect((await pagesToRender('/x/[slug]/', paths())).map(({ params }) => params.slug)).toEqual(['alpha', 'beta', 'gamma']);
  expect(thread.next.size).toBe(0);
  expect(thread.reused.size).toBe(0);
  expect(sameWhileShape('(a value)', () => 'made again')).toBe('made first');
});
