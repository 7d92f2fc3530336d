// The URL is the state (SPEC 4.2): parameters, the forum's alias names, malformed values (ignored
// with a note), the written URL read back, and date filters relative to the visitor's clock.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY_QUERY, dateBounds, effectiveSort, parseSearchParams, searchParamsOf, type SearchQuery } from '../../src/search/query.ts';
import { dateMatches, oracleSearch } from '../oracles/search.ts';
import { CONTENT_TYPES, NOWS, corpusArb, instantArb, structuredQueryArb, wordsQueryArb } from './search-corpus.ts';

const parse = (search: string) => parseSearchParams(new URLSearchParams(search));

describe('parseSearchParams', () => {
  it('reads every parameter of SPEC 4.2', () => {
    const { query, notes } = parse(
      'tags=API,%20Web%20%20Search ,api&match=all&q=%20clipboard%20%20json%20&words=any&in=titles&author=%20Mira%20&type=Help' +
        '&created=custom&created_from=2025-01-01&created_to=2025-12-31&updated=week&min_replies=3&min_views=100&sort=views&page=2' +
        '&exclude_tags=Deprecated,%20old%20api&max_replies=0&max_views=5000',
    );
    expect(notes).toEqual([]);
    expect(query).toEqual({
      tags: ['api', 'web search'],
      match: 'all',
      excludeTags: ['deprecated', 'old api'],
      q: 'clipboard json',
      words: 'any',
      in: 'titles',
      author: 'Mira',
      type: 'help',
      created: { kind: 'custom', from: '2025-01-01', to: '2025-12-31' },
      updated: { kind: 'preset', preset: 'week' },
      minReplies: 3,
      minViews: 100,
      maxReplies: 0,
      maxViews: 5000,
      sort: 'views',
      page: 2,
    } satisfies SearchQuery);
  });

  it('gives the defaults for an empty URL', () => {
    expect(parse('')).toEqual({ query: EMPTY_QUERY, notes: [] });
  });

  it.each([
    ['search_in=titles', { in: 'titles' }],
    ['search_in=titles_only', { in: 'titles' }],
    ['search_in=posts', { in: 'all' }],
    ['search_and_or=or', { words: 'any' }],
    ['search_and_or=and', { words: 'all' }],
    ['search_and_or=any', { words: 'any' }],
    ['start_after=2025-03-01', { created: { kind: 'custom', from: '2025-03-01' } }],
    ['start_before=2025-03-31', { created: { kind: 'custom', to: '2025-03-31' } }],
    ['start_after=2025-03-01&start_before=2025-03-31', { created: { kind: 'custom', from: '2025-03-01', to: '2025-03-31' } }],
    ['updated_after=2026-01-01', { updated: { kind: 'custom', from: '2026-01-01' } }],
    ['updated_before=2026-02-01', { updated: { kind: 'custom', to: '2026-02-01' } }],
    ['search_min_replies=7', { minReplies: 7 }],
    ['search_min_views=250', { minViews: 250 }],
    ['sortby=views', { sort: 'views' }],
    ['sortby=replies', { sort: 'replies' }],
    ['sortby=relevance', { sort: 'relevancy' }],
    ['sortby=latest', { sort: 'updated' }],
  ] as const)('reads the forum alias %s', (search, expected) => {
    const { query, notes } = parse(search);
    expect(notes).toEqual([]);
    expect(query).toEqual({ ...EMPTY_QUERY, ...expected });
  });

  it('lets our own parameter win over its alias, in either order', () => {
    expect(parse('min_replies=2&search_min_replies=9').query.minReplies).toBe(2);
    expect(parse('search_min_replies=9&min_replies=2').query.minReplies).toBe(2);
    expect(parse('sortby=views&sort=replies').query.sort).toBe('replies');
  });

  it.each([
    ['min_replies=abc', 'min_replies'],
    ['min_replies=-1', 'min_replies'],
    ['min_views=1.5', 'min_views'],
    ['search_min_views=lots', 'min_views'],
    ['created_from=2025-02-30', 'created_from'],
    ['created_to=yesterday', 'created_to'],
    ['start_after=01/02/2025', 'created_from'],
    ['updated_before=2025-13-01', 'updated_to'],
    ['created=fortnight', 'created'],
    ['updated=sometime', 'updated'],
    ['match=most', 'match'],
    ['words=some', 'words'],
    ['in=comments', 'in'],
    ['sort=random', 'sort'],
    ['sortby=random', 'sort'],
    ['page=0', 'page'],
    ['page=two', 'page'],
  ])('ignores the malformed %s with a note naming %s, and keeps every other parameter', (bad, name) => {
    // Other parameters, none of them naming the same field; the bad one comes last, so nothing overrides it.
    const others = `tags=api&q=json&${name.includes('views') ? 'min_replies' : 'min_views'}=5&${name.startsWith('created') ? 'updated=week' : 'created=month'}`;
    const { query, notes } = parse(`${others}&${bad}`);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`${name}=`);
    expect(notes[0]).toMatch(/^Ignored .*: expected .+\.$/);
    const withoutBad = parse(others);
    expect(withoutBad.notes).toEqual([]);
    expect(query).toEqual(withoutBad.query);
  });

  it('keeps created=custom chosen before its days (a form then shows the day fields); with only malformed days it is ignored', () => {
    expect(parse('created=custom').query.created).toEqual({ kind: 'custom' });
    expect(searchParamsOf(parse('created=custom').query).toString()).toBe('created=custom');
    const { query, notes } = parse('created=custom&created_from=2025-02-30');
    expect(query.created).toEqual({ kind: 'any' });
    expect(notes).toHaveLength(1);
  });

  it('notes every malformed parameter at once', () => {
    expect(parse('min_replies=x&min_views=y&page=-2&created_from=nope').notes).toHaveLength(4);
  });
});

describe('searchParamsOf and parseSearchParams', () => {
  it('read back what they write: the same search, with no notes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NOWS).chain((now) => structuredQueryArb(now)),
        wordsQueryArb,
        fc.boolean(),
        fc.constantFrom('all' as const, 'any' as const),
        fc.constantFrom('all' as const, 'titles' as const),
        (structured, q, withWords, words, where) => {
          const query: SearchQuery = withWords ? { ...structured, q, words, in: where } : structured;
          const written = searchParamsOf(query);
          const { query: read, notes } = parseSearchParams(new URLSearchParams(written.toString()));
          expect(notes).toEqual([]);
          expect(searchParamsOf(read).toString()).toBe(written.toString());
          // Everything that changes results survives exactly.
          for (const field of ['tags', 'excludeTags', 'q', 'author', 'type', 'minReplies', 'minViews', 'maxReplies', 'maxViews', 'sort', 'page'] as const) expect(read[field]).toEqual(query[field]);
          if (query.tags.length > 1) expect(read.match).toBe(query.match);
          if (query.q) expect([read.words, read.in]).toEqual([query.words, query.in]);
          for (const field of ['created', 'updated'] as const) {
            expect(read[field]).toEqual(query[field]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('give the same results after the round trip (brute force on random corpora)', () => {
    const input = corpusArb.chain((corpus) => fc.record({ corpus: fc.constant(corpus), query: structuredQueryArb(corpus.now) }));
    fc.assert(
      fc.property(input, ({ corpus, query }) => {
        const read = parseSearchParams(searchParamsOf(query)).query;
        const slugs = (q: SearchQuery) => oracleSearch(corpus.topics, CONTENT_TYPES, q, corpus.now, 10).page.map((topic) => topic.slug);
        expect(slugs(read)).toEqual(slugs(query));
      }),
      { numRuns: 200 },
    );
  });

  it('leave defaults out of the URL', () => {
    expect(searchParamsOf(EMPTY_QUERY).toString()).toBe('');
    expect(searchParamsOf({ ...EMPTY_QUERY, tags: ['api'], match: 'all', words: 'any', in: 'titles' }).toString()).toBe('tags=api');
  });
});

describe('effectiveSort', () => {
  it('is relevancy with words and newest without, unless a sort is chosen', () => {
    expect(effectiveSort(EMPTY_QUERY)).toBe('newest');
    expect(effectiveSort({ ...EMPTY_QUERY, q: 'json' })).toBe('relevancy');
    expect(effectiveSort({ ...EMPTY_QUERY, sort: 'relevancy' })).toBe('newest');
    expect(effectiveSort({ ...EMPTY_QUERY, q: 'json', sort: 'views' })).toBe('views');
  });
});

describe('dateBounds', () => {
  it('admits exactly the instants the brute force admits (presets from now, custom days inclusive in UTC)', () => {
    const input = fc.constantFrom(...NOWS).chain((now) =>
      fc.record({
        now: fc.constant(now),
        at: instantArb(now),
        filter: structuredQueryArb(now).map((query) => query.created),
      }),
    );
    fc.assert(
      fc.property(input, ({ now, at, filter }) => {
        const { from, to } = dateBounds(filter, now);
        expect(at >= from && at < to).toBe(dateMatches(at, filter, now));
      }),
      { numRuns: 2000 },
    );
  });

  it('reaches back whole calendar months, to the last day of a shorter month', () => {
    const now = new Date('2026-03-31T10:20:30Z');
    expect(new Date(dateBounds({ kind: 'preset', preset: 'month' }, now).from).toISOString()).toBe('2026-02-28T10:20:30.000Z');
    expect(new Date(dateBounds({ kind: 'preset', preset: 'six_months' }, now).from).toISOString()).toBe('2025-09-30T10:20:30.000Z');
    const leapDay = new Date('2024-02-29T08:00:00Z');
    expect(new Date(dateBounds({ kind: 'preset', preset: 'year' }, leapDay).from).toISOString()).toBe('2023-02-28T08:00:00.000Z');
    expect(new Date(dateBounds({ kind: 'preset', preset: 'week' }, leapDay).from).toISOString()).toBe('2024-02-22T08:00:00.000Z');
  });
});
