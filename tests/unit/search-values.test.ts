// Every parameter value is data (issue 16): the parsers of /search/ and /members/ take any value of
// any parameter (Object.prototype names, very long, odd Unicode) without throwing, use it or name
// it in a note, and the engine answers what the brute-force oracle answers. Also the heading's
// words for each filter, and the comma rule for tags.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ODD_VALUES, SEARCH_PARAMS, MEMBER_PARAMS } from './odd-values.ts';
import { projectRoot } from '../helpers/cli.ts';
import { copyOfSampleContent } from '../helpers/build.ts';
import { loadContent } from '../../src/content/load.ts';
import { MAX_PARAM_LENGTH, parseSearchParams, searchParamsOf, EMPTY_QUERY } from '../../src/search/query.ts';
import { parseMemberParams } from '../../src/search/member-search.ts';
import { decodeIndex, runSearch } from '../../src/search/engine.ts';
import { structuredCore } from '../../src/search/index-build.ts';
import { searchResultsHeadingText } from '../../src/model/listing.ts';
import { oracleSearch } from '../oracles/search.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
const content = loadContent({ root: projectRoot, contentDir: join(projectRoot, 'content'), excerptLength: 200 }).content;
const index = decodeIndex(structuredCore(content.topics, content.contentTypes.list));

describe('any value of any parameter', () => {
  it.each(ODD_VALUES.map((value) => [JSON.stringify(value).slice(0, 30), value] as const))('%s: /search/ parameters are used or noted, and the engine agrees with the oracle', (_label, value) => {
    for (const name of SEARCH_PARAMS) {
      const params = new URLSearchParams([[name, value]]);
      const { query, notes } = parseSearchParams(params);
      // Used (the search written back is stable) or named in a note.
      expect(parseSearchParams(searchParamsOf(query)).query).toEqual(query);
      if (value.length > MAX_PARAM_LENGTH) expect(notes.join(' ')).toMatch(new RegExp(`^Ignored ${name}=`));
      // Words need the word index (tests/unit/search-words.test.ts): structured filters are compared here.
      const structured = { ...query, q: '' };
      const engine = runSearch(index, structured, NOW, 10);
      const oracle = oracleSearch(content.topics, content.contentTypes.list, structured, NOW, 10);
      expect(engine.total, `${name}=${value.slice(0, 20)}`).toBe(oracle.total);
    }
  });

  it.each(ODD_VALUES.map((value) => [JSON.stringify(value).slice(0, 30), value] as const))('%s: /members/ parameters never throw', (_label, value) => {
    for (const name of MEMBER_PARAMS) expect(() => parseMemberParams(new URLSearchParams([[name, value]]))).not.toThrow();
  });

  it('Object.prototype names as parameter names or values reach no prototype', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const key of ['sort', 'sortby', 'in', 'search_in', 'words', 'search_and_or', name]) {
        const { query, notes } = parseSearchParams(new URLSearchParams([[key, name]]));
        expect(query.sort).toBeUndefined();
        expect(query.in).toBe('all');
        expect(query.words).toBe('all');
        if (key !== name) expect(notes).toHaveLength(1);
      }
    }
  });
});

describe('the heading names every filter', () => {
  it.each([
    [{}, 'Showing all topics'],
    [{ tags: ['api'] }, "Showing results for tags 'api'"],
    [{ tags: ['api', 'json', 'web'], match: 'all' }, "Showing results for tags 'api', 'json' and 'web'"],
    [{ q: 'json' }, "Showing results for 'json'"],
    [{ q: 'json web', words: 'any', in: 'titles' }, "Showing results for any of the words 'json web' in titles only"],
    [{ tags: ['http'], q: 'json' }, "Showing results for tags 'http' matching 'json'"],
    [{ q: 'json', author: 'mira' }, "Showing results for 'json', by 'mira'"],
    [{ type: 'help' }, "Showing topics, of type 'Help & Support'"],
    [{ created: { kind: 'preset', preset: 'six_months' } }, 'Showing topics, created in the last six months'],
    [{ updated: { kind: 'custom', to: '2025-01-31' } }, 'Showing topics, updated on or before 2025-01-31'],
    [{ minReplies: 1, minViews: 2 }, 'Showing topics, with at least 1 reply, with at least 2 views'],
    [{ maxReplies: 0, maxViews: 1 }, 'Showing topics, with at most 0 replies, with at most 1 view'],
    [{ tags: ['api'], excludeTags: ['old', 'beta'] }, "Showing results for tags 'api', not tagged 'old' or 'beta'"],
    [{ sort: 'views', page: 3 }, 'Showing all topics'],
  ] as const)('%j', (changes, text) => {
    const names = new Map([['help', 'Help & Support']]);
    expect(searchResultsHeadingText({ ...EMPTY_QUERY, ...changes } as typeof EMPTY_QUERY, (id) => names.get(id) ?? id)).toBe(text);
  });
});

describe('a comma in a tag', () => {
  it('is a validation error: commas separate tags in a search', () => {
    const dir = copyOfSampleContent('comma-tag');
    const file = join(dir, 'topics/help/clipboard-action-strips-formatting.md');
    const source = readFileSync(file, 'utf8');
    expect(source).toMatch(/^tags: \[/m);
    writeFileSync(file, source.replace(/^tags: \[/m, "tags: ['a,b', "));
    const { problems } = loadContent({ root: projectRoot, contentDir: dir, excerptLength: 200 });
    expect(problems).toEqual([expect.objectContaining({ field: 'tags[0]', message: expect.stringMatching(/contains a comma/) })]);
  });
});
