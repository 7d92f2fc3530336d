// A rebuild keys again only the listings a changed topic is on (src/build/listing-changes.ts): a
// listing it says is unchanged must show the same topics in the same order, with the same related tags.
import { expect, it } from 'vitest';
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { pairCounts, relatedTags } from '../../src/model/intersections.ts';
import { topicRecordKey } from '../../src/content/read-topics.ts';
import { tagsKey } from '../../src/build/cache.ts';
import { unchangedListings } from '../../src/build/listing-changes.ts';
import type { PageReuse } from '../../src/build/store.ts';
import type { SiteContent } from '../../src/content/load.ts';
import { memberKey } from '../../src/model/members.ts';
import { AUTHORS, corpusArb, tagArb } from './search-corpus.ts';

/** A build's reuse after `last`'s: only what unchangedListings reads. */
function build(topics: readonly Topic[], last?: PageReuse): PageReuse {
  return { routes: { previous: new Map(last?.routes.next), next: new Map() }, fromTags: tagsKey({ topics } as SiteContent) } as unknown as PageReuse;
}
const digests = (topics: readonly Topic[]) => new Map(topics.map((topic) => [topic, topicRecordKey(topic)]));

/** What a listing of `tags` shows of the topics: its topics' records in listing order, and a tag's related tags. */
function listing(topics: readonly Topic[], tags: readonly string[]) {
  const on = sortForListing(topics.filter((topic) => tags.every((tag) => topic.tags.includes(tag))));
  return { topics: on.map(topicRecordKey), related: tags.length === 1 ? relatedTags(pairCounts(topics)).get(tags[0]!) : undefined };
}

/** What a member's listing shows: the records of the topics of the member of this name, in listing order. */
const memberListing = (topics: readonly Topic[], name: string) => sortForListing(topics.filter((topic) => memberKey(topic.author) === memberKey(name))).map(topicRecordKey);

/** One edit of one topic, of any of its fields; or a topic deleted, or one added. */
const editedArb = corpusArb
  .filter(({ topics }) => topics.length > 1)
  .chain(({ topics }) => fc.record({ before: fc.constant(topics), at: fc.nat({ max: topics.length - 1 }), edit: fc.constantFrom('title', 'updated', 'created', 'post', 'tags', 'swap tags', 'author', 'swap authors', 'delete', 'add'), tag: tagArb, author: fc.constantFrom(...AUTHORS) }))
  .map(({ before, at, edit, tag, author }) => {
    const topic = before[at]!;
    const changed: Record<string, () => Topic[]> = {
      title: () => before.map((t) => (t === topic ? { ...t, title: `${t.title} (solved)` } : t)),
      updated: () => before.map((t) => (t === topic ? { ...t, updatedMs: t.updatedMs + 86_400_000 * 400 } : t)),
      created: () => before.map((t) => (t === topic ? { ...t, createdMs: t.createdMs - 60_000 } : t)),
      post: () => before.map((t) => (t === topic ? { ...t, html: `${t.html}<p>More.</p>` } : t)),
      tags: () => before.map((t) => (t === topic ? { ...t, tags: [...new Set([...t.tags, tag])] } : t)),
      // Two topics trade their tags: each tag is carried as often as before, by other topics.
      'swap tags': () => before.map((t, i) => (i === at ? { ...t, tags: before[(at + 1) % before.length]!.tags } : i === (at + 1) % before.length ? { ...t, tags: topic.tags } : t)),
      author: () => before.map((t) => (t === topic ? { ...t, author } : t)),
      // Two topics trade their authors: each author has as many topics as before.
      'swap authors': () => before.map((t, i) => (i === at ? { ...t, author: before[(at + 1) % before.length]!.author } : i === (at + 1) % before.length ? { ...t, author: topic.author } : t)),
      delete: () => before.filter((t) => t !== topic),
      add: () => [...before, { ...topic, slug: `${topic.slug}-2`, title: `${topic.title} again` }],
    };
    return { before, after: changed[edit]!() };
  });

it("says a listing is unchanged only when it shows the same topics in the same order, with the same related tags; a member's, the same topics", () => {
  fc.assert(
    fc.property(editedArb, ({ before, after }) => {
      const first = build(before);
      unchangedListings(first, ['site'], digests(before));
      const second = build(after, first);
      const unchanged = unchangedListings(second, ['site'], digests(after));
      if (!unchanged) return;
      const tags = [...new Set(after.flatMap((topic) => topic.tags))];
      for (const tag of tags) if (unchanged.tags([tag])) expect(listing(after, [tag]), tag).toEqual(listing(before, [tag]));
      for (const [i, a] of tags.entries()) for (const b of tags.slice(i + 1)) if (unchanged.tags([a, b])) expect(listing(after, [a, b]), `${a} + ${b}`).toEqual(listing(before, [a, b]));
      for (const name of AUTHORS) if (unchanged.member(name)) expect(memberListing(after, name), name).toEqual(memberListing(before, name));
    }),
    { numRuns: 300 },
  );
});

it('says which listings are unchanged after a title edit, and nothing when the tags, the context or the previous topics differ', () => {
  const topics = ['alpha', 'beta', 'gamma'].map((slug, i) => ({ slug, title: `The ${slug} knot`, author: i === 2 ? 'ola brandt' : 'Ines Varga', tags: i === 0 ? ['rope', 'loops'] : ['rope', 'bends'], updatedMs: i, createdMs: i }) as unknown as Topic);
  const first = build(topics);
  expect(unchangedListings(first, ['site'], digests(topics)), 'no previous build').toBeUndefined();
  const retitled = topics.map((topic, i) => (i === 2 ? { ...topic, title: 'Renamed' } : topic));
  const second = build(retitled, first);
  const unchanged = unchangedListings(second, ['site'], digests(retitled))!;
  expect(['rope', 'bends', 'loops'].map((tag) => unchanged.tags([tag]))).toEqual([false, false, true]);
  expect([unchanged.tags(['rope', 'bends']), unchanged.tags(['loops', 'rope'])]).toEqual([false, true]);
  // The renamed topic's author, named as members.json names them (names match whatever their case).
  expect(['Ines Varga', 'ines varga', 'Ola Brandt'].map((name) => unchanged.member(name))).toEqual([true, true, false]);
  expect(unchangedListings(build(retitled, first), ['another site'], digests(retitled)), 'another context').toBeUndefined();
  const retagged = retitled.map((topic, i) => (i === 1 ? { ...topic, tags: ['rope'] } : topic));
  expect(unchangedListings(build(retagged, second), ['site'], digests(retagged)), 'other tags').toBeUndefined();
  const reauthored = retitled.map((topic, i) => (i === 1 ? { ...topic, author: 'Ola Brandt' } : topic));
  expect(unchangedListings(build(reauthored, second), ['site'], digests(reauthored)), 'another count of topics by an author').toBeUndefined();
  // The topics are remembered for the next build only: a build that does not note its own does not carry them on.
  expect(second.routes.next.get('(listed topics)')?.once).toBe(true);
});
