import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  compareListing,
  entryShowsTags,
  entryTags,
  paginate,
  repliesText,
  resultCountText,
  searchHeadingText,
  sortForListing,
  topicsByTag,
} from '../../src/model/listing.ts';
import type { Topic } from '../../src/content/topics.ts';

/** A topic with just what listings look at; days are YYYY-MM-DD (UTC). */
function topic(slug: string, updated: string, created = updated, tags: string[] = [], replies = 0): Topic {
  const createdMs = Date.parse(`${created}T00:00:00Z`);
  const updatedMs = Date.parse(`${updated}T00:00:00Z`);
  return {
    slug, file: `content/topics/${slug}.md`, title: slug, author: 'ana',
    createdMs, updatedMs,
    contentType: 'help', contentGroup: 'forum', tags, replies, views: 0, excerptText: '', excerptCut: false, html: '', text: '',
  };
}

describe('listing order', () => {
  it('puts the newest updated first', () => {
    const list = sortForListing([topic('a', '2024-01-01'), topic('b', '2024-03-01'), topic('c', '2024-02-01')]);
    expect(list.map((t) => t.slug)).toEqual(['b', 'c', 'a']);
  });

  it('breaks a tie on updated by the newest created', () => {
    // Slug order would say the opposite, so only the created dates can decide.
    const list = sortForListing([topic('a-old', '2024-05-01', '2023-01-01'), topic('b-new', '2024-05-01', '2024-04-01')]);
    expect(list.map((t) => t.slug)).toEqual(['b-new', 'a-old']);
  });

  it('breaks a tie on both dates by slug A→Z', () => {
    const list = sortForListing([topic('b-topic', '2024-05-01'), topic('a-topic', '2024-05-01'), topic('a', '2024-05-01')]);
    expect(list.map((t) => t.slug)).toEqual(['a', 'a-topic', 'b-topic']);
  });

  it('does not change the list it is given', () => {
    const topics = [topic('a', '2024-01-01'), topic('b', '2024-03-01')];
    sortForListing(topics);
    expect(topics.map((t) => t.slug)).toEqual(['a', 'b']);
  });

  it('is a total order: the same result whatever the input order', () => {
    const day = fc.constantFrom('2024-01-01', '2024-01-02', '2024-01-03');
    const topics = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-c]{1,3}$/), day, day), { selector: ([slug]) => slug, maxLength: 12 });
    fc.assert(
      fc.property(topics.chain((rows) => fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length }))), ([rows, shuffled]) => {
        const list = rows.map(([slug, updated, created]) => topic(slug, updated, created));
        const sorted = sortForListing(list).map((t) => t.slug);
        const again = shuffled.map(([slug]) => list.find((t) => t.slug === slug)!);
        expect(sortForListing(again).map((t) => t.slug)).toEqual(sorted);
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [list.find((t) => t.slug === sorted[i - 1])!, list.find((t) => t.slug === sorted[i])!];
          expect(compareListing(a, b)).toBeLessThan(0);
          expect(compareListing(b, a)).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('topicsByTag', () => {
  const topics = [
    topic('one', '2024-01-01', '2024-01-01', ['api', 'json']),
    topic('two', '2024-02-01', '2024-02-01', ['api']),
    topic('three', '2024-03-01', '2024-03-01', ['web', 'json', 'api']),
    topic('four', '2024-04-01', '2024-04-01', ['zsh']),
  ];
  const byTag = topicsByTag(topics);

  it('lists each tag’s topics in listing order', () => {
    expect(byTag.get('api')!.map((t) => t.slug)).toEqual(['three', 'two', 'one']);
    expect(byTag.get('json')!.map((t) => t.slug)).toEqual(['three', 'one']);
  });

  it('orders tags by count, most first, then A→Z', () => {
    expect([...byTag.keys()]).toEqual(['api', 'json', 'web', 'zsh']);
  });
});

describe('texts of a listing (SPEC 4.1)', () => {
  it('result count', () => {
    expect(resultCountText(0)).toBe('Found 0 results');
    expect(resultCountText(1)).toBe('Found 1 result');
    expect(resultCountText(17)).toBe('Found 17 results');
  });

  it('heading for one tag', () => {
    expect(searchHeadingText(['api'])).toBe("Showing results for tags 'api'");
    expect(searchHeadingText(['api'], 'all')).toBe("Showing results for tags 'api'");
  });

  it('heading for several tags, matching any (the default) or all', () => {
    expect(searchHeadingText(['api', 'json', 'web'])).toBe("Showing results for tags 'api', 'json' or 'web'");
    expect(searchHeadingText(['api', 'json', 'web'], 'any')).toBe("Showing results for tags 'api', 'json' or 'web'");
    expect(searchHeadingText(['api', 'json', 'web'], 'all')).toBe("Showing results for tags 'api', 'json' and 'web'");
    expect(searchHeadingText(['api', 'json'], 'all')).toBe("Showing results for tags 'api' and 'json'");
    expect(searchHeadingText(['c++', 'web search'])).toBe("Showing results for tags 'c++' or 'web search'");
  });

  it('replies', () => {
    expect(repliesText(1)).toBe('1 reply');
    expect(repliesText(3)).toBe('3 replies');
    expect(repliesText(1000)).toBe('1000 replies');
  });
});

describe('the tags of an entry', () => {
  it('shows the first tagsShown tags in the topic’s order and counts the rest', () => {
    expect(entryTags(['api', 'json', 'web', 'http', 'cli'], 2)).toEqual({ shown: ['api', 'json'], more: 3 });
    expect(entryTags(['api', 'json'], 2)).toEqual({ shown: ['api', 'json'], more: 0 });
    expect(entryTags(['api'], 2)).toEqual({ shown: ['api'], more: 0 });
    expect(entryTags([], 2)).toEqual({ shown: [], more: 0 });
    expect(entryTags(['api', 'json'], 0)).toEqual({ shown: [], more: 2 });
  });

  it('are shown only for topics with replies, unless alwaysShowTags', () => {
    expect(entryShowsTags({ replies: 0 }, false)).toBe(false);
    expect(entryShowsTags({ replies: 1 }, false)).toBe(true);
    expect(entryShowsTags({ replies: 0 }, true)).toBe(true);
  });
});

describe('paginate', () => {
  it('splits into pages of pageSize, the last one shorter', () => {
    const items = Array.from({ length: 53 }, (_, i) => i);
    const pages = paginate(items, 25);
    expect(pages.map((page) => page.length)).toEqual([25, 25, 3]);
    expect(pages.flat()).toEqual(items);
  });

  it('gives an exact multiple no empty last page, and an empty listing one empty page', () => {
    expect(paginate([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]]);
    expect(paginate([], 25)).toEqual([[]]);
  });

  it('keeps every item once, in order, for any size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 100 }), fc.integer({ min: 1, max: 30 }), (items, size) => {
        const pages = paginate(items, size);
        expect(pages.flat()).toEqual(items);
        expect(pages.length).toBe(Math.max(1, Math.ceil(items.length / size)));
        expect(pages.every((page) => page.length <= size)).toBe(true);
      }),
    );
  });
});
