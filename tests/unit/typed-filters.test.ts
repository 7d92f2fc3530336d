// Typed filters (SPEC 10, issue 23): operators in the words field mean what the form's controls
// mean. Any form state written as operators reads back as the same state; each operator, its
// aliases, relative dates against an injected clock; what is not understood stays as words with
// a one-line note; and any value is data (never a throw, never a prototype).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY_QUERY, parseSearchParams, searchParamsOf, type SearchQuery } from '../../src/search/query.ts';
import { moveTypedFilters, notUnderstoodText, readTypedFilters, typedFiltersOf, wordsWhileTyping } from '../../src/search/typed-filters.ts';
import { daysAgo } from '../../src/search/typed-operators.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { NOWS, structuredQueryArb, tagArb, wordsQueryArb } from './search-corpus.ts';
import { ODD_VALUES } from './odd-values.ts';

const NOW = new Date('2026-03-31T10:20:30Z');

/** The search the words field `q` asks for, on a form that says `form` otherwise (URL parameters). */
function typed(q: string, form = '', now = NOW) {
  const params = new URLSearchParams(form);
  params.set('q', q);
  const moved = moveTypedFilters(params, now);
  return { ...parseSearchParams(moved.params), moved: moved.params, problems: moved.problems };
}

const search = (query: SearchQuery) => searchParamsOf(query).toString();

// Tags and names beyond the corpus's: spaces, quotes, pluses, colons, backslashes, odd Unicode.
const oddText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(...'ab +",:@\\-#_é日\u00A0\uFEFF'.split('')) }),
  fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }),
  fc.constantFrom('__proto__', 'constructor', 'c++', 'c#', '+x', 'a+b', '"', 'tags:a', '@me'),
);
const oddTag = oddText.map(normaliseTag).filter((tag) => tag !== '' && !tag.includes(','));
const oddName = oddText.map((name) => name.trim()).filter((name) => name !== '');

/** Any form state: the corpus's filters and sorts, odd tags, names and types, words with phrases. */
const formStateArb = fc.constantFrom(...NOWS).chain((now) =>
  fc.record({
    now: fc.constant(now),
    query: fc
      .record({
        structured: structuredQueryArb(now),
        tags: fc.option(fc.uniqueArray(fc.oneof(tagArb, oddTag), { minLength: 1, maxLength: 3 }), { nil: undefined }),
        excludeTags: fc.option(fc.uniqueArray(fc.oneof(tagArb, oddTag), { minLength: 1, maxLength: 3 }), { nil: undefined }),
        author: fc.option(oddName, { nil: undefined }),
        type: fc.option(oddName.map((type) => type.toLowerCase().trim()).filter((type) => type !== ''), { nil: undefined }),
        q: fc.oneof(fc.constant(''), wordsQueryArb, wordsQueryArb.map((words) => `"${words}" api`)),
        words: fc.constantFrom('all' as const, 'any' as const),
        in: fc.constantFrom('all' as const, 'titles' as const),
      })
      .map(({ structured, tags, excludeTags, author, type, q, words, in: where }): SearchQuery => ({
        ...structured,
        ...(tags ? { tags } : {}),
        ...(excludeTags ? { excludeTags } : {}),
        ...(author !== undefined ? { author } : {}),
        ...(type !== undefined ? { type } : {}),
        q: q.replace(/\s+/gu, ' ').trim(),
        words,
        in: where,
      })),
  }),
);

describe('a form state written as operators', () => {
  it('reads back as the same state, with nothing not understood', () => {
    fc.assert(
      fc.property(formStateArb, ({ now, query }) => {
        const { typed: text, rest } = typedFiltersOf(query);
        // What only the form says (Match words among them, written only beside words) stays in the form.
        const form = searchParamsOf({ ...rest, q: 'x' });
        form.delete('q');
        const read = typed(text, form.toString(), now);
        expect(read.problems, text).toEqual([]);
        expect(search(read.query), text).toBe(search(query));
      }),
      { numRuns: 800 },
    );
  });

  it('moves nothing more when its words are read again (moving is done once, on submit)', () => {
    fc.assert(
      fc.property(formStateArb, fc.constantFrom('', ' foo:bar', ' replies-min:abc', ' tags:a tags:b', ' @x author:y', ' created-after:2025-02-30'), ({ now, query }, extra) => {
        const once = moveTypedFilters(new URLSearchParams([['q', typedFiltersOf(query).typed + extra]]), now);
        const twice = moveTypedFilters(once.params, now);
        expect(twice.params.toString()).toBe(once.params.toString());
        expect(twice.problems).toEqual(once.problems);
      }),
      { numRuns: 300 },
    );
  });
});

describe('each operator', () => {
  it('tags:a+b is all of them, tags:a,b any of them, replacing the Tags field', () => {
    expect(typed('tags:api+json').query).toMatchObject({ tags: ['api', 'json'], match: 'all', q: '' });
    expect(typed('tags:api,json', 'match=all').query).toMatchObject({ tags: ['api', 'json'], match: 'any' });
    expect(typed('tags:API', 'tags=web').query.tags).toEqual(['api']);
    expect(typed('tag:api+json').query.tags).toEqual(['api', 'json']);
  });

  it('keeps c++ and c# whole, and takes quoted tags with spaces or pluses', () => {
    expect(typed('tags:c++').query.tags).toEqual(['c++']);
    expect(typed('tags:c+++json').query).toMatchObject({ tags: ['c++', 'json'], match: 'all' });
    expect(typed('tags:json+c++').query).toMatchObject({ tags: ['json', 'c++'], match: 'all' });
    expect(typed('tags:c#,c++').query).toMatchObject({ tags: ['c#', 'c++'], match: 'any' });
    expect(typed('tags:"web search"+"a+b" words').query).toMatchObject({ tags: ['web search', 'a+b'], match: 'all', q: 'words' });
  });

  it('-tags: leaves out topics with any of the tags', () => {
    expect(typed('-tags:beta').query.excludeTags).toEqual(['beta']);
    expect(typed('-tags:beta,bug').query.excludeTags).toEqual(['beta', 'bug']);
    expect(typed('-tags:beta+bug').problems).toHaveLength(1);
  });

  it('@name and author:name set the author', () => {
    expect(typed('@alice clipboard').query).toMatchObject({ author: 'alice', q: 'clipboard' });
    expect(typed('author:"Mira K"').query.author).toBe('Mira K');
    expect(typed('@"say \\"hi\\""').query.author).toBe('say "hi"');
    expect(typed('mail me @ home').query).toMatchObject({ author: '', q: 'mail me @ home' });
  });

  it('forum:, type: and category: set the content type', () => {
    for (const name of ['forum', 'type', 'category']) expect(typed(`${name}:Help`).query.type).toBe('help');
  });

  it('dates: a day, or days, months, years before the visitor\'s clock, as a custom range', () => {
    expect(typed('created-after:2025-01-31 created-before:2025-12-31').query.created).toEqual({ kind: 'custom', from: '2025-01-31', to: '2025-12-31' });
    expect(typed('updated-after:7d').query.updated).toEqual({ kind: 'custom', from: '2026-03-24' });
    expect(typed('activity-before:1m').query.updated).toEqual({ kind: 'custom', to: '2026-02-28' });
    expect(typed('created-after:3m').query.created).toEqual({ kind: 'custom', from: '2025-12-31' });
    expect(typed('created-after:1y', '', new Date('2024-02-29T23:00:00Z')).query.created).toEqual({ kind: 'custom', from: '2023-02-28' });
    expect(typed('created-after:0d').query.created).toEqual({ kind: 'custom', from: '2026-03-31' });
    // A preset chosen in the form gives way, its hidden day fields too; a custom end already chosen stays.
    expect(typed('created-after:7d', 'created=week&created_to=2020-01-01').query.created).toEqual({ kind: 'custom', from: '2026-03-24' });
    expect(typed('created-after:7d', 'created=custom&created_to=2026-12-01').query.created).toEqual({ kind: 'custom', from: '2026-03-24', to: '2026-12-01' });
  });

  it('daysAgo turns no impossible day into a date', () => {
    expect(daysAgo('99999y', NOW)).toBeUndefined();
    expect(daysAgo('7w', NOW)).toBeUndefined();
    expect(daysAgo('-7d', NOW)).toBeUndefined();
    expect(daysAgo('12M', NOW)).toBe('2025-03-31');
  });

  it('replies-min/max and views-min/max set the counts', () => {
    expect(typed('replies-min:3 replies-max:10 views-min:0 views-max:0').query).toMatchObject({ minReplies: 3, maxReplies: 10, minViews: 0, maxViews: 0 });
    expect(typed('views-min:007').query.minViews).toBe(7);
  });

  it('in:title searches titles only', () => {
    expect(typed('in:title json').query).toMatchObject({ in: 'titles', q: 'json' });
    expect(typed('in:Titles json').query.in).toBe('titles');
  });

  it("order: takes SPEC 10's names, ours and Discourse's", () => {
    const cases: Array<[string, SearchQuery['sort']]> = [
      ['relevance', 'relevancy'], ['relevancy', 'relevancy'], ['latest', 'newest'], ['newest', 'newest'], ['created', 'newest'],
      ['activity', 'updated'], ['updated', 'updated'], ['latest-post', 'updated'], ['replies', 'replies'], ['posts', 'replies'], ['views', 'views'], ['VIEWS', 'views'],
    ];
    for (const [value, sort] of cases) expect(typed(`order:${value}`).query.sort, value).toBe(sort);
  });

  it('the example of issue 23, over a form that said other things', () => {
    const { query, moved } = typed('tags:api+json -tags:deprecated @alice replies-min:3 order:views', 'tags=web&author=bob&sort=newest');
    expect(query).toMatchObject({ tags: ['api', 'json'], match: 'all', excludeTags: ['deprecated'], author: 'alice', minReplies: 3, sort: 'views', q: '' });
    expect(searchParamsOf(query).toString()).toBe('tags=api%2Cjson&match=all&exclude_tags=deprecated&author=alice&min_replies=3&sort=views');
    expect(moved.has('q')).toBe(false);
  });

  it('leaves words, phrases and addresses as words', () => {
    expect(typed('"two words" https://example.com/a 10:30 c++: note: plain').query).toMatchObject({ q: '"two words" https://example.com/a 10:30 c++: note: plain' });
    expect(readTypedFilters('"tags:api in a phrase" json', NOW)).toMatchObject({ params: [], words: '"tags:api in a phrase" json' });
  });
});

describe('what is not understood', () => {
  it('stays in the words, named in one line: unknown names, bad values, bad dates, repeats', () => {
    const read = readTypedFilters('json categry:help replies-min:abc created-after:2025-02-30 order:oldest tags:a tags:b', NOW);
    expect(read.params).toEqual([]);
    expect(read.words).toBe('json categry:help replies-min:abc created-after:2025-02-30 order:oldest tags:a tags:b');
    expect(read.problems.map((problem) => problem.why)).toEqual([
      'no operator categry:', 'expected a whole number >= 0', 'expected a date YYYY-MM-DD, or 7d, 3m, 1y ago',
      'expected relevance, latest, activity, replies or views', 'tags: given more than once', 'tags: given more than once',
    ]);
    expect(notUnderstoodText(read.problems)).toMatch(/^Not understood, so searched as words: "categry:help" \(no operator categry:\), "replies-min:abc" \(.*\)\.$/);
    expect(notUnderstoodText(read.problems)).not.toContain('\n');
    expect(notUnderstoodText([])).toBe('');
  });

  it('tags: on a tag page (its tag is fixed)', () => {
    const read = readTypedFilters('tags:json @mira', NOW, { fixedTag: 'api' });
    expect(read.params).toEqual([['author', 'mira']]);
    expect(read.problems).toEqual([{ typed: 'tags:json', why: "this page lists the tag 'api' only" }]);
  });

  it('while typing, operators (understood or not) wait for the submit; the rest is searched', () => {
    expect(wordsWhileTyping('json tags:ap "two words" @al replies-min: foo:bar')).toBe('json "two words"');
  });
});

describe('any value', () => {
  const NAMES = ['tags', '-tags', 'author', 'forum', 'type', 'created-after', 'updated-before', 'replies-min', 'views-max', 'in', 'order', 'constructor', '__proto__', 'hasownproperty'];

  it.each(ODD_VALUES.map((value) => [JSON.stringify(value).slice(0, 30), value] as const))('%s: every operator reads it without throwing, uses it or names it', (_label, value) => {
    for (const name of NAMES) {
      for (const q of [`${name}:${value}`, `${name}:"${value}"`, `@${value}`, `json ${name}:${value} x`]) {
        const { query, problems } = typed(q);
        // Used (what is searched is a stable state) or not understood (kept as words).
        expect(parseSearchParams(searchParamsOf(query)).query).toEqual(query);
        for (const problem of problems) expect(q).toContain(problem.typed);
      }
    }
  });

  it('Object.prototype names are plain values: tags:__proto__, order:constructor', () => {
    expect(typed('tags:__proto__+constructor').query.tags).toEqual(['__proto__', 'constructor']);
    expect(typed('order:constructor').problems).toHaveLength(1);
    expect(typed('order:__proto__').query.sort).toBeUndefined();
    expect(typed('in:toString').problems).toHaveLength(1);
    expect(typed('constructor:x').problems[0]!.why).toBe('no operator constructor:');
    expect(typed('__proto__:x').query.q).toBe('__proto__:x');
  });

  it('a value over 500 characters is not understood', () => {
    expect(typed(`author:${'x'.repeat(501)}`).problems[0]!.why).toBe('at most 500 characters');
  });

  it('leaves the form state it was given alone where nothing is typed', () => {
    expect(search(typed('', 'tags=api&sort=views').query)).toBe(search({ ...EMPTY_QUERY, tags: ['api'], sort: 'views' }));
  });
});
