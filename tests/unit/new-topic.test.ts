/** What `npm run new-topic` writes: transliterated slugs, unique slugs, and file text the build reads back exactly. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readContentTypes } from '../../src/content/content-types.ts';
import { readTopic, SLUG_PATTERN } from '../../src/content/topics.ts';
import { argumentProblem, FALLBACK_SLUG, SLUG_MAX, slugFromTitle, topicFileText, topicFolder, uniqueSlug } from '../../src/cli/new-topic.ts';

const TYPES_FILE = 'content/content-types.json';
const { index: contentTypes } = readContentTypes(
  parseJsonFile(
    JSON.stringify({
      forums: [{ id: 'help', name: 'Help', children: [{ id: 'scripting', name: 'Scripting', children: [{ id: 'shell', name: 'Shell' }] }] }],
      categories: [{ id: 'guides', name: 'Guides', kind: 'articles' }],
      featureCategories: [{ id: 'showcase', name: 'Showcase' }],
    }),
    TYPES_FILE,
  ) as JsonFile,
  TYPES_FILE,
);

describe('slugFromTitle', () => {
  it.each([
    ['Parse nested JSON from an API response', 'parse-nested-json-from-an-api-response'],
    ['Übersetzer: Translate selection', 'uebersetzer-translate-selection'],
    ['Ça coûte cher à Łódź', 'ca-coute-cher-a-lodz'],
    ['Привет, мир', 'privet-mir'],
    ["Don't use C++ & C# together", 'dont-use-c-and-c-together'],
    ['  --Hello--  ', 'hello'],
    ['日本語の入力', FALLBACK_SLUG],
    ['!!!', FALLBACK_SLUG],
  ])('%s → %s', (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug);
  });

  it('cuts long titles at a word boundary to at most SLUG_MAX characters', () => {
    const slug = slugFromTitle('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slug).toMatch(/^word(-word)+$/);
    expect(slugFromTitle('a'.repeat(100))).toBe('a'.repeat(SLUG_MAX));
  });

  it('always gives a valid topic slug', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (title) => {
      const slug = slugFromTitle(title);
      expect(slug).toMatch(SLUG_PATTERN);
      expect(slug.endsWith('-')).toBe(false);
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
    }));
  });
});

describe('uniqueSlug', () => {
  it('keeps a free slug and numbers a taken one from 2', () => {
    expect(uniqueSlug('a', new Set(['b']))).toBe('a');
    expect(uniqueSlug('a', new Set(['a']))).toBe('a-2');
    expect(uniqueSlug('a', new Set(['a', 'a-2', 'a-3']))).toBe('a-4');
  });
});

describe('topicFolder', () => {
  it('files a forum topic under its top-level forum and a category topic under the category', () => {
    expect(topicFolder('shell', contentTypes)).toBe('help');
    expect(topicFolder('help', contentTypes)).toBe('help');
    expect(topicFolder('guides', contentTypes)).toBe('guides');
    expect(topicFolder('showcase', contentTypes)).toBe('showcase');
  });
});

describe('topicFileText', () => {
  const read = (text: string) => readTopic('content/topics/help/new.md', text, { contentTypes, excerptLength: 200 });

  it('writes front matter the build accepts, with the values as given', () => {
    const { topic, problems } = read(topicFileText({ title: 'A title', author: 'mira', created: '2026-03-04', forum: 'shell', tags: ['api', 'json'] }));
    expect(problems).toEqual([]);
    expect(topic).toMatchObject({ title: 'A title', author: 'mira', createdMs: Date.UTC(2026, 2, 4), contentType: 'shell', contentGroup: 'forum', tags: ['api', 'json'] });
    expect(read(topicFileText({ title: 't', author: 'a', created: '2026-03-04', category: 'guides', tags: [] })).topic).toMatchObject({ contentGroup: 'category', tags: [] });
  });

  it('reads back any title, author and tags exactly, however YAML-like they are', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).filter((s) => s.trim() === s && s.length > 0 && !/[\r\n]/.test(s));
    // No comma: commas separate tags (the tags parameter, the Tags field), so a tag holding one is refused.
    const tag = fc.stringMatching(/^[a-z0-9 +#:[\]{}'"&<>-]{1,20}$/).map((s) => s.trim().replace(/\s+/g, ' ')).filter((s) => s.length > 0);
    fc.assert(fc.property(text, text, fc.uniqueArray(tag, { maxLength: 4 }), (title, author, tags) => {
      const { topic, problems } = read(topicFileText({ title, author, created: '2026-01-31', forum: 'help', tags }));
      if (problems.length > 0) {
        // Only the build's own limits (lengths, characters the schema refuses) may reject it.
        for (const problem of problems) expect(problem.field).toMatch(/^(title|author)$/);
        return;
      }
      expect(topic!.title).toBe(title);
      expect(topic!.author).toBe(author);
      expect(topic!.tags).toEqual(tags);
    }));
    // The classic traps, by hand.
    for (const title of ['key: value', '# not a comment', "it's", '"quoted"', '- item', 'yes', 'null', '2024-01-01', '[a, b]', '{x}', '*alias', '&anchor', '!tag', '| block', '@at', '%pct']) {
      expect(read(topicFileText({ title, author: 'a', created: '2026-01-31', forum: 'help', tags: [title.toLowerCase().replaceAll(',', '')] })).topic?.title).toBe(title);
    }
  });
});

describe('argumentProblem', () => {
  it('names the argument a problem of the written file came from', () => {
    const file = 'content/topics/help/x.md';
    expect(argumentProblem({ file, line: 5, field: 'tags[1]', message: 'a tag must not be empty' }, 'new-topic'))
      .toEqual({ file: 'new-topic', field: '--tags', message: 'tag 2: a tag must not be empty' });
    expect(argumentProblem({ file, line: 2, field: 'title', message: 'too long' }, 'new-topic')).toEqual({ file: 'new-topic', field: 'title', message: 'too long' });
    expect(argumentProblem({ file, field: '(slug)', message: 'bad' }, 'new-topic')).toEqual({ file: 'new-topic', field: '--slug', message: 'bad' });
    expect(argumentProblem({ file, line: 4, field: 'forum', message: 'unknown' }, 'new-topic')).toEqual({ file: 'new-topic', field: '--forum', message: 'unknown' });
  });
});
