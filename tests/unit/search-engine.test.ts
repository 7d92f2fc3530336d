// The structured filters of SPEC 4.2 (tags, author, type, dates, counts), sorts, totals and pages:
// the index built at build time, decoded and searched by engine.ts, must give exactly what the
// brute-force reference (tests/search-oracle.ts) gives, on random corpora and random searches —
// through core.json (/search/) and through a tag's own file (the tag page's panel).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { tagSlug } from '../../src/model/tags.ts';
import { buildSearchIndex } from '../../src/search/index-build.ts';
import { decodeIndex, runSearch, withGlobalOrdinals, type SearchIndex, type SearchResult } from '../../src/search/engine.ts';
import { topCounts } from '../../src/search/facets.ts';
import { paged, pagedByScore } from '../../src/search/relevance.ts';
import { DISPLAY_ALL_FILES, DISPLAY_ALL_MIN_ROWS, displayAllRowsPerFile, type CoreFile, type DisplayRow, type TagFile, type TagOrdinalsFile } from '../../src/search/index-format.ts';
import { EMPTY_QUERY, type SearchQuery } from '../../src/search/query.ts';
import { oracleSearch, type OracleResult } from '../oracles/search.ts';
import { typedSearch } from './typed-search.ts';
import { CONTENT_TYPES, corpusArb, structuredQueryArb } from './search-corpus.ts';

const RUNS = 600;

/** The built index of a corpus: every file, decoded core, and the slug of each global ordinal (read from the display shards). */
function indexOf(topics: Topic[]) {
  const files = buildSearchIndex(sortForListing(topics), CONTENT_TYPES);
  const json = <T>(path: string): T => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`the index has no ${path}`);
    return JSON.parse(text) as T;
  };
  const core = json<CoreFile>('core.json');
  const slugOfGlobal = (ordinal: number) =>
    json<DisplayRow[]>(`display/${Math.floor(ordinal / core.displayShardSize)}.json`)[ordinal % core.displayShardSize]![0];
  return { files, json, core, index: decodeIndex(core), slugOfGlobal };
}

/** Compares an engine result with the brute-force one: set and order of the page, total, pages, facets. */
function expectSame(result: SearchResult, index: SearchIndex, slugOf: (local: number) => string, expected: OracleResult) {
  expect({ total: result.total, pageNumber: result.pageNumber, pages: result.pages }).toEqual({
    total: expected.total,
    pageNumber: expected.pageNumber,
    pages: expected.pages,
  });
  expect(Array.from(result.page, slugOf)).toEqual(expected.page.map((topic) => topic.slug));
  const named = (counts: Uint32Array, name: (i: number) => string) => new Map([...counts.entries()].filter(([, n]) => n > 0).map(([i, n]) => [name(i), n]));
  expect(named(result.facets.tags, (i) => index.tagNames[i]!)).toEqual(expected.facets.tags);
  expect(named(result.facets.types, (i) => index.types[i]!.id)).toEqual(expected.facets.types);
  expect(named(result.facets.authors, (i) => index.authorNames[i]!)).toEqual(expected.facets.authors);
}

const withQuery = corpusArb.chain((corpus) =>
  fc.record({ corpus: fc.constant(corpus), query: structuredQueryArb(corpus.now), pageSize: fc.integer({ min: 1, max: 12 }) }),
);

describe('structured filters over core.json (/search/)', () => {
  it('give the brute-force results: same set, order, total, pages and facet counts', () => {
    fc.assert(
      fc.property(withQuery, ({ corpus, query, pageSize }) => {
        const { index, slugOfGlobal } = indexOf(corpus.topics);
        const slugOf = (local: number) => slugOfGlobal(index.global[local]!);
        expectSame(runSearch(index, query, corpus.now, pageSize), index, slugOf, oracleSearch(corpus.topics, CONTENT_TYPES, query, corpus.now, pageSize));
      }),
      { numRuns: RUNS },
    );
  });

  it('order the whole result set as brute force does, for every sort', () => {
    fc.assert(
      fc.property(withQuery, ({ corpus, query }) => {
        const { index, slugOfGlobal } = indexOf(corpus.topics);
        for (const sort of [undefined, 'relevancy', 'newest', 'updated', 'replies', 'views'] as const) {
          const all: SearchQuery = { ...query, page: 1, ...(sort ? { sort } : {}) };
          if (!sort) delete all.sort;
          const result = runSearch(index, all, corpus.now, 1_000_000);
          const expected = oracleSearch(corpus.topics, CONTENT_TYPES, all, corpus.now, 1_000_000);
          expect(Array.from(result.page, (local) => slugOfGlobal(index.global[local]!)), `sort ${sort}`).toEqual(expected.ordered.map((t) => t.slug));
        }
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('give the brute-force results when typed as operators in the words field, as when chosen in the form', () => {
    fc.assert(
      fc.property(withQuery, ({ corpus, query, pageSize }) => {
        const { index, slugOfGlobal } = indexOf(corpus.topics);
        const slugOf = (local: number) => slugOfGlobal(index.global[local]!);
        const { text, query: typed } = typedSearch(query, corpus.now);
        const expected = oracleSearch(corpus.topics, CONTENT_TYPES, query, corpus.now, pageSize);
        expectSame(runSearch(index, typed, corpus.now, pageSize), index, slugOf, expected);
        expect(typed.q, text).toBe('');
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('lists every topic, in listing order, when nothing is filtered', () => {
    fc.assert(
      fc.property(corpusArb, ({ topics, now }) => {
        const { index, slugOfGlobal } = indexOf(topics);
        const result = runSearch(index, { ...EMPTY_QUERY, sort: 'updated' }, now, 1_000_000);
        expect(result.total).toBe(topics.length);
        expect(Array.from(result.page, (local) => slugOfGlobal(index.global[local]!))).toEqual(
          [...topics].sort((a, b) => b.updatedMs - a.updatedMs || b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : 1)).map((t) => t.slug),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe("structured filters over a tag's own file (tag page panel)", () => {
  it('give the brute-force results for that tag plus the other filters', () => {
    const withTag = withQuery.filter(({ corpus }) => corpus.topics.some((topic) => topic.tags.length > 0)).chain((input) =>
      fc.record({ input: fc.constant(input), tag: fc.constantFrom(...new Set(input.corpus.topics.flatMap((topic) => topic.tags))) }),
    );
    fc.assert(
      fc.property(withTag, ({ input: { corpus, query, pageSize }, tag }) => {
        const { json } = indexOf(corpus.topics);
        const file = json<TagFile>(`tags/${tagSlug(tag)}.json`);
        const index = decodeIndex(file);
        const onTagPage: SearchQuery = { ...query, tags: [tag], match: 'any' };
        const expected = oracleSearch(corpus.topics, CONTENT_TYPES, onTagPage, corpus.now, pageSize);
        expectSame(runSearch(index, onTagPage, corpus.now, pageSize), index, (local) => file.display[local]![0], expected);
      }),
      { numRuns: RUNS },
    );
  });

  it("hold exactly the tag's topics; the tag's ordinals file points at the same topics in core.json", () => {
    fc.assert(
      fc.property(corpusArb, ({ topics }) => {
        const { json, slugOfGlobal } = indexOf(topics);
        for (const tag of new Set(topics.flatMap((topic) => topic.tags))) {
          const file = json<TagFile>(`tags/${tagSlug(tag)}.json`);
          const index = decodeIndex(file);
          expect(index.global, 'a tag file alone names no global ordinals').toBeUndefined();
          const slugs = file.display.map((row) => row[0]);
          expect(new Set(slugs)).toEqual(new Set(topics.filter((topic) => topic.tags.includes(tag)).map((topic) => topic.slug)));
          const ordinals = json<TagOrdinalsFile>(`tag-ordinals/${tagSlug(tag)}.json`);
          expect(Array.from(withGlobalOrdinals(index, ordinals).global, slugOfGlobal)).toEqual(slugs);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('display rows fetched all at once (display-all/)', () => {
  it('come in at most DISPLAY_ALL_FILES files of at least DISPLAY_ALL_MIN_ROWS rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), (count) => {
        const rows = displayAllRowsPerFile(count);
        expect(rows).toBeGreaterThanOrEqual(DISPLAY_ALL_MIN_ROWS);
        expect(Math.ceil(count / rows)).toBeLessThanOrEqual(DISPLAY_ALL_FILES);
        // No bigger than it must be: one row fewer a file would need more files (or fall below the minimum).
        if (rows > DISPLAY_ALL_MIN_ROWS) expect(Math.ceil(count / (rows - 1))).toBeGreaterThan(DISPLAY_ALL_FILES);
      }),
    );
  });

  it('hold every row of the small display files, in order, by the size core.json gives', () => {
    fc.assert(
      fc.property(corpusArb, ({ topics }) => {
        const { files, json, core } = indexOf(topics);
        const small = Array.from({ length: Math.ceil(topics.length / core.displayShardSize) }, (_, n) => json<DisplayRow[]>(`display/${n}.json`)).flat();
        const bigNames = [...files.keys()].filter((path) => path.startsWith('display-all/'));
        expect(bigNames).toHaveLength(Math.ceil(topics.length / core.displayAllSize));
        const big = bigNames.map((_, n) => json<DisplayRow[]>(`display-all/${n}.json`));
        expect(big.flat()).toEqual(small);
        expect(big.slice(0, -1).every((rows) => rows.length === core.displayAllSize)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the pages shown in relevancy order (pagedByScore)', () => {
  it('are the pages of every result sorted by score, then by the higher topic number: also when only the first ones are ordered', () => {
    // Few distinct scores (many ties), results in any order, pages past the last.
    const input = fc.array(fc.constantFrom(0.5, 1, 1e4 + 1, 1e6 + 0.25, 2e6 + 3), { minLength: 1, maxLength: 600, size: 'max' }).chain((scores) =>
      fc.record({
        score: fc.constant(Float64Array.from(scores)),
        ordinals: fc.shuffledSubarray(scores.map((_, i) => i)).map((kept) => Uint32Array.from(kept)),
        pageSize: fc.integer({ min: 1, max: 30 }),
        page: fc.integer({ min: 1, max: 40 }),
      }),
    );
    fc.assert(
      fc.property(input, ({ score, ordinals, pageSize, page }) => {
        // Ordinals that are the numbers themselves (rankWords), and ordinals numbered in reverse.
        const all = Uint32Array.from(ordinals).sort((a, b) => score[b]! - score[a]! || b - a);
        expect(pagedByScore(ordinals, score, page, pageSize)).toEqual(paged(all, page, pageSize));
        const numbers = Uint32Array.from(score, (_, i) => score.length - i);
        const reversed = Uint32Array.from(ordinals).sort((a, b) => score[b]! - score[a]! || a - b);
        expect(pagedByScore(ordinals, score, page, pageSize, numbers)).toEqual(paged(reversed, page, pageSize));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('topCounts (the facet values shown)', () => {
  it('are the k most frequent values, ties in value order, as sorting every value would give', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), (counts, k) => {
        const sorted = counts
          .map((count, value) => [value, count] as [number, number])
          .filter(([, count]) => count > 0)
          .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        expect(topCounts(Uint32Array.from(counts), k)).toEqual(sorted.slice(0, k));
      }),
      { numRuns: 2000 },
    );
  });
});
