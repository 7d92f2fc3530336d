// Words (`q`): through the built vocabulary and postings shards (WordMatcher, Fuse.js for typos),
// every topic that contains all (or any) of the query's words exactly must be found, in titles
// and posts or in titles only, on /search/'s index and on a tag's own file; words only narrow
// the structured results; a typo a letter away still finds the word; and a quoted phrase finds
// exactly the topics where its words stand together (positions files, read only for phrases).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { tagSlug } from '../../src/model/tags.ts';
import { buildSearchIndex } from '../../src/search/index-build.ts';
import { plainText } from '../../src/content/markdown.ts';
import { decodeIndex, runSearch, withGlobalOrdinals } from '../../src/search/engine.ts';
import { onlyWords, rankWords } from '../../src/search/relevance.ts';
import type { CoreFile, DisplayRow, TagFile, TagOrdinalsFile, VocabularyFile, WordsFile } from '../../src/search/index-format.ts';
import Fuse from 'fuse.js';
import { TYPOS_BELOW, WordMatcher, typoCandidates, type IndexReader } from '../../src/search/word-match.ts';
import { foldWord, MAX_EXPANSIONS, postingsShard, prefixShards, PREFIX_MIN_CHARS, queryPhrases, queryWords, terms } from '../../src/search/words.ts';
import type { PostingsFile } from '../../src/search/index-format.ts';
import { EMPTY_QUERY, type SearchQuery } from '../../src/search/query.ts';
import { containsWords, exactRank, holdsPhrase, passesStructured, sortOf, sortTopics } from '../oracles/search.ts';
import { CONTENT_TYPES, WORDS, corpusArb, structuredQueryArb, wordsQueryArb } from './search-corpus.ts';
import { typedSearch } from './typed-search.ts';

/** An IndexReader over the built files, recording which files a search read. */
function readerOf(files: Map<string, string>): { read: IndexReader; reads: string[] } {
  const reads: string[] = [];
  const read: IndexReader = async <T>(path: string) => {
    reads.push(path);
    const text = files.get(path);
    if (text === undefined) throw new Error(`the index has no ${path}`);
    return JSON.parse(text) as T;
  };
  return { read, reads };
}

/** The index files of a site of `topics`, and its core.json. */
function siteIndex(topics: Topic[]): { files: Map<string, string>; core: CoreFile } {
  const files = buildSearchIndex(sortForListing(topics), CONTENT_TYPES);
  return { files, core: JSON.parse(files.get('core.json')!) as CoreFile };
}

/** Runs a search with words over core.json; returns the slugs found, in order. */
async function searchSite(topics: Topic[], query: SearchQuery, now: Date): Promise<string[]> {
  const { files, core } = siteIndex(topics);
  const index = decodeIndex(core);
  const words = await new WordMatcher(readerOf(files).read, core).match(query.q, query.in === 'titles');
  const result = runSearch(index, query, now, 1_000_000, words);
  const display = (ordinal: number) => (JSON.parse(files.get(`display/${Math.floor(ordinal / core.displayShardSize)}.json`)!) as DisplayRow[])[ordinal % core.displayShardSize]!;
  return Array.from(result.page, (local) => display(index.global[local]!)[0]);
}

/**
 * Words with a quoted phrase: a run of one to four words of a topic's title or post (so the phrase
 * stands somewhere), the same run with two words swapped, or two words of the list (seldom together).
 */
function phraseQueryArb(topics: readonly Topic[]): fc.Arbitrary<string> {
  const runs = topics.flatMap((topic) => [terms(topic.title), terms(topic.text)]).filter((list) => list.length > 0);
  const fromTopic = runs.length === 0 ? fc.constant(['json', 'api']) : fc.record({ list: fc.constantFrom(...runs), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }), swap: fc.boolean() }).map(({ list, at, length, swap }) => {
    const start = at % list.length;
    const run = list.slice(start, start + length);
    return swap && run.length > 1 ? [run[1]!, run[0]!, ...run.slice(2)] : run;
  });
  const phrase = fc.oneof({ weight: 3, arbitrary: fromTopic }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 2 }) });
  return fc.tuple(fc.array(phrase, { minLength: 1, maxLength: 2 }), fc.oneof(fc.constant(''), wordsQueryArb)).map(([phrases, words]) =>
    [...phrases.map((run) => `"${run.join(' ')}"`), words].join(' ').trim(),
  );
}

const withWords = corpusArb.chain((corpus) =>
  fc.record({
    corpus: fc.constant(corpus),
    query: fc
      .record({
        structured: fc.oneof(fc.constant(EMPTY_QUERY), structuredQueryArb(corpus.now)),
        q: fc.oneof({ weight: 3, arbitrary: wordsQueryArb }, { weight: 2, arbitrary: phraseQueryArb(corpus.topics) }),
        words: fc.constantFrom('all' as const, 'any' as const),
        in: fc.constantFrom('all' as const, 'titles' as const),
      })
      .map(({ structured, q, words, in: where }): SearchQuery => ({ ...structured, q, words, in: where, page: 1 })),
  }),
);

/** Checks a result against the brute force: every exact match found, nothing outside the structured filters, sorts other than relevancy kept. */
function expectRecall(found: string[], topics: Topic[], query: SearchQuery, now: Date) {
  const structured = topics.filter((topic) => passesStructured(topic, query, CONTENT_TYPES, now));
  const exact = structured.filter((topic) => containsWords(topic, query)).map((topic) => topic.slug);
  expect(new Set(found).size).toBe(found.length);
  expect(found, `every topic with ${query.words} of '${query.q}' in ${query.in}`).toEqual(expect.arrayContaining(exact));
  const allowed = new Set(structured.map((topic) => topic.slug));
  expect(found.filter((slug) => !allowed.has(slug)), 'results outside the structured filters').toEqual([]);
  // A phrase is exact: nothing is found where its words do not stand together.
  const phrases = queryPhrases(query.q);
  const byTopic = new Map(topics.map((topic) => [topic.slug, topic]));
  expect(found.filter((slug) => !phrases.every((phrase) => holdsPhrase(byTopic.get(slug)!, phrase, query.in))), `topics without every phrase of '${query.q}'`).toEqual([]);
  const sort = sortOf(query);
  const bySlug = new Map(topics.map((topic) => [topic.slug, topic]));
  if (sort !== 'relevancy') {
    expect(found, `order by ${sort}`).toEqual(sortTopics(found.map((slug) => bySlug.get(slug)!), sort).map((topic) => topic.slug));
  } else expectExactFirst(found.map((slug) => bySlug.get(slug)!), query);
}

/**
 * Relevancy's order: topics holding more of the words exactly first (so all of them above any match
 * through a prefix or a typo), then more of them in the title.
 */
function expectExactFirst(found: Topic[], query: SearchQuery) {
  const ranks = found.map((topic) => exactRank(topic, query));
  for (let i = 1; i < ranks.length; i++) {
    const [held, inTitle] = ranks[i]!;
    const [heldBefore, inTitleBefore] = ranks[i - 1]!;
    const where = `'${found[i - 1]!.slug}' ${ranks[i - 1]} before '${found[i]!.slug}' ${ranks[i]} for '${query.q}' (${query.words}, in ${query.in})`;
    expect(held, `more words held exactly rank first: ${where}`).toBeLessThanOrEqual(heldBefore);
    if (held === heldBefore) expect(inTitle, `then more in the title: ${where}`).toBeLessThanOrEqual(inTitleBefore);
  }
}

describe('words over /search/ (core.json, vocabulary and postings shards)', () => {
  it('find every topic containing all / any of the words exactly, in titles and posts or titles only', async () => {
    await fc.assert(
      fc.asyncProperty(withWords, async ({ corpus, query }) => {
        expectRecall(await searchSite(corpus.topics, query, corpus.now), corpus.topics, query, corpus.now);
      }),
      { numRuns: 250 },
    );
  });

  it('find the same when the filters are typed as operators among the words (phrases stay words)', async () => {
    await fc.assert(
      fc.asyncProperty(withWords, async ({ corpus, query }) => {
        const typed = typedSearch(query, corpus.now);
        expect(typed.problems, typed.text).toBe(0);
        const found = await searchSite(corpus.topics, typed.query, corpus.now);
        expectRecall(found, corpus.topics, query, corpus.now);
        expect(found).toEqual(await searchSite(corpus.topics, query, corpus.now));
      }),
      { numRuns: 150 },
    );
  });

  it('find the word despite a typo one letter away (a letter dropped, doubled or changed after the first)', async () => {
    const long = WORDS.filter((word) => /^[a-z]{6,}$/.test(word));
    const typo = fc.record({ word: fc.constantFrom(...long), at: fc.nat(), kind: fc.constantFrom('drop', 'double', 'change') }).map(({ word, at, kind }) => {
      const i = 1 + (at % (word.length - 1));
      const typed = kind === 'drop' ? word.slice(0, i) + word.slice(i + 1) : kind === 'double' ? word.slice(0, i) + word[i] + word.slice(i) : `${word.slice(0, i)}${word[i] === 'q' ? 'z' : 'q'}${word.slice(i + 1)}`;
      return { word, typed };
    });
    await fc.assert(
      fc.asyncProperty(corpusArb, typo, async ({ topics, now }, { word, typed }) => {
        const query: SearchQuery = { ...EMPTY_QUERY, q: typed };
        const found = await searchSite(topics, query, now);
        const holders = (q: string) => topics.filter((topic) => containsWords(topic, { ...query, q })).map((topic) => topic.slug);
        // A word many topics hold as typed is taken as meant: no typos (TYPOS_BELOW).
        const meant = holders(typed).length >= TYPOS_BELOW && !word.startsWith(typed) ? typed : word;
        expect(found, `'${typed}' finds '${meant}'`).toEqual(expect.arrayContaining(holders(meant)));
      }),
      { numRuns: 150 },
    );
  });

  it("finds 'workflow' for 'workflw' and ranks a title hit above a post hit", async () => {
    const topic = (slug: string, title: string, html: string, createdMs: number): Topic => ({
      slug, file: `${slug}.md`, title, author: 'mira',       createdMs, updatedMs: createdMs, contentType: 'guides', contentGroup: 'category', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html, text: plainText(html),
    });
    const topics = [
      topic('in-post', 'Clipboard tricks', '<p>My workflow for the clipboard.</p>', 2_000_000_000_000),
      topic('in-title', 'A workflow for JSON', '<p>Parsing.</p>', 1_000_000_000_000),
      topic('elsewhere', 'Calendar', '<p>Nothing here.</p>', 1_500_000_000_000),
    ];
    expect(await searchSite(topics, { ...EMPTY_QUERY, q: 'workflw' }, new Date())).toEqual(['in-title', 'in-post']);
    expect(await searchSite(topics, { ...EMPTY_QUERY, q: 'workflw', in: 'titles' }, new Date())).toEqual(['in-title']);
    expect(await searchSite(topics, { ...EMPTY_QUERY, q: 'workflw', sort: 'newest' }, new Date())).toEqual(['in-post', 'in-title']);
  });

  it(`matches a word ${TYPOS_BELOW} topics hold as typed without typos, a rarer one with them`, async () => {
    const topic = (slug: string, title: string, createdMs: number): Topic => ({
      slug, file: `${slug}.md`, title, author: 'mira',       createdMs, updatedMs: createdMs, contentType: 'guides', contentGroup: 'category', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html: '<p>Notes.</p>', text: 'Notes.',
    });
    const holding = (count: number) => Array.from({ length: count }, (_, i) => topic(`form-${i}`, `A form for the clipboard ${i}`, 1_000_000_000_000 + i));
    const others = [topic('fork', 'Fork the clipboard tricks', 2_000_000_000_000), topic('forms', 'Forms of the menu bar', 2_000_000_000_001)];
    const common = await searchSite([...holding(TYPOS_BELOW), ...others], { ...EMPTY_QUERY, q: 'form' }, new Date());
    // Its prefix still matches (`forms`), below every topic holding the word itself; its typo (`fork`) does not.
    expect(common).toHaveLength(TYPOS_BELOW + 1);
    expect(common.at(-1)).toBe('forms');
    const rarer = await searchSite([...holding(TYPOS_BELOW - 1), ...others], { ...EMPTY_QUERY, q: 'form' }, new Date());
    expect(rarer).toHaveLength(TYPOS_BELOW + 1);
    expect(rarer.slice(-2).sort()).toEqual(['fork', 'forms']);
  });

  it('finds a quoted phrase only where its words stand together, in order, within the title or within the post', async () => {
    const topic = (slug: string, title: string, html: string): Topic => ({
      slug, file: `${slug}.md`, title, author: 'mira',       createdMs: Date.UTC(2026, 0, 1), updatedMs: Date.UTC(2026, 0, 1), contentType: 'guides', contentGroup: 'category', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html, text: plainText(html),
    });
    const topics = [
      // Every pair of 'shell script runner' stands together here, the three words never do.
      topic('pairs-only', 'Notes', '<p>shell script and script runner</p>'),
      topic('together', 'Shell script runner', '<p>Nothing.</p>'),
      topic('in-post', 'Tips', '<p>A Shell, script runner!</p>'),
      topic('across-fields', 'Using shell', '<p>script runner</p>'),
      topic('reversed', 'Runner', '<p>runner script, then shell</p>'),
      // Puts terms in the vocabulary and postings shards a 'constructor' would be looked up in.
      topic('config', 'Config', '<p>config and cron</p>'),
    ];
    const found = (q: string, where: 'all' | 'titles' = 'all') => searchSite(topics, { ...EMPTY_QUERY, q, in: where, sort: 'newest' }, new Date()).then((slugs) => slugs.sort());
    expect(await found('"shell script runner"')).toEqual(['in-post', 'together']);
    expect(await found('"shell script runner"', 'titles')).toEqual(['together']);
    expect(await found('"script shell"')).toEqual([]);
    expect(await found('"runner script"')).toEqual(['reversed']);
    expect(await found('"shell script" runner')).toEqual(['in-post', 'pairs-only', 'together']);
    // Whatever Match words says, the phrase is required; a phrase's word has no typo or prefix.
    expect(await searchSite(topics, { ...EMPTY_QUERY, q: '"script runner" notes', words: 'any', sort: 'newest' }, new Date()).then((s) => s.sort())).toEqual(['across-fields', 'in-post', 'pairs-only', 'together']);
    expect(await found('"shel script"')).toEqual([]);
    expect(await found('"runner"')).toEqual(['across-fields', 'in-post', 'pairs-only', 'reversed', 'together']);
    // A word the index lacks, named like an Object.prototype member of the shards it would be in, finds nothing.
    expect(await found('"script constructor"')).toEqual([]);
    expect(await found('"constructor runner"')).toEqual([]);
  });

  it('reads positions files only for a quoted phrase, and only those of its own words', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArb.chain((corpus) => fc.record({ corpus: fc.constant(corpus), q: phraseQueryArb(corpus.topics) })), async ({ corpus, q }) => {
        const { files, core } = siteIndex(corpus.topics);
        const { read, reads } = readerOf(files);
        await new WordMatcher(read, core).match(q.replaceAll('"', ''), false);
        expect(reads.filter((path) => path.startsWith('positions/'))).toEqual([]);
        await new WordMatcher(read, core).match(q, false);
        const known = queryPhrases(q).filter((phrase) => phrase.every((term) => core.vocabKeys.includes(term.codePointAt(0)!.toString(16))));
        const want = new Set(known.flat().map((term) => `positions/${postingsShard(term, core.postingBounds)}.json`));
        expect(new Set(reads.filter((path) => path.startsWith('positions/')))).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });

  it('reads only the vocabulary shard of each word and the postings shards its terms live in, never display shards', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArb, wordsQueryArb, async ({ topics }, q) => {
        const { files, core } = siteIndex(topics);
        const { read, reads } = readerOf(files);
        await new WordMatcher(read, core).match(q, false);
        const keys = new Set(terms(q).map((word) => word.codePointAt(0)!.toString(16)));
        for (const path of reads) {
          expect(path).toMatch(/^(vocab|postings)\//);
          if (path.startsWith('vocab/')) expect(keys).toContain(path.slice(6, -5));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('the whole vocabulary fetched ahead (vocab-all.json)', () => {
  it('holds every vocabulary shard as its own file does; core.json and words.json give its size', () => {
    fc.assert(
      fc.property(corpusArb, ({ topics }) => {
        const { files, core } = siteIndex(topics);
        const text = files.get('vocab-all.json')!;
        const all = JSON.parse(text) as VocabularyFile;
        expect(Object.keys(all).sort(), 'keys such as 77 come first in an object').toEqual(core.vocabKeys);
        for (const key of core.vocabKeys) expect(all[key], key).toEqual(JSON.parse(files.get(`vocab/${key}.json`)!));
        expect(core.vocabAllBytes).toBe(text.length);
        expect((JSON.parse(files.get('words.json')!) as WordsFile).vocabAllBytes).toBe(text.length);
      }),
      { numRuns: 60 },
    );
  });

  it('once added, lets words (typos and prefixes too) match the same without reading any vocabulary shard', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArb, fc.oneof(wordsQueryArb, fc.constantFrom('workflw', 'scrpt', 'jso', 'zzzq')), async ({ topics }, q) => {
        const { files, core } = siteIndex(topics);
        const plain = await new WordMatcher(readerOf(files).read, core).match(q, false);
        const { read, reads } = readerOf(files);
        const ahead = new WordMatcher(read, core);
        ahead.addVocabulary(JSON.parse(files.get('vocab-all.json')!) as VocabularyFile);
        expect(await ahead.match(q, false)).toEqual(plain);
        expect(reads.filter((path) => path.startsWith('vocab/'))).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});

describe('the word index layout', () => {
  it("keeps every term in the postings shard its bounds name, in sorted runs", async () => {
    await fc.assert(
      fc.asyncProperty(corpusArb, async ({ topics }) => {
        const { files, core } = siteIndex(topics);
        expect([...core.postingBounds].sort()).toEqual(core.postingBounds);
        core.postingBounds.forEach((_, n) => {
          const shard = JSON.parse(files.get(`postings/${n}.json`)!) as PostingsFile;
          for (const term of Object.keys(shard)) expect(postingsShard(term, core.postingBounds), term).toBe(n);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('names, from the bounds alone, every postings shard a word and its first prefix terms are in, and no shard that holds none of them', () => {
    // Many shared prefixes: a small alphabet, and long runs of terms starting with one stem (a word's
    // prefix terms then reach over many shards, one term each); shards cut anywhere in the sorted terms.
    const word = fc.oneof(
      fc.array(fc.constantFrom(...'abcd'), { minLength: 1, maxLength: 6 }).map((chars) => chars.join('')),
      fc.tuple(fc.constantFrom('abc', 'abca', 'babc'), fc.array(fc.constantFrom(...'abcd'), { maxLength: 3 })).map(([stem, rest]) => stem + rest.join('')),
    );
    const layout = fc.uniqueArray(word, { minLength: 1, maxLength: 120, size: 'max' }).chain((vocabulary) => {
      const sorted = [...vocabulary].sort();
      return fc.record({ sorted: fc.constant(sorted), cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, sorted.length - 1) }), { maxLength: 80, size: 'max' }) });
    });
    fc.assert(
      fc.property(layout, word, ({ sorted, cuts }, typed) => {
        const starts = [0, ...cuts.filter((cut) => cut < sorted.length).sort((a, b) => a - b)];
        const bounds = starts.map((start) => sorted[start]!);
        const shardOf = (index: number) => starts.filter((start) => start <= index).length - 1;
        const named = prefixShards(typed, bounds);
        // What the matcher reads for the word and its prefixes (expand): the word, then the next MAX_EXPANSIONS terms starting with it.
        const read = new Set<number>([postingsShard(typed, bounds)]);
        if ([...typed].length >= PREFIX_MIN_CHARS) {
          let i = sorted.findIndex((term) => term > typed);
          for (let taken = 0; i >= 0 && i < sorted.length && sorted[i]!.startsWith(typed) && taken < MAX_EXPANSIONS; i++, taken++) read.add(shardOf(i));
        }
        for (const shard of read) expect(named, `shard ${shard}`).toContain(shard);
        // Beyond its own shard, only shards that start with a term the word is a prefix of.
        for (const shard of named.slice(1)) expect(bounds[shard]!.startsWith(typed) && [...typed].length >= PREFIX_MIN_CHARS).toBe(true);
        expect(new Set(named).size).toBe(named.length);
      }),
      { numRuns: 1000 },
    );
  });

  it("prefetches, for words being typed, exactly each word's vocabulary shard and the postings shards of it and its prefix terms, and a phrase's words' positions", async () => {
    const input = corpusArb.chain(({ topics }) => fc.record({ topics: fc.constant(topics), q: fc.oneof(wordsQueryArb, phraseQueryArb(topics)) }));
    await fc.assert(
      fc.asyncProperty(input, async ({ topics, q }) => {
        const { files, core } = siteIndex(topics);
        const { read, reads } = readerOf(files);
        new WordMatcher(read, core).prefetch(q);
        await new Promise((resolve) => setTimeout(resolve, 0));
        const isKnown = (word: string) => core.vocabKeys.includes(word.codePointAt(0)!.toString(16));
        const known = [...new Set(terms(q))].filter(isKnown);
        const want = known.flatMap((word) => [`vocab/${word.codePointAt(0)!.toString(16)}.json`, ...prefixShards(word, core.postingBounds).map((n) => `postings/${n}.json`)]);
        want.push(...queryPhrases(q).flat().filter(isKnown).map((word) => `positions/${postingsShard(word, core.postingBounds)}.json`));
        expect(new Set(reads)).toEqual(new Set(want));
      }),
      { numRuns: 60 },
    );
  });

  it('offers Fuse.js every term it could match a word in (the typo pre-filter loses nothing)', () => {
    const letters = fc.constantFrom(...'abcdeiorst');
    const word = fc.array(letters, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      // 0.34 matches words; 0.5 finds the close word offered when one matched nothing.
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 80 }), word, fc.constantFrom(0.34, 0.5), (vocabulary, typed, threshold) => {
        const sorted = [...vocabulary].sort();
        const options = { includeScore: true, threshold, ignoreLocation: true, minMatchCharLength: 2 };
        const everything = new Fuse(sorted, options).search(typed).map((hit) => sorted[hit.refIndex]);
        const candidates = typoCandidates(sorted, typed, threshold);
        const filtered = new Fuse(candidates.map((i) => sorted[i]!), options).search(typed).map((hit) => sorted[candidates[hit.refIndex]!]);
        expect(filtered).toEqual(everything);
      }),
      { numRuns: 400 },
    );
  });
});

describe("a shared link's words alone (rankWords: no core.json)", () => {
  it('finds the same page of results in the same order as the whole search, for every page', async () => {
    const wordsOnly = withWords.chain(({ corpus, query }) =>
      fc.record({ corpus: fc.constant(corpus), query: fc.constant({ ...EMPTY_QUERY, q: query.q, words: query.words, in: query.in }), page: fc.integer({ min: 1, max: 4 }), size: fc.integer({ min: 1, max: 7 }) }),
    );
    await fc.assert(
      fc.asyncProperty(wordsOnly, async ({ corpus, query, page, size }) => {
        // A `q` without words (`?!`) lists the topics in the listing order, which only core.json has.
        expect(onlyWords(query)).toBe(queryWords(query.q).length > 0);
        if (!onlyWords(query)) return;
        const { files, core } = siteIndex(corpus.topics);
        const words = await new WordMatcher(readerOf(files).read, core).match(query.q, query.in === 'titles');
        const index = decodeIndex(core);
        const whole = runSearch(index, { ...query, page }, corpus.now, size, words);
        // rankWords names topics by number, runSearch by their place in core.json.
        const quick = rankWords(core.count, words, query.words, page, size);
        const numbered = (locals: Uint32Array) => Array.from(locals, (local) => index.global[local]!);
        expect({ ...quick, page: [...quick.page], next: [...quick.next] }).toEqual({ total: whole.total, page: numbered(whole.page), next: numbered(whole.next), pageNumber: whole.pageNumber, pages: whole.pages });
      }),
      { numRuns: 150 },
    );
  });

  it('is used only for words without any other filter or sort', () => {
    const q = { ...EMPTY_QUERY, q: 'json' };
    expect(onlyWords(q)).toBe(true);
    expect(onlyWords({ ...q, sort: 'relevancy', words: 'any', in: 'titles', page: 3 })).toBe(true);
    expect(onlyWords(EMPTY_QUERY)).toBe(false);
    expect(onlyWords({ ...q, q: '?!' })).toBe(false);
    expect(onlyWords({ ...q, tags: ['api'] })).toBe(false);
    expect(onlyWords({ ...q, author: 'mira' })).toBe(false);
    expect(onlyWords({ ...q, type: 'guides' })).toBe(false);
    expect(onlyWords({ ...q, created: { kind: 'preset', preset: 'week' } })).toBe(false);
    expect(onlyWords({ ...q, updated: { kind: 'custom', from: '2026-01-01', to: '' } })).toBe(false);
    expect(onlyWords({ ...q, minReplies: 1 })).toBe(false);
    expect(onlyWords({ ...q, minViews: 1 })).toBe(false);
    expect(onlyWords({ ...q, maxReplies: 0 })).toBe(false);
    expect(onlyWords({ ...q, maxViews: 10 })).toBe(false);
    expect(onlyWords({ ...q, excludeTags: ['api'] })).toBe(false);
    expect(onlyWords({ ...q, sort: 'newest' })).toBe(false);
  });
});

describe("words on a tag page (the tag's own file)", () => {
  it("find every topic of the tag containing the words exactly", async () => {
    const withTag = withWords
      .filter(({ corpus }) => corpus.topics.some((topic) => topic.tags.length > 0))
      .chain((input) => fc.record({ input: fc.constant(input), tag: fc.constantFrom(...new Set(input.corpus.topics.flatMap((topic) => topic.tags))) }));
    await fc.assert(
      fc.asyncProperty(withTag, async ({ input: { corpus, query }, tag }) => {
        const files = buildSearchIndex(sortForListing(corpus.topics), CONTENT_TYPES);
        const file = JSON.parse(files.get(`tags/${tagSlug(tag)}.json`)!) as TagFile;
        const ordinals = JSON.parse(files.get(`tag-ordinals/${tagSlug(tag)}.json`)!) as TagOrdinalsFile;
        const index = withGlobalOrdinals(decodeIndex(file), ordinals);
        const onTagPage: SearchQuery = { ...query, tags: [tag], match: 'any' };
        const words = await new WordMatcher(readerOf(files).read, JSON.parse(files.get('words.json')!) as WordsFile).match(query.q, query.in === 'titles');
        const result = runSearch(index, onTagPage, corpus.now, 1_000_000, words);
        expectRecall(Array.from(result.page, (local) => file.display[local]![0]), corpus.topics, onTagPage, corpus.now);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the tokenizer (what a word is)', () => {
  it('folds case and accents, keeps c++ and c#, splits CJK runs into pairs', () => {
    expect(terms('Über CAFÉ naïve')).toEqual(['uber', 'cafe', 'naive']);
    expect(terms('c++ and C# but not c')).toEqual(['c++', 'and', 'c#', 'but', 'not', 'c']);
    expect(terms('日本語のスクショ')).toEqual(['日本', '本語', '語の', 'のス', 'スク', 'クシ', 'ショ']);
    expect(foldWord('Ångström')).toBe('angstrom');
  });

  it('gives a text of ASCII alone the terms the Unicode rules give it', () => {
    // An em dash (no letter, no digit, unchanged by folding) adds no term but takes the text off the ASCII path.
    const ascii = fc.string({ unit: fc.constantFrom(...'aBz09 +#-_.\t\n\'Q+#'), maxLength: 80 });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(terms(text)).toEqual(terms(`${text} \u2014`));
      }),
      { numRuns: 2000 },
    );
  });
});
