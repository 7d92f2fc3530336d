// The feeds' XML is tagsite's own (src/outputs/feeds.ts): it must be the document @astrojs/rss
// wrote from the same channel, for any title, excerpt, author, tag or site, hostile ones included;
// and it must keep an author's name as written, where @astrojs/rss's re-parsing did not.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getRssString } from '@astrojs/rss';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { FEED_ITEMS, feedHead, feedTopics, feedXml, type FeedOptions } from '../../src/outputs/feeds.ts';
import { tagFeedFiles } from '../../src/build/tag-files.ts';
import { absoluteUrl, feedPath, intersectionFeedPath, topicUrl } from '../../src/model/urls.ts';
import { escapeXml, xmlText } from '../../src/outputs/xml.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { excerptOf } from '../../src/model/listing.ts';
import type { Topic } from '../../src/content/topics.ts';

/** Text as a hostile topic or site may hold it: markup, entities, quotes, XML-forbidden and astral characters, spaces at the ends. */
const textArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", ']]>', '&amp;', '\u0000', '\u000B', '\uFFFE', '\uD800', '\uDC00', '😀', 'é', ' ', '\t', '\n', 'a', '1'), maxLength: 12 }),
  fc.constantFrom('', ' ', 'Ünïcödé 日本語', '<script>alert(1)</script>', 'Tom & Jerry’s "quotes"'),
);

const tagArb = fc.oneof(fc.constantFrom('c++', 'c#', 'web search', 'über', '日本', 'a&b', '<x>', "o'k"), fc.string({ minLength: 1, maxLength: 10 })).map(normaliseTag).filter((tag) => tag !== '');

const topicArb = (author: fc.Arbitrary<string>) =>
  fc.record({
    slug: fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+){0,3}$/),
    title: textArb,
    excerptText: textArb,
    excerptCut: fc.boolean(),
    author,
    tags: fc.uniqueArray(tagArb, { minLength: 1, maxLength: 4 }),
    createdMs: fc.integer({ min: 0, max: 4_102_444_800 }).map((seconds) => seconds * 1000),
  }).map((fields) => fields as unknown as Topic);

const optionsArb: fc.Arbitrary<FeedOptions> = fc.record({
  siteTitle: textArb,
  siteRoot: fc.constantFrom('https://knot-garden.example/', 'https://knot-garden.example/forum/', 'http://127.0.0.1:4321/a%20b/'),
  which: fc.oneof(fc.constant(undefined), tagArb.map((tag) => ({ tag })), fc.tuple(tagArb, tagArb).map((pair) => ({ pair }))),
}).map(({ which, ...options }) => ({ ...options, ...which }));

/** The feed as tagsite described it to @astrojs/rss before writing it itself. */
function astroRss(topics: readonly Topic[], options: FeedOptions): Promise<string> {
  const head = feedHead(options);
  return getRssString({
    title: xmlText(head.title),
    description: xmlText(head.description),
    site: head.link,
    xmlns: { atom: 'http://www.w3.org/2005/Atom', dc: 'http://purl.org/dc/elements/1.1/' },
    customData: `<language>en</language><atom:link href="${escapeXml(head.self)}" rel="self" type="application/rss+xml"/>`,
    items: feedTopics(topics).map((topic) => ({
      title: xmlText(topic.title),
      link: topicUrl(options.siteRoot, topic.slug),
      pubDate: new Date(topic.createdMs),
      description: xmlText(excerptOf(topic)),
      categories: topic.tags.map(xmlText),
      customData: `<dc:creator>${escapeXml(topic.author)}</dc:creator>`,
    })),
  });
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false, isArray: (name) => name === 'item' || name === 'category' });

describe('the feeds\u2019 XML', () => {
  it('is the document @astrojs/rss writes from the same channel', async () => {
    // @astrojs/rss read its author back as XML, which turned `007` into 7 and trimmed spaces: authors here start and end with a letter.
    const authorArb = textArb.map((text) => `m${text}m`);
    await fc.assert(
      fc.asyncProperty(fc.array(topicArb(authorArb), { maxLength: 60 }), optionsArb, async (topics, options) => {
        expect(feedXml(topics, options)).toBe(await astroRss(topics, options));
      }),
      { numRuns: 300 },
    );
  });

  it('is well-formed, and carries every text as written but for the characters XML cannot hold', () => {
    fc.assert(
      fc.property(fc.array(topicArb(textArb), { minLength: 1, maxLength: 8 }), optionsArb, (topics, options) => {
        const xml = feedXml(topics, options);
        expect(() => SyntaxValidator.validate(xml)).not.toThrow();
        const channel = (parser.parse(xml) as { rss: { channel: Record<string, unknown> & { item: Record<string, unknown>[] } } }).rss.channel;
        const head = feedHead(options);
        expect(channel['atom:link']).toMatchObject({ '@_href': head.self, '@_rel': 'self' });
        expect(channel.title).toBe(xmlText(head.title));
        const newest = feedTopics(topics);
        expect(channel.item.map((item) => [item['dc:creator'], item.category, item.title ?? '', item.description ?? ''])).toEqual(
          newest.map((topic) => [xmlText(topic.author), topic.tags.map(xmlText), xmlText(topic.title), xmlText(excerptOf(topic))]),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('keeps an author named like a number, or with spaces at the ends, as written', () => {
    const topics = ['1e3', '007', '0x1F', ' Ana Lind ', 'Infinity'].map((author, i) => ({ slug: `t${i}`, title: `Topic ${i}`, excerptText: '', excerptCut: false, author, tags: ['knots'], createdMs: i * 1000 }) as unknown as Topic);
    const xml = feedXml(topics, { siteTitle: 'Knot Garden', siteRoot: 'https://knot-garden.example/', tag: 'knots' });
    const items = (parser.parse(xml) as { rss: { channel: { item: Record<string, string>[] } } }).rss.channel.item;
    expect(items.map((item) => item['dc:creator'])).toEqual(['Infinity', ' Ana Lind ', '0x1F', '007', '1e3']);
    expect(xml).toContain(`<atom:link href="${absoluteUrl('https://knot-garden.example/', feedPath('knots'))}" rel="self"`);
    expect(feedHead({ siteTitle: 'K', siteRoot: 'https://knot-garden.example/', pair: ['a', 'b'] }).self).toBe(absoluteUrl('https://knot-garden.example/', intersectionFeedPath('a', 'b')));
  });
});

describe("the tags' and intersections' feeds (tagFeedFiles)", () => {
  const itemsOf = (xml: string) => [...xml.matchAll(/<link>[^<]*\/topics\/([^/<]+)\/<\/link>/g)].map((match) => match[1]!);
  const newestFirst = (a: Topic, b: Topic) => b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

  it('each carries its newest topics by `created` (ties by slug A→Z), at most FEED_ITEMS, whatever order the topics come in', () => {
    const topicsArb = fc
      .array(fc.record({ tags: fc.uniqueArray(fc.constantFrom('api', 'shell', 'cli', 'rare'), { minLength: 1, maxLength: 3 }), day: fc.integer({ min: 0, max: 40 }), updated: fc.integer({ min: 0, max: 40 }) }), { minLength: 1, maxLength: 140 })
      .map((rows) => rows.map(({ tags, day, updated }, i) => ({ slug: `t-${(i * 7919) % 1000}-${i}`, title: `Topic ${i}`, excerptText: '', excerptCut: false, author: 'wren', tags, createdMs: day * 86_400_000, updatedMs: (day + updated) * 86_400_000 }) as unknown as Topic));
    fc.assert(
      fc.property(topicsArb, (topics) => {
        const { feeds } = tagFeedFiles([...topics].reverse(), { siteTitle: 'Knots', siteRoot: 'https://knot-garden.example/', intersections: { minTopics: 2, maxPages: 6 } });
        const expected = new Map<string, string[]>();
        for (const tag of new Set(topics.flatMap((topic) => topic.tags))) expected.set(`tags/${tag}/rss.xml`, topics.filter((topic) => topic.tags.includes(tag)).sort(newestFirst).slice(0, FEED_ITEMS).map((topic) => topic.slug));
        for (const { file, xml } of feeds) {
          const pair = /^tags\/intersection\/([^/]+)\/([^/]+)\/rss\.xml$/.exec(file);
          const carried = pair ? topics.filter((topic) => topic.tags.includes(pair[1]!) && topic.tags.includes(pair[2]!)).sort(newestFirst).slice(0, FEED_ITEMS).map((topic) => topic.slug) : expected.get(file);
          expect(carried, file).toBeDefined();
          expect(itemsOf(xml!), file).toEqual(carried);
        }
        expect(feeds.filter(({ file }) => !file.includes('/intersection/')).map(({ file }) => file).sort()).toEqual([...expected.keys()].sort());
      }),
    );
  });
});
