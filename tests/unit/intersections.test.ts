// Tag intersections: pairs counted from topics' tags in one pass, related tags, the page budget
// (intersections.minTopics, intersections.maxPages) and the build's line; the _redirects rules.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { intersectionReport, intersectionTopics, pairCounts, planIntersections, relatedTags, type PairCount } from '../../src/model/intersections.ts';
import { intersectionPath, searchBothTagsPath } from '../../src/model/urls.ts';
import { redirectRules, tagRedirects } from '../../src/outputs/redirects.ts';

const topics = [
  { slug: 'a', tags: ['json', 'api', 'web'] },
  { slug: 'b', tags: ['api', 'json'] },
  { slug: 'c', tags: ['json', 'cli'] },
  { slug: 'd', tags: ['web', 'api'] },
  { slug: 'e', tags: ['c++'] },
  { slug: 'f', tags: [] },
];

/** Every pair as `a+b=count`, in a fixed order. */
const written = (pairs: readonly PairCount[]) => pairs.map(({ pair: [a, b], count }) => `${a}+${b}=${count}`).sort();

describe('pairs of tags', () => {
  it('counts each pair once per topic carrying both, the pair in sorted order', () => {
    expect(written(pairCounts(topics))).toEqual(['api+json=2', 'api+web=2', 'cli+json=1', 'json+web=1']);
  });

  it('agrees with counting every pair by brute force', () => {
    // A seeded corpus: 300 topics of 0–6 tags out of 25.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const corpus = Array.from({ length: 300 }, () => ({ tags: [...new Set(Array.from({ length: Math.floor(next() * 7) }, () => `t${Math.floor(next() ** 2 * 25)}`))] }));
    const tags = [...new Set(corpus.flatMap((topic) => topic.tags))].sort();
    const expected: string[] = [];
    for (const a of tags) {
      for (const b of tags) {
        const count = a < b ? corpus.filter((topic) => topic.tags.includes(a) && topic.tags.includes(b)).length : 0;
        if (count > 0) expected.push(`${a}+${b}=${count}`);
      }
    }
    expect(written(pairCounts(corpus))).toEqual(expected.sort());
  });

  it('gives each tag its related tags, most shared first, ties A→Z, at most the cap', () => {
    const related = relatedTags(pairCounts(topics), 2);
    expect(related.get('json')).toEqual([{ tag: 'api', count: 2 }, { tag: 'cli', count: 1 }]);
    expect(related.get('api')).toEqual([{ tag: 'json', count: 2 }, { tag: 'web', count: 2 }]);
    expect(related.has('c++')).toBe(false);
  });

  // Few tags and small counts: many ties, lists longer and shorter than the cap.
  const corpora = fc.array(fc.record({ slug: fc.string(), tags: fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'), { maxLength: 6 }) }), { maxLength: 60 });

  it('keeps, for each tag, exactly the first `limit` of all the tags it shares topics with, in order', () => {
    fc.assert(
      fc.property(corpora, fc.integer({ min: 0, max: 12 }), (corpus, limit) => {
        const pairs = pairCounts(corpus);
        const everyOther = new Map<string, Array<{ tag: string; count: number }>>();
        for (const { pair: [a, b], count } of pairs) {
          everyOther.set(a, [...(everyOther.get(a) ?? []), { tag: b, count }]);
          everyOther.set(b, [...(everyOther.get(b) ?? []), { tag: a, count }]);
        }
        const expected = new Map([...everyOther].map(([tag, list]) => [tag, list.sort((x, y) => y.count - x.count || (x.tag < y.tag ? -1 : 1)).slice(0, limit)]));
        expect(relatedTags(pairs, limit)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('lists the topics of each built pair as a filter of all topics would', () => {
    fc.assert(
      fc.property(corpora, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 30 }), (corpus, minTopics, maxPages) => {
        const { built } = planIntersections(pairCounts(corpus), { minTopics, maxPages });
        const expected = built.map(({ pair: [a, b] }) => [`${a}\n${b}`, corpus.filter(({ tags }) => tags.includes(a) && tags.includes(b))]);
        expect([...intersectionTopics(corpus, built)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('lists each built pair’s topics in the order given', () => {
    const plan = planIntersections(pairCounts(topics), { minTopics: 2, maxPages: 10 });
    const lists = intersectionTopics(topics, plan.built);
    expect([...lists].map(([key, list]) => [key, list.map((topic) => topic.slug)])).toEqual([['api\njson', ['a', 'b']], ['api\nweb', ['a', 'd']]]);
  });
});

describe('the page budget', () => {
  const pairs = pairCounts([
    ...Array.from({ length: 6 }, () => ({ tags: ['api', 'json'] })),
    ...Array.from({ length: 5 }, () => ({ tags: ['web', 'css'] })),
    ...Array.from({ length: 5 }, () => ({ tags: ['cli', 'shell'] })),
    ...Array.from({ length: 4 }, () => ({ tags: ['go', 'rust'] })),
  ]);

  it('builds pairs of at least minTopics, most shared first, ties A→Z, maxPages at most', () => {
    const plan = planIntersections(pairs, { minTopics: 5, maxPages: 2 });
    expect(plan.built.map(({ pair }) => pair.join('+'))).toEqual(['api+json', 'cli+shell']);
    expect(plan.leftOut.map(({ pair }) => pair.join('+'))).toEqual(['css+web']);
    expect(planIntersections(pairs, { minTopics: 5, maxPages: 0 }).built).toEqual([]);
    expect(planIntersections(pairs, { minTopics: 4, maxPages: 100 }).leftOut).toEqual([]);
  });

  it('says how many pages were made and names the first pairs left out', () => {
    expect(intersectionReport(planIntersections(pairs, { minTopics: 5, maxPages: 10 }))).toBe('3 tag intersection pages');
    expect(intersectionReport(planIntersections(pairs, { minTopics: 1, maxPages: 1 }), 2)).toBe(
      "1 tag intersection page; intersections.maxPages left out 3 pairs: 'cli' + 'shell' (5), 'css' + 'web' (5), and 1 more",
    );
  });

  it('stays linear in topics × pairs per topic: 20,000 topics of 5 tags out of 2,000 in a moment', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ tags: Array.from({ length: 5 }, (_, k) => `tag${(i * 7 + k * 131) % 2000}`) }));
    const started = performance.now();
    const plan = planIntersections(pairCounts(many), { minTopics: 5, maxPages: 2000 });
    intersectionTopics(many, plan.built);
    expect(plan.built.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(3000); // about 0.3 s on a busy two-core machine
  });
});

describe('addresses', () => {
  it('name the pair in sorted order; a pair without a page leads to the search for both', () => {
    expect(intersectionPath('json', 'api')).toBe('/tags/intersection/api/json/');
    expect(intersectionPath('c++', 'c#', 2)).toBe('/tags/intersection/c~23/c~2b~2b/2/');
    expect(searchBothTagsPath('web', 'c++')).toBe('/search/?tags=c%2B%2B,web&match=all');
  });

  it('write a synonym’s page and feed as _redirects lines, under base, once per old path', () => {
    const redirects = tagRedirects(new Map([['js', 'javascript'], ['nope', 'unused']]), new Set(['javascript']));
    expect(redirects).toEqual([{ from: '/tags/js/', to: '/tags/javascript/' }, { from: '/tags/js/rss.xml', to: '/tags/javascript/rss.xml' }]);
    expect(redirectRules(redirects, '/sub', 'Synonyms.')).toBe('# Synonyms.\n/sub/tags/js/ /sub/tags/javascript/ 301\n/sub/tags/js/rss.xml /sub/tags/javascript/rss.xml 301\n');
    // A hand-written rule for the same old path (public/_redirects) wins.
    expect(redirectRules(redirects, '/', 'Synonyms.', '/tags/js/ /elsewhere/ 302\n')).toBe('# Synonyms.\n/tags/js/rss.xml /tags/javascript/rss.xml 301\n');
  });
});
