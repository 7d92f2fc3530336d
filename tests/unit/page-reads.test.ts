/**
 * Pages without parameters are keyed by the parts of the site's data they read while they rendered
 * (src/build/page-reads.ts), which the site's records note as a page takes them, also through a
 * value made from them once a build (src/build/site-records.ts fromSiteRecords).
 */
import { afterAll, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildStore, pageReads, type PageReuse } from '../../src/build/store.ts';
import { fromSiteRecords, oldAddressLookup, siteData, typeChoicesOfSite } from '../../src/build/site-records.ts';
import { readsKey, stillAsRead } from '../../src/build/page-reads.ts';
import type { SiteContent } from '../../src/content/load.ts';

const root = resolve(import.meta.dirname, '../..');
const store = buildStore();
const before = { source: store.source, content: store.content };
afterAll(() => Object.assign(store, before));

/** A build's reuse, as far as the keys look at it: the digest of the topics without their posts. */
const reuseOf = (listings: string | undefined) => ({ listings }) as PageReuse;

const content = {
  topics: [],
  contentTypes: { list: [{ id: 'help', name: 'Help', group: 'forum' }] },
  members: [{ name: 'Ines Varga', joined: '2024-02-01', group: 'Members' }],
  links: [{ title: 'Knot reference', url: 'https://knots.example/reference', tags: ['reference'] }],
  tags: { canonicalOf: new Map([['clip', 'clipboard']]), descriptions: new Map([['clipboard', 'Copy and paste.']]), aliases: [] },
  oldAddresses: [],
} as unknown as SiteContent;

it("keys a page by the parts it read: the same while they are, another when one of them changed, whatever the others do", () => {
  const key = readsKey(['links', 'contentTypes'], reuseOf('listings-1'), content)!;
  expect(key).toMatch(/^reads:contentTypes,links:/);
  expect(readsKey(['contentTypes', 'links', 'links'], reuseOf('listings-1'), { ...content }), 'read in another order, or twice').toBe(key);
  // A title edit: the topics changed, which the page did not read.
  expect(stillAsRead(key, reuseOf('listings-2'), content)).toBe(true);
  expect(stillAsRead(key, reuseOf('listings-1'), { ...content, links: [...content.links, { title: 'Splices', url: 'https://knots.example/splices', tags: [] }] } as unknown as SiteContent), 'links.json changed').toBe(false);
  expect(stillAsRead(key, reuseOf('listings-1'), { ...content, contentTypes: { list: [] } } as unknown as SiteContent), 'content types changed').toBe(false);

  const listing = readsKey(['byTag', 'tags'], reuseOf('listings-1'), content)!;
  expect(stillAsRead(listing, reuseOf('listings-1'), content)).toBe(true);
  expect(stillAsRead(listing, reuseOf('listings-2'), content), 'the topics changed').toBe(false);
  expect(stillAsRead(listing, reuseOf('listings-1'), { ...content, tags: { ...content.tags, descriptions: new Map() } } as unknown as SiteContent), 'a description changed').toBe(false);
  expect(readsKey(['byTag'], reuseOf(undefined), content), 'topics without a digest').toBeUndefined();

  // A page that read nothing (the about page) is the same while the code is; one that read a post has no key.
  const nothing = readsKey([], reuseOf('listings-1'), content)!;
  expect(stillAsRead(nothing, reuseOf('listings-9'), { ...content, links: [] } as unknown as SiteContent)).toBe(true);
  expect(readsKey(['topics', 'withPost'], reuseOf('listings-1'), content)).toBeUndefined();
  expect(readsKey(['__proto__'], reuseOf('listings-1'), content)).toBeUndefined();
  expect(stillAsRead('a-props-key', reuseOf('listings-1'), content), 'not a key of what was read').toBe(false);
});

it('keys a page that shows tag counts or author counts by those counts alone: kept after a title edit or a bump, not after a tag or an author changed', () => {
  const topic = (slug: string, author: string, tags: string[], title = slug, updated = '2024-05-01') => ({ slug, author, tags, title, updated, updatedMs: Date.parse(updated) });
  const withTopics = (...topics: ReturnType<typeof topic>[]) => ({ ...content, topics }) as unknown as SiteContent;
  const first = withTopics(topic('a', 'Ines Varga', ['rope', 'knots']), topic('b', 'Ola Brandt', ['rope']), topic('c', 'Ines Varga', ['splices']));
  const tagsPage = readsKey(['tagCounts', 'contentTypes'], reuseOf('listings-1'), first)!;
  const membersPage = readsKey(['authorCounts', 'members'], reuseOf('listings-1'), first)!;
  // A title edit and a bump (another date, listed first): the listings' digest changed, the counts did not.
  const edited = withTopics(topic('b', 'Ola Brandt', ['rope'], 'b', '2026-11-20'), topic('a', 'Ines Varga', ['rope', 'knots'], 'Knots, retied'), topic('c', 'Ines Varga', ['splices']));
  expect(stillAsRead(tagsPage, reuseOf('listings-2'), edited)).toBe(true);
  expect(stillAsRead(membersPage, reuseOf('listings-2'), edited)).toBe(true);
  // A tag added, a tag moved to another topic with the counts the same (still the same page), an author changed, a topic deleted.
  const tagAdded = withTopics(topic('a', 'Ines Varga', ['rope', 'knots', 'splices']), topic('b', 'Ola Brandt', ['rope']), topic('c', 'Ines Varga', ['splices']));
  expect(stillAsRead(tagsPage, reuseOf('listings-2'), tagAdded)).toBe(false);
  expect(stillAsRead(membersPage, reuseOf('listings-2'), tagAdded)).toBe(true);
  const tagMoved = withTopics(topic('a', 'Ines Varga', ['rope']), topic('b', 'Ola Brandt', ['rope', 'knots']), topic('c', 'Ines Varga', ['splices']));
  expect(stillAsRead(tagsPage, reuseOf('listings-2'), tagMoved)).toBe(true);
  const authorChanged = withTopics(topic('a', 'Ola Brandt', ['rope', 'knots']), topic('b', 'Ola Brandt', ['rope']), topic('c', 'Ines Varga', ['splices']));
  expect(stillAsRead(membersPage, reuseOf('listings-2'), authorChanged)).toBe(false);
  expect(stillAsRead(tagsPage, reuseOf('listings-2'), authorChanged)).toBe(true);
  const deleted = withTopics(topic('a', 'Ines Varga', ['rope', 'knots']), topic('b', 'Ola Brandt', ['rope']));
  expect(stillAsRead(tagsPage, reuseOf('listings-2'), deleted)).toBe(false);
  expect(stillAsRead(membersPage, reuseOf('listings-2'), deleted)).toBe(false);
});

it("notes the parts a page takes from the site's records, also through a value made from them before", async () => {
  Object.assign(store, { source: { root, contentDir: resolve(root, 'content'), excerptLength: 200 }, content: undefined });
  const partsOf = async (render: () => Promise<unknown>) => {
    const reads = new Set<string>();
    await pageReads().run(reads, render);
    return [...reads].sort();
  };
  expect(await partsOf(async () => (await siteData()).links)).toEqual(['links']);
  expect(await partsOf(async () => {
    const { byTag, tags } = await siteData();
    return [byTag, tags];
  })).toEqual(['byTag', 'tags']);
  // Made outside any page first (as by getStaticPaths), then taken by two pages: both read its parts.
  const counts = fromSiteRecords(({ byTag, memberNames }) => [byTag.size, memberNames.size]);
  await counts();
  expect(await partsOf(counts)).toEqual(['byTag', 'memberNames']);
  expect(await partsOf(counts)).toEqual(['byTag', 'memberNames']);
  expect(await partsOf(typeChoicesOfSite)).toEqual(['contentTypes']);
  expect(await partsOf(oldAddressLookup)).toEqual(['oldAddresses']);
  expect(await partsOf(async () => (await siteData()).withPost)).toEqual(['withPost']);
  // Pages render several at a time: each notes its own parts only.
  const [links, tags] = await Promise.all([
    partsOf(async () => {
      const data = await siteData();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return data.links;
    }),
    partsOf(async () => (await siteData()).tags),
  ]);
  expect([links, tags]).toEqual([['links'], ['tags']]);
  expect(pageReads().getStore(), 'outside a page').toBeUndefined();
});
