// The files <head> asks for when /search/ opens with plain words (src/client/first-paint.js, inlined
// as FIRST_PAINT_SCRIPT): the script repeats src/search/words.ts's rule (firstWordFiles) in plain
// JavaScript, with its numbers written out, so the page's search finds them asked for already. Run
// as pages run it (in a context with the page's few globals), it must name exactly those files.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runInNewContext } from 'node:vm';
import { FIRST_PAINT_SCRIPT } from '../../src/outputs/first-paint.ts';
import { firstWordFiles, vocabKey } from '../../src/search/words.ts';

const INDEX = '/search-index/';

/**
 * Runs the script on `/search/?<search>` over a site whose words.json is `words`; the paths it asked
 * for under /search-index/. With `inline`, the page holds words.json's text, as a build writes it.
 */
async function filesAskedFor(search: string, words: { postingBounds: string[]; vocabKeys: string[] }, inline = false): Promise<string[]> {
  const asked: string[] = [];
  const dataset = { wordsIndex: `${INDEX}words.json`, ...(inline ? { words: JSON.stringify(words) } : {}) };
  const context: Record<string, unknown> = {
    URLSearchParams,
    location: { search },
    document: { currentScript: { dataset }, documentElement: { setAttribute: () => undefined } },
    fetch: (url: string) => {
      asked.push(url);
      return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(url === `${INDEX}words.json` ? words : {}) });
    },
  };
  context.window = context;
  runInNewContext(FIRST_PAINT_SCRIPT, context);
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(asked.every((url) => url.startsWith(INDEX)), asked.join(' ')).toBe(true);
  const wordFiles = asked.filter((url) => url !== `${INDEX}words.json`);
  expect(Object.keys((context.tagsiteWordFiles ?? {}) as object).sort(), 'handed to the page by path').toEqual(wordFiles.map((url) => url.slice(INDEX.length)).sort());
  if (context.tagsiteWordsFile) expect(await context.tagsiteWordsFile, 'words.json handed to the page').toEqual(words);
  return asked.map((url) => url.slice(INDEX.length));
}

describe("<head>'s first files for a shared link with plain words", () => {
  it('are words.json, then exactly the files firstWordFiles names, each once, over shards cut anywhere', async () => {
    // Long runs of terms starting with one word (`abc…`), terms holding it further in (`babc…`), and
    // shards cut anywhere in the sorted terms: a run may span more shards than a word's prefixes read.
    const stem = fc.constantFrom('abc', 'abca', 'ab', 'babc', 'c', '1');
    const term = fc.tuple(stem, fc.array(fc.constantFrom(...'abc1'), { maxLength: 3 })).map(([start, rest]) => start + rest.join(''));
    const site = fc.uniqueArray(term, { minLength: 1, maxLength: 120, size: 'max' }).chain((vocabulary) => {
      const sorted = [...vocabulary].sort();
      return fc.record({ sorted: fc.constant(sorted), cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, sorted.length - 1) }), { maxLength: 80, size: 'max' }) });
    });
    const query = fc.array(fc.oneof(stem, term, fc.constantFrom('e', 'eab')), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));
    await fc.assert(
      fc.asyncProperty(site, query, fc.boolean(), async ({ sorted, cuts }, q, inline) => {
        const starts = [0, ...cuts.filter((cut) => cut < sorted.length).sort((a, b) => a - b)];
        const postingBounds = starts.map((start) => sorted[start]!);
        const vocabKeys = [...new Set(sorted.map(vocabKey))].sort();
        const asked = await filesAskedFor(`?${new URLSearchParams({ q })}`, { postingBounds, vocabKeys }, inline);
        // words.json is asked for first, unless the page holds it.
        const files = inline ? asked : asked.slice(1);
        if (!inline) expect(asked[0]).toBe('words.json');
        expect(files, 'words.json once at most').not.toContain('words.json');
        expect(new Set(asked).size, 'each once').toBe(asked.length);
        expect(new Set(files)).toEqual(new Set(firstWordFiles(q, new Set(vocabKeys), postingBounds)));
      }),
      { numRuns: 500 },
    );
  });

  it('are words.json alone for words that are not plain, and nothing without words', async () => {
    const words = { postingBounds: ['', 'cat'], vocabKeys: ['61', '63'] };
    expect(await filesAskedFor(`?${new URLSearchParams({ q: '"cat dog"' })}`, words)).toEqual(['words.json']);
    expect(await filesAskedFor(`?${new URLSearchParams({ q: 'Über' })}`, words)).toEqual(['words.json']);
    expect(await filesAskedFor('?tags=json', words)).toEqual([]);
    expect(await filesAskedFor(`?${new URLSearchParams({ q: '"cat dog"' })}`, words, true), 'held by the page').toEqual([]);
  });
});
