/**
 * Random corpora and searches for the search tests (fast-check): Topic records with tags from a
 * small long-tailed set, authors differing only in case, a forum tree, dates clustered on the
 * edges the date filters care about, and titles and bodies from a small word list.
 */
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import type { ContentType } from '../../src/content/content-types.ts';
import { EMPTY_QUERY, SORTS, DATE_PRESETS, type DateFilter, type SearchQuery } from '../../src/search/query.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { excerptParts, plainText } from '../../src/content/markdown.ts';
import { presetStart } from '../oracles/search.ts';

const DAY_MS = 86_400_000;

/** Words of titles and bodies: prefixes of each other, accents, CJK, `c++`, near-typos (`work`/`workflow`/`workflows`). */
export const WORDS = [
  'workflow', 'workflows', 'work', 'flow', 'clipboard', 'json', 'api', 'shell', 'script', 'scripting',
  'hotkey', 'calendar', 'über', 'café', 'naïve', 'c++', 'c#', '日本語', 'スクショ', 'window', 'windows',
  'http', 'request', 'requests', 'reply', 'data', 'database', 'x', 'ok',
];

/** A forum tree three deep, two categories and a feature category, flattened as content-types.ts does. */
export const CONTENT_TYPES: ContentType[] = [
  { id: 'automation', name: 'Automation', group: 'forum', path: ['automation'] },
  { id: 'share-workflows', name: 'Share', group: 'forum', path: ['automation', 'share-workflows'] },
  { id: 'ideas', name: 'Ideas', group: 'forum', path: ['automation', 'ideas'] },
  { id: 'help', name: 'Help', group: 'forum', path: ['help'] },
  { id: 'scripting', name: 'Scripting', group: 'forum', path: ['help', 'scripting'] },
  { id: 'shell-scripts', name: 'Shell', group: 'forum', path: ['help', 'scripting', 'shell-scripts'] },
  { id: 'applescript', name: 'AppleScript', group: 'forum', path: ['help', 'scripting', 'applescript'] },
  { id: 'community', name: 'Community', group: 'forum', path: ['community'] },
  { id: 'guides', name: 'Guides', group: 'category', kind: 'articles', path: ['guides'] },
  { id: 'wiki', name: 'Wiki', group: 'category', kind: 'pages', path: ['wiki'] },
  { id: 'showcase', name: 'Showcase', group: 'featureCategory', path: ['showcase'] },
];

/** Tags, long-tailed: a few common ones, many rare ones (including ones that differ only by punctuation). */
export const tagArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('api', 'json') },
  { weight: 3, arbitrary: fc.constantFrom('http', 'shell', 'c') },
  { weight: 2, arbitrary: fc.constantFrom('c++', 'c#', 'web search', 'über', 'beta', 'bug', 'jq', '日本') },
).map(normaliseTag);

export const AUTHORS = ['mira', 'Mira', 'gustav', 'Noor', 'noor', 'quietfox', 'élodie'];

/** Fixed visitor clocks: a 31st (month arithmetic), a leap day, a year end, an ordinary day. All whole seconds. */
export const NOWS = ['2026-03-31T10:20:30Z', '2024-02-29T00:00:00Z', '2025-12-31T23:59:59Z', '2026-11-22T12:00:00Z'].map((text) => new Date(text));

/** An instant near `now`: midnight of a day, any second, on or near a preset's edge, or a little in the future. */
export function instantArb(now: Date): fc.Arbitrary<number> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return fc.oneof(
    fc.integer({ min: 0, max: 800 }).map((days) => today - days * DAY_MS),
    fc.integer({ min: 0, max: 800 * 86_400 }).map((seconds) => now.getTime() - seconds * 1000),
    // On a preset's edge, or a day or three inside it (where month arithmetic that overflows, 31 March − 1 month = 3 March, goes wrong).
    fc.tuple(fc.constantFrom(...DATE_PRESETS), fc.constantFrom(-DAY_MS, -1000, 0, 1000, DAY_MS, 2 * DAY_MS, 3 * DAY_MS)).map(([preset, shift]) => presetStart(preset, now) + shift),
    fc.integer({ min: 1, max: 3 * 86_400 }).map((seconds) => now.getTime() + seconds * 1000),
  );
}

const wordsArb = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max });

/** A first post as sanitised HTML: paragraphs, a link, emphasis, so block and inline markup both occur. */
const htmlArb = fc.array(
  fc.tuple(wordsArb(0, 8), fc.constantFrom('p', 'li', 'link', 'strong')).map(([words, kind]) => {
    const text = words.join(' ');
    if (kind === 'link') return `<p><a href="https://example.com/">${text}</a></p>`;
    if (kind === 'strong') return `<p>${words.map((word, i) => (i % 2 ? `<strong>${word}</strong>` : word)).join(' ')}</p>`;
    return kind === 'li' ? `<ul><li>${text}</li></ul>` : `<p>${text}</p>`;
  }),
  { minLength: 0, maxLength: 3 },
).map((parts) => parts.join(''));

const countArb = fc.oneof(fc.constant(0), fc.nat(6), fc.nat(3000));

function topicArb(now: Date, pool: number[]): fc.Arbitrary<Topic> {
  const instant = fc.oneof(fc.constantFrom(...pool), instantArb(now));
  return fc
    .record({
      slug: fc.tuple(fc.nat(2000), fc.constantFrom('', '-a', '-0')).map(([n, tail]) => `${n.toString(36)}${tail}`),
      title: wordsArb(1, 5).map((words) => words.join(' ')),
      author: fc.constantFrom(...AUTHORS),
      created: instant,
      updated: fc.option(instant, { nil: undefined }),
      type: fc.constantFrom(...CONTENT_TYPES),
      tags: fc.uniqueArray(tagArb, { maxLength: 5 }),
      replies: countArb,
      views: countArb,
      html: htmlArb,
    })
    .map((r) => {
      const updatedMs = Math.max(r.created, r.updated ?? r.created);
      return {
        slug: r.slug,
        file: `content/topics/${r.slug}.md`,
        title: r.title,
        author: r.author,
        createdMs: r.created,
        updatedMs,
        contentType: r.type.id,
        contentGroup: r.type.group === 'forum' ? 'forum' : 'category',
        tags: r.tags,
        replies: r.replies,
        views: r.views,
        ...excerptParts(plainText(r.html), 40),
        html: r.html,
        text: plainText(r.html),
      } satisfies Topic;
    });
}

/** A visitor clock and a corpus of topics with distinct slugs; a few shared instants make ties common. */
export const corpusArb = fc.constantFrom(...NOWS).chain((now) =>
  fc.array(instantArb(now), { minLength: 1, maxLength: 4 }).chain((pool) =>
    fc.record({
      now: fc.constant(now),
      topics: fc.uniqueArray(topicArb(now, pool), { selector: (topic) => topic.slug, maxLength: 40, size: 'medium' }),
    }),
  ),
);

function dayArb(now: Date): fc.Arbitrary<string> {
  return instantArb(now).map((ms) => new Date(ms).toISOString().slice(0, 10));
}

function dateFilterArb(now: Date): fc.Arbitrary<DateFilter> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<DateFilter>({ kind: 'any' }) },
    { weight: 2, arbitrary: fc.constantFrom(...DATE_PRESETS).map((preset): DateFilter => ({ kind: 'preset', preset })) },
    {
      weight: 2,
      arbitrary: fc.record({ from: fc.option(dayArb(now), { nil: undefined }), to: fc.option(dayArb(now), { nil: undefined }) }).map(
        ({ from, to }): DateFilter => ({ kind: 'custom', ...(from ? { from } : {}), ...(to ? { to } : {}) }),
      ),
    },
  );
}

/** A search without words, as parseSearchParams returns it (normalised), including values that match nothing. */
export function structuredQueryArb(now: Date): fc.Arbitrary<SearchQuery> {
  return fc.record({
    tags: fc.uniqueArray(fc.oneof(tagArb, fc.constant('no-such-tag')), { maxLength: 3 }),
    match: fc.constantFrom('any' as const, 'all' as const),
    excludeTags: fc.oneof({ weight: 3, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.uniqueArray(fc.oneof(tagArb, fc.constant('no-such-tag')), { minLength: 1, maxLength: 2 }) }),
    author: fc.oneof(
      { weight: 2, arbitrary: fc.constant('') },
      { weight: 2, arbitrary: fc.constantFrom(...AUTHORS).chain((name) => fc.constantFrom(name, name.toUpperCase(), name.toLowerCase())) },
      { weight: 1, arbitrary: fc.constant('nobody') },
    ),
    type: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES.map((type) => type.id), 'no-such-type') }),
    created: dateFilterArb(now),
    updated: dateFilterArb(now),
    minReplies: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(8) }, { weight: 1, arbitrary: fc.nat(3000) }),
    minViews: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(8) }, { weight: 1, arbitrary: fc.nat(3000) }),
    maxReplies: fc.option(fc.oneof(fc.nat(8), fc.nat(3000)), { nil: undefined, freq: 3 }),
    maxViews: fc.option(fc.oneof(fc.nat(8), fc.nat(3000)), { nil: undefined, freq: 3 }),
    sort: fc.option(fc.constantFrom(...SORTS), { nil: undefined }),
    page: fc.integer({ min: 1, max: 6 }),
  }).map((fields) => {
    const query: SearchQuery = { ...EMPTY_QUERY, ...fields };
    for (const key of ['sort', 'maxReplies', 'maxViews'] as const) if (fields[key] === undefined) delete query[key];
    return query;
  });
}

/** Words to search for: one to three from the word list, sometimes in capitals; now and then only punctuation (no words at all). */
export const wordsQueryArb = fc.oneof(
  { weight: 9, arbitrary: fc.array(fc.constantFrom(...WORDS).chain((word) => fc.constantFrom(word, word.toUpperCase())), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')) },
  { weight: 1, arbitrary: fc.constantFrom('?!', '- —', '"') },
);
