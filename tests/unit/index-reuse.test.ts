// A rebuild takes the previous output's per-tag index files and tag feeds by a key made from their
// inputs, without making them: a key may only stay the same when the file would be the same.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { buildSearchIndex, emitSearchIndex } from '../../src/search/index-build.ts';
import { tagFeedFiles, tagFileKeys, topicDigests } from '../../src/build/tag-files.ts';
import { writeFeeds, type FeedsData } from '../../src/build/feed-writing.ts';
import { tagSlug } from '../../src/model/tags.ts';
import { feedPath } from '../../src/model/urls.ts';
import { CONTENT_TYPES, corpusArb, tagArb } from './search-corpus.ts';
import { topicRecordKey } from '../../src/content/read-topics.ts';
import { tagsKey } from '../../src/build/cache.ts';
import type { SiteContent } from '../../src/content/load.ts';

const RUNS = 150;

/**
 * Each per-tag index file of the topics: its text and the key it is emitted with (`take` never
 * takes one). `recordKeys`: each topic stands for its record's key, as in a build (the reading's TopicKeys).
 */
function tagFiles(topics: readonly Topic[], recordKeys = false): Map<string, { text: string; key?: string }> {
  const files = new Map<string, { text: string; key?: string }>();
  const known = recordKeys ? new Map(topics.map((topic) => [topic, topicRecordKey(topic)])) : undefined;
  emitSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), (path, text, key) => void (path.startsWith('tags/') && files.set(path, { text, key })), {
    key: tagFileKeys(CONTENT_TYPES, topicDigests(known)),
    take: () => false,
  });
  return files;
}

/** Each tag feed of the topics: its XML and key. */
function feeds(topics: readonly Topic[]): Map<string, { text: string; key?: string }> {
  const { feeds } = tagFeedFiles(topics, { siteTitle: 'Knot Garden', siteRoot: 'https://knot-garden.example/', intersections: { minTopics: 2, maxPages: 50 } });
  return new Map(feeds.map(({ file, key, xml }) => [file, { text: xml!, key }]));
}

/** One change to one topic, as an edit of its file would make it. */
const changes: Record<string, (topic: Topic, tag: string) => Topic> = {
  excerpt: (topic) => ({ ...topic, excerptText: `${topic.excerptText} Edited.` }),
  cut: (topic) => ({ ...topic, excerptCut: !topic.excerptCut }),
  title: (topic) => ({ ...topic, title: `${topic.title} (solved)` }),
  views: (topic) => ({ ...topic, views: topic.views + 1 }),
  replies: (topic) => ({ ...topic, replies: topic.replies + 1 }),
  author: (topic) => ({ ...topic, author: `${topic.author}-2` }),
  created: (topic) => ({ ...topic, createdMs: topic.createdMs - 60_000 }),
  updated: (topic) => ({ ...topic, updatedMs: topic.updatedMs + 60_000 }),
  type: (topic) => ({ ...topic, contentType: topic.contentType === 'help' ? 'ideas' : 'help' }),
  tags: (topic, tag) => ({ ...topic, tags: [...new Set([...topic.tags, tag])] }),
  post: (topic) => ({ ...topic, text: `${topic.text} edited`, html: `${topic.html}<p>edited</p>` }),
};

const changedCorpusArb = corpusArb
  .filter(({ topics }) => topics.length > 0)
  .chain(({ topics }) =>
    fc.record({
      before: fc.constant(topics),
      at: fc.nat({ max: topics.length - 1 }),
      change: fc.constantFrom(...Object.keys(changes)),
      tag: tagArb,
    }),
  )
  .map(({ before, at, change, tag }) => ({ before, after: before.map((topic, i) => (i === at ? changes[change]!(topic, tag) : topic)), changed: before[at]!, change }));

/** The tags the changed topic carried before or after the change. */
function touchedTags(changed: Topic, after: readonly Topic[]): string[] {
  return [...changed.tags, ...after.find((topic) => topic.slug === changed.slug)!.tags];
}

/** Files whose key stayed the same must be the same files; the files of tags the changed topic never carried keep their keys. */
function expectSoundKeys(before: Map<string, { text: string; key?: string }>, after: Map<string, { text: string; key?: string }>, untouched: (path: string) => boolean) {
  for (const [path, { text, key }] of after) {
    expect(key, path).toBeTruthy();
    const earlier = before.get(path);
    if (!earlier) continue;
    if (earlier.key === key) expect(text, path).toBe(earlier.text);
    else if (untouched(path)) expect.fail(`${path}: its key changed, though no topic of it did`);
  }
}

describe('topic digests', () => {
  it("take the record keys the build's reading made as they are, and make the others", () => {
    fc.assert(
      fc.property(corpusArb.filter(({ topics }) => topics.length >= 2), ({ topics }) => {
        const [first, ...others] = topics;
        const digestOf = topicDigests(new Map([[first!, 'key-of-the-record']]));
        expect(digestOf(first!)).toBe('key-of-the-record');
        const made = topicDigests();
        for (const topic of others) expect(digestOf(topic)).toBe(made(topic));
      }),
      { numRuns: 20 },
    );
  });
});

describe('the keys of per-tag index files', () => {
  it('are the same only for the same file, and change only for the tags of a changed topic', () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, changed, change }) => {
        // A topic moved in the listing (`updated`) moves the ordinals of others, not their tags' files.
        const touched = new Set(touchedTags(changed, after).map((tag) => `tags/${tagSlug(tag)}.json`));
        expectSoundKeys(tagFiles(before), tagFiles(after), (path) => change === 'post' || !touched.has(path));
      }),
      { numRuns: RUNS },
    );
  });

  it("stay sound with each topic standing for its record's key, as a build keys them", () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, changed }) => {
        const touched = new Set(touchedTags(changed, after).map((tag) => `tags/${tagSlug(tag)}.json`));
        // A record's key changes with any field of it: only the changed topic's tags' files may change key.
        expectSoundKeys(tagFiles(before, true), tagFiles(after, true), (path) => !touched.has(path));
      }),
      { numRuns: RUNS },
    );
  });

  it('do not change the files: the same index as without them', () => {
    fc.assert(
      fc.property(corpusArb, ({ topics }) => {
        const plain = buildSearchIndex(sortForListing(topics), CONTENT_TYPES);
        for (const [path, { text }] of tagFiles(topics)) expect(text).toBe(plain.get(path));
        expect([...tagFiles(topics).keys()].sort()).toEqual([...plain.keys()].filter((path) => path.startsWith('tags/')).sort());
      }),
      { numRuns: 50 },
    );
  });

  it('leave out the files the previous output gives: nothing else is emitted differently', () => {
    fc.assert(
      fc.property(corpusArb, fc.nat(), ({ topics }, seed) => {
        const taken = new Set<string>();
        const files = new Map<string, string>();
        emitSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), (path, text) => void files.set(path, text), {
          key: tagFileKeys(CONTENT_TYPES, topicDigests()),
          take: (path, key) => (key.charCodeAt(seed % key.length) % 2 === 0 ? void taken.add(path) === undefined : false),
        });
        const plain = buildSearchIndex(sortForListing(topics), CONTENT_TYPES);
        expect([...files.keys(), ...taken].sort()).toEqual([...plain.keys()].sort());
        for (const [path, text] of files) expect(text).toBe(plain.get(path));
      }),
      { numRuns: 50 },
    );
  });
});

describe('the keys of tag feeds', () => {
  it('are the same only for the same feed, and change only for the tags of a changed topic', () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, changed, change }) => {
        const touched = new Set(touchedTags(changed, after).map((tag) => decodeURI(feedPath(tag)).slice(1)));
        // A tag's own feed; which pairs of tags get an intersection feed depends on every topic.
        const tagFeeds = new Set(after.flatMap((topic) => topic.tags).map((tag) => decodeURI(feedPath(tag)).slice(1)));
        expectSoundKeys(feeds(before), feeds(after), (path) => change === 'post' || (tagFeeds.has(path) && !touched.has(path)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('tag feeds handed to a writer', () => {
  it('are each handed over once as made, with the XML and key the list would hold, and kept feeds are not made', () => {
    fc.assert(
      fc.property(corpusArb.filter(({ topics }) => topics.length > 0), fc.nat(), ({ topics }, seed) => {
        const listed = feeds(topics);
        // Every other feed is one the previous output gives.
        const kept = new Set([...listed.keys()].filter((_, i) => (i + seed) % 2 === 0));
        const written = new Map<string, string>();
        const { feeds: files } = tagFeedFiles(topics, { siteTitle: 'Knot Garden', siteRoot: 'https://knot-garden.example/', intersections: { minTopics: 2, maxPages: 50 }, write: (file, xml) => {
          expect(written.has(file)).toBe(false);
          written.set(file, xml);
        } }, (file) => kept.has(file));
        expect(files.map(({ file, key }) => [file, key])).toEqual([...listed].map(([file, { key }]) => [file, key]));
        expect(files.every(({ xml }) => xml === undefined)).toBe(true);
        expect(new Set(files.filter(({ written }) => written).map(({ file }) => file))).toEqual(new Set(written.keys()));
        expect([...written.keys()].sort()).toEqual([...listed.keys()].filter((file) => !kept.has(file)).sort());
        for (const [file, xml] of written) expect(xml).toBe(listed.get(file)!.text);
      }),
      { numRuns: 30 },
    );
  });
});

describe("a rebuild's feeds", () => {
  /** The feeds one build writes (by file), after the previous `build` of the rebuild test. */
  const build = (topics: readonly Topic[], listings: string, previous?: ReturnType<typeof writeFeeds>) => {
    const written = new Map<string, string>();
    const data: FeedsData = {
      topics: [...topics],
      // Every pair of tags a topic carries gets a feed: any change of tags changes the pairs.
      feeds: { siteTitle: 'Knot Garden', siteRoot: 'https://knot-garden.example/', intersections: { minTopics: 1, maxPages: 500 } },
      previous: { from: '', files: [], inPlace: false, ...(previous?.feeds ? { feeds: previous.feeds } : {}) },
      listings,
      tags: tagsKey({ topics } as SiteContent),
    };
    // No feed of the previous output is taken: every feed is written, and compared whole.
    const made = writeFeeds(data, { keep: () => false, keepGroup: () => undefined, keyOf: () => undefined, write: (file, xml) => void written.set(file, xml) }, topicDigests());
    return { made, written };
  };

  it('are the feeds a first build of the edited topics writes, with the pairs of tags taken from the previous build while the tags are the same', () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after }) => {
        const first = build(before, 'listings-1');
        const rebuilt = build(after, 'listings-2', first.made);
        const clean = build(after, 'listings-2');
        expect(rebuilt.made.intersections).toBe(clean.made.intersections);
        expect([...rebuilt.written.keys()].sort()).toEqual([...clean.written.keys()].sort());
        for (const [file, xml] of clean.written) expect(rebuilt.written.get(file), file).toBe(xml);
      }),
      { numRuns: RUNS },
    );
  });

  it('take the pairs of tags from the previous build when the topics carry the same tags, and plan them again when not', () => {
    const topics = ['a', 'b', 'c'].map((slug, i) => ({ slug, title: `Knot ${slug}`, excerptText: '', excerptCut: false, author: 'ana', createdMs: i * 1000, updatedMs: i * 1000, replies: 0, views: 0, contentType: 'help', tags: ['bowline', 'loops'] }) as unknown as Topic);
    const first = build(topics, 'listings-1');
    expect(first.written.has('tags/intersection/bowline/loops/rss.xml')).toBe(true);
    // A previous plan that built no pair: taken as it is while the tags are the same (a title edit, here).
    const planned = first.made.feeds!.value as { plan: { built: unknown[]; leftOut: unknown[] } };
    const tampered = { ...first.made, feeds: { ...first.made.feeds!, value: { ...planned, plan: { built: [], leftOut: [] } } } };
    const retitled = topics.map((topic) => ({ ...topic, title: `${topic.title}, renamed` }));
    expect(build(retitled, 'listings-2', tampered).written.has('tags/intersection/bowline/loops/rss.xml')).toBe(false);
    const retagged = topics.map((topic, i) => (i === 0 ? { ...topic, tags: ['bowline', 'loops', 'sailing'] } : topic));
    expect(build(retagged, 'listings-2', tampered).written.has('tags/intersection/bowline/loops/rss.xml')).toBe(true);
  });
});

describe("a rebuild's feeds taken from the previous output", () => {
  const feedSettings = { siteTitle: 'Knot Garden', siteRoot: 'https://knot-garden.example/', intersections: { minTopics: 1, maxPages: 500 } };
  interface Site {
    /** Each feed of the output: its XML and key. */
    output: Map<string, { xml: string; key: string }>;
    made: ReturnType<typeof writeFeeds>;
    /** The topics whose digests the build took. */
    digested: Set<Topic>;
  }
  /** A build's feeds, into an output of its own; the previous build's output, memory and topics' keys (`keys`, as its word memory holds them) given. */
  const site = (topics: readonly Topic[], previous?: Site, keys?: readonly string[]): Site => {
    const recordKeys = topics.map((topic) => topicRecordKey(topic));
    const data: FeedsData = {
      topics: [...topics],
      feeds: feedSettings,
      previous: { from: '', files: [...(previous?.output ?? [])].map(([file, { key }]) => [file, key, 0, 0]), inPlace: true, ...(previous?.made.feeds ? { feeds: previous.made.feeds } : {}) },
      // The topics as listings show them: without their posts.
      listings: `listings of ${topics.map((topic) => topicRecordKey({ ...topic, html: '', text: '' })).join()}`,
      tags: tagsKey({ topics } as SiteContent),
      recordKeys,
    };
    const output = new Map<string, { xml: string; key: string }>();
    const written = new Map<string, string>();
    const earlier = previous?.output;
    const files = {
      keyOf: (file: string) => earlier?.get(file)?.key,
      keep: (file: string, key: string) => earlier?.get(file)?.key === key,
      keepGroup: (group: { inputs: string; files: readonly string[] } | undefined, inputs: string | undefined) =>
        group && group.inputs === inputs && group.files.every((file) => earlier?.has(file)) ? group.files.map((file) => ({ file, key: earlier!.get(file)!.key, written: false as const })) : undefined,
      write: (file: string, xml: string) => void written.set(file, xml),
    };
    const digested = new Set<Topic>();
    const digestOf = topicDigests(new Map(topics.map((topic, i) => [topic, recordKeys[i]!])));
    const made = writeFeeds(data, files, (topic) => (digested.add(topic), digestOf(topic)), keys);
    for (const { file, key, written: isWritten } of made.files) output.set(file, { xml: isWritten ? written.get(file)! : earlier!.get(file)!.xml, key });
    return { output, made, digested };
  };
  const keysOf = (topics: readonly Topic[]) => topics.map((topic) => topicRecordKey(topic));
  /** A site's feeds by file. Their keys may differ: a feed kept whole after a post edit keeps its previous key. */
  const xmlOf = ({ output }: Site) => new Map([...output].map(([file, { xml }]) => [file, xml]));

  it("are those a first build writes after any change, and only a changed topic's tags' topics are looked at when the tags are the same", () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, changed, change }) => {
        const first = site(before);
        const rebuilt = site(after, first, keysOf(before));
        expect(xmlOf(rebuilt)).toEqual(xmlOf(site(after)));
        expect(rebuilt.made.intersections).toBe(site(after).made.intersections);
        if (change === 'tags') return;
        const touched = new Set(touchedTags(changed, after));
        for (const topic of rebuilt.digested) expect(topic.tags.some((tag) => touched.has(tag)), topic.slug).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("say which tags a changed topic carries, and every other tag's own index file is the previous one, taken by its previous key", () => {
    /** Each per-tag index file (`tags/…`) of a build: made, or taken from `previous` by its key (the previous key of a tag `unchanged` says is). */
    const tagIndex = (topics: readonly Topic[], previous?: Map<string, { text: string; key?: string }>, unchanged?: (tag: string) => boolean) => {
      const files = new Map<string, { text: string; key?: string }>();
      const digestOf = topicDigests(new Map(topics.map((topic) => [topic, topicRecordKey(topic)])));
      const take = (path: string, key: string) => {
        const earlier = previous?.get(path);
        if (earlier?.key !== key) return false;
        files.set(path, earlier);
        return true;
      };
      emitSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), (path, text, key) => void (path.startsWith('tags/') && files.set(path, { text, key })), { key: tagFileKeys(CONTENT_TYPES, digestOf), take, earlier: (path) => previous?.get(path)?.key, ...(unchanged ? { unchanged } : {}) });
      return files;
    };
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, changed, change }) => {
        const rebuilt = site(after, site(before), keysOf(before));
        // After a post edit every feed and tag file is kept whole (the listings are the same).
        if (change === 'tags' || change === 'post') return;
        const { changedTags } = rebuilt.made;
        expect(changedTags, 'the tags are the same').toBeDefined();
        expect([...changedTags!].sort()).toEqual([...new Set(touchedTags(changed, after))].sort());
        expect(tagIndex(after, tagIndex(before), (tag) => !changedTags!.has(tag))).toEqual(tagIndex(after));
      }),
      { numRuns: RUNS },
    );
  });

  it("are made only for a changed topic's tags after a build that kept them all (a post edit)", () => {
    fc.assert(
      fc.property(changedCorpusArb.filter(({ change }) => change !== 'tags'), fc.nat(), ({ before, after, changed }, at) => {
        // A post edit of any topic: its record changes, what feeds show of it does not.
        const edited = before[at % before.length]!;
        const posted = before.map((topic) => (topic === edited ? { ...topic, html: `${topic.html}<p>Later.</p>`, text: `${topic.text} later` } : topic));
        const first = site(before);
        const second = site(posted, first, keysOf(before));
        expect(second.made.files.every(({ written }) => !written), 'every feed kept').toBe(true);
        const third = site(after.map((topic) => (topic.slug === edited.slug && topic.slug !== changed.slug ? posted[before.indexOf(edited)]! : topic)), second, keysOf(posted));
        const touched = new Set(touchedTags(changed, after));
        for (const topic of third.digested) expect(topic.tags.some((tag) => touched.has(tag)), topic.slug).toBe(true);
        expect(xmlOf(third)).toEqual(xmlOf(site(after.map((topic) => (topic.slug === edited.slug && topic.slug !== changed.slug ? posted[before.indexOf(edited)]! : topic)))));
      }),
      { numRuns: RUNS },
    );
  });

  it("are all made again when the previous topics' keys are not those of the build that made the feeds", () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after }) => {
        // The word memory of a build that stopped after writing it: the topics' keys of `after`, the output and feeds of `before`.
        const first = site(before);
        expect(xmlOf(site(after, first, keysOf(after)))).toEqual(xmlOf(site(after)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("a rebuild's display files", () => {
  /** Every file of the index of `topics`, emitted or taken from `previous` (by the key it was emitted with there). */
  const rebuild = (topics: readonly Topic[], previous?: Map<string, { text: string; key?: string }>) => {
    const files = new Map<string, { text: string; key?: string }>();
    const taken = new Set<string>();
    emitSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), (path, text, key) => void files.set(path, { text, ...(key ? { key } : {}) }), {
      key: tagFileKeys(CONTENT_TYPES, topicDigests()),
      take: (path, key) => {
        if (previous?.get(path)?.key !== key) return false;
        taken.add(path);
        files.set(path, previous.get(path)!);
        return true;
      },
      earlier: (path) => previous?.get(path)?.key,
    });
    return { files, taken };
  };

  it('are taken from the previous output where their topics are the same, and the index is the one a first build makes', () => {
    fc.assert(
      fc.property(changedCorpusArb, ({ before, after, change }) => {
        const first = rebuild(before);
        const { files, taken } = rebuild(after, first.files);
        const plain = buildSearchIndex(sortForListing(after), CONTENT_TYPES);
        expect([...files.keys()].sort()).toEqual([...plain.keys()].sort());
        for (const [path, text] of plain) expect(files.get(path)!.text, path).toBe(text);
        // A post's words are in no display row: every display file is the previous one.
        const display = [...plain.keys()].filter((path) => /^display(-all)?\//.test(path));
        if (change === 'post') expect(display.filter((path) => !taken.has(path))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
