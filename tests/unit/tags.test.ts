import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_SLUG_BYTES, normaliseTag, tagFromSlug, tagSlug } from '../../src/model/tags.ts';
import { tagPath, topicPath, withBase } from '../../src/model/urls.ts';

// Any code points at all (astral ones, controls, combining marks), and text that looks like tags.
const anyText = fc.string({ unit: 'binary', maxLength: 60 });
const tagLike = fc.string({
  unit: fc.constantFrom(...'aAbBcC +#._-~/%?&:é日本 \t\u00a0\u0301'.split('')),
  minLength: 1,
  maxLength: 12,
});
const URL_SAFE = /^[\p{L}\p{N}\-_~]*$/u;

describe('normaliseTag', () => {
  it('trims, collapses inner whitespace to one space and lower-cases', () => {
    expect(normaliseTag('  Web   Search ')).toBe('web search');
    expect(normaliseTag('API')).toBe('api');
    expect(normaliseTag('a\tb\nc\r\nd')).toBe('a b c d');
  });

  it('treats a no-break space and other Unicode spaces as whitespace', () => {
    expect(normaliseTag('\u00a0web\u00a0\u2003search\u3000')).toBe('web search');
  });

  it('composes to NFC, so the same word typed two ways is one tag', () => {
    const decomposed = 'Cafe\u0301';
    expect(normaliseTag(decomposed)).toBe('caf\u00e9');
    expect(normaliseTag(decomposed)).toBe(normaliseTag('CAF\u00c9'));
  });

  it('is still NFC after lower-casing, which can decompose (Greek with dialytika and tonos)', () => {
    // U+03AA U+0301 has no composed capital; lower-cased it composes to U+0390.
    expect(normaliseTag('\u03aa\u0301')).toBe('\u0390');
    expect(normaliseTag('\u03aa\u0301')).toBe(normaliseTag('\u0390'));
  });

  it('keeps punctuation that tells tags apart', () => {
    expect(new Set(['c', 'C++', 'c#', 'C'].map(normaliseTag))).toEqual(new Set(['c', 'c++', 'c#']));
  });

  it('gives a normal form: idempotent, NFC, lower case, no outer or doubled whitespace', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, tagLike), (raw) => {
        const tag = normaliseTag(raw);
        expect(normaliseTag(tag)).toBe(tag);
        expect(tag.normalize('NFC')).toBe(tag);
        expect(tag.toLowerCase()).toBe(tag);
        expect(tag).toBe(tag.trim());
        expect(tag).not.toMatch(/\s\s|[^\S ]/u);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('tagSlug and tagFromSlug', () => {
  const named = ['c', 'c++', 'c#', 'web search', 'web-search', 'web_search', '日本語'];

  it('gives each of the named tags its own slug, and reads each back', () => {
    const slugs = named.map(tagSlug);
    expect(new Set(slugs).size).toBe(named.length);
    for (const [i, tag] of named.entries()) expect(tagFromSlug(slugs[i]!)).toBe(tag);
  });

  it('keeps letters, digits and hyphens, and writes a space as `_`', () => {
    expect(tagSlug('c')).toBe('c');
    expect(tagSlug('web-search')).toBe('web-search');
    expect(tagSlug('web search')).toBe('web_search');
    expect(tagSlug('日本語')).toBe('日本語');
    expect(tagSlug('c++')).not.toContain('+');
  });

  it('keeps every slug within MAX_SLUG_BYTES: a readable prefix and a hash beyond it', () => {
    const emoji = '😀'.repeat(50); // 50 characters of 4 bytes: 400 bytes of escapes
    const dashes = '–'.repeat(43);
    for (const tag of [emoji, dashes, 'ا'.repeat(50), 'e\u0301'.repeat(25), `${'😀'.repeat(31)}😁`]) {
      const slug = tagSlug(tag);
      expect(new TextEncoder().encode(slug).length, tag).toBeLessThanOrEqual(MAX_SLUG_BYTES);
      expect(tagFromSlug(slug, ['other', tag])).toBe(tag);
      if (/~h[0-9a-z]{13}$/.test(slug)) expect(tagFromSlug(slug)).toBeUndefined();
      else expect(tagFromSlug(slug)).toBe(tag);
    }
    expect(tagSlug(emoji)).toMatch(/^~U01f600~U01f600.*~h[0-9a-z]{13}$/);
    expect(tagSlug(`${'😀'.repeat(31)}😁`)).not.toBe(tagSlug(`${'😀'.repeat(32)}`));
    // Short slugs are as they were.
    expect(tagSlug('ا'.repeat(50))).toBe('ا'.repeat(50));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }), (tag) => {
        expect(new TextEncoder().encode(tagSlug(tag)).length).toBeLessThanOrEqual(MAX_SLUG_BYTES);
      }),
      { numRuns: 2000 },
    );
  });

  it('never makes `.` or `..` (a folder name a host would resolve)', () => {
    expect(tagSlug('.')).not.toBe('.');
    expect(tagSlug('..')).not.toBe('..');
    expect(tagSlug('.')).toMatch(URL_SAFE);
    expect(tagFromSlug(tagSlug('..'))).toBe('..');
  });

  it('round-trips every string (a long one from the tags that may have made it)', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, tagLike), (tag) => {
        expect(tagFromSlug(tagSlug(tag), [tag])).toBe(tag === '' ? undefined : tag);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives distinct tags distinct slugs', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, tagLike), fc.oneof(anyText, tagLike), (a, b) => {
        fc.pre(a !== b);
        expect(tagSlug(a)).not.toBe(tagSlug(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives normalised tags that differ only in punctuation or spacing distinct slugs', () => {
    fc.assert(
      fc.property(tagLike, tagLike, (a, b) => {
        const [x, y] = [normaliseTag(a), normaliseTag(b)];
        fc.pre(x !== y);
        expect(tagSlug(x)).not.toBe(tagSlug(y));
      }),
      { numRuns: 3000 },
    );
  });

  it('uses only URL-safe characters: letters, digits, `-`, `_` and `~`', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, tagLike), (tag) => {
        const slug = tagSlug(tag);
        expect(slug).toMatch(URL_SAFE);
        expect(slug).not.toBe('.');
        expect(slug).not.toBe('..');
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['', 'empty'],
    ['~', 'a lone escape mark'],
    ['~2', 'a short escape'],
    ['~zz', 'an escape that is not hex'],
    ['c~2B~2B', 'upper-case hex (tagSlug writes lower case)'],
    ['~u0063', 'an escaped letter (tagSlug keeps letters as they are)'],
    ['~63', 'an escaped ASCII letter'],
    ['~U110000', 'a code point beyond Unicode'],
    ['web search', 'a raw space (tagSlug writes `_`)'],
    ['c++', 'a raw `+`'],
    ['%41', 'a percent escape'],
    ['a/b', 'a slash'],
    ['.', 'a dot'],
    ['..', 'two dots'],
  ])('rejects the malformed slug %j (%s)', (slug) => {
    expect(tagFromSlug(slug)).toBeUndefined();
  });
});

describe('tag and topic URLs', () => {
  it('a tag page is /tags/<slug>/, its later pages /tags/<slug>/<n>/', () => {
    expect(tagPath('api')).toBe('/tags/api/');
    expect(tagPath('api', 1)).toBe('/tags/api/');
    expect(tagPath('api', 2)).toBe('/tags/api/2/');
    expect(tagPath('c++')).toBe(`/tags/${tagSlug('c++')}/`);
    expect(topicPath('my-topic')).toBe('/topics/my-topic/');
  });

  it('percent-encodes letters outside ASCII, and the path reads back to the tag', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, tagLike), (raw) => {
        const tag = normaliseTag(raw);
        fc.pre(tag !== '');
        const path = tagPath(tag, 3);
        expect(path).toMatch(/^\/tags\/[A-Za-z0-9\-_~%]+\/3\/$/);
        expect(tagFromSlug(decodeURIComponent(path.split('/')[2]!))).toBe(tag);
      }),
      { numRuns: 1000 },
    );
  });

  it('withBase puts Astro’s base in front, with exactly one slash between', () => {
    expect(withBase('/', '/tags/api/')).toBe('/tags/api/');
    expect(withBase('/sub/path', '/tags/api/')).toBe('/sub/path/tags/api/');
    expect(withBase('/sub/path/', 'tags/api/')).toBe('/sub/path/tags/api/');
    expect(withBase('', '/')).toBe('/');
  });
});
