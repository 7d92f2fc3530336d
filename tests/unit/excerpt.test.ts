import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cutExcerpt, plainText, renderTopicHtml, topicExcerpt } from '../../src/content/markdown.ts';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readContentTypes } from '../../src/content/content-types.ts';
import { readTopic } from '../../src/content/topics.ts';
import { excerptOf } from '../../src/model/listing.ts';

/** The plain text of a Markdown post, the way a topic's excerpt is made (rendered and sanitised first). */
const textOf = (markdown: string) => plainText(renderTopicHtml(markdown));

describe('plainText', () => {
  it('removes Markdown markup and keeps the words', () => {
    expect(textOf('# Title\n\nSome **bold**, *em* and `code`.')).toBe('Title: Some bold, em and code.');
  });

  it('keeps the text of links, not their addresses', () => {
    const text = textOf('See [the guide](https://example.com/guide) and <https://example.com/raw>.');
    expect(text).toBe('See the guide and https://example.com/raw.');
    expect(textOf('[docs](https://example.com/docs)')).not.toContain('(');
  });

  it('joins paragraphs with one space, and ends headings, list items, table cells and lines so words never run together', () => {
    expect(textOf('First.\n\nSecond.\n\n\n\nThird.')).toBe('First. Second. Third.');
    expect(textOf('Intro:\n\n- one\n- two\n\n1. three')).toBe('Intro: one; two; three');
    expect(textOf('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a, b, 1, 2');
    expect(textOf('line one  \nline two')).toBe('line one, line two');
    expect(textOf('## What you get\n\nTemperature and a condition emoji.')).toBe('What you get: Temperature and a condition emoji.');
    // Text that ends in punctuation of its own gets no second mark.
    expect(textOf('## Done?\n\n- first.\n- second!\n')).toBe('Done? first. second!');
    expect(plainText('one<p>two</p>three<ul><li>a<ul><li>b</li></ul></li></ul>')).toBe('one two three: a: b');
    expect(plainText('<td>1</td><td>2</td>')).toBe('1, 2');
  });

  it('collapses whitespace of every kind, including no-break spaces and tabs', () => {
    expect(textOf('a \t  b&nbsp;&nbsp;c\u00a0 d')).toBe('a b c d');
    expect(plainText('<p>  a\n\n\tb  </p>')).toBe('a b');
  });

  it('decodes entities', () => {
    expect(textOf('Tom &amp; Jerry &lt;3 &quot;x&quot; &#169;')).toBe('Tom & Jerry <3 "x" ©');
    expect(plainText('<p>R&amp;D</p>')).toBe('R&D');
  });

  it('keeps no markup from HTML written in the post', () => {
    const html = [
      '<b>bold</b> <span class="x">span</span> <div>div</div>',
      '<img src="https://example.com/a.png" alt="pic"> <em>em</em>',
      '<script>alert(1)</script><style>p{}</style><iframe src="https://example.com"></iframe>',
      '<!-- a comment --> <a href="https://example.com" onclick="x()">link</a>',
    ].join('\n\n');
    const text = textOf(html);
    expect(text).toBe('bold span div em link');
    expect(text).not.toMatch(/<[a-z!/]/i);
    expect(text).not.toContain('alert');
  });

  it('never contains a tag that the post wrote as HTML', () => {
    const tags = ['<b>', '</b>', '<i>', '<div>', '<span>', '<p>', '<br>', '<a href="https://x.example">', '</a>', '<h1>', '<em>'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...tags), fc.constantFrom('word', ' ', '\n', '\n\n', '**', '_', '- ')), { maxLength: 30 }), (parts) => {
        // Runs of spaces become one: four at a line's start make an indented code block, whose
        // `<b>` is text the post shows, not HTML it wrote (pinned in the next test).
        const text = textOf(parts.join('').replace(/ +/g, ' '));
        for (const tag of tags) expect(text).not.toContain(tag);
        expect(text).toBe(text.trim());
        expect(text).not.toMatch(/\s\s|[^\S ]/u);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps HTML written in a code block as the text it shows', () => {
    expect(textOf('    <b>bold</b>')).toBe('<b>bold</b>');
    expect(textOf('Use `<em>` here.')).toBe('Use <em> here.');
    expect(textOf('word\n\n    <b>')).toBe('word <b>');
  });
});

describe('cutExcerpt', () => {
  it('leaves text of at most the length as it is', () => {
    expect(cutExcerpt('short text', 200)).toBe('short text');
    expect(cutExcerpt('exactly ten', 11)).toBe('exactly ten');
    expect(cutExcerpt('', 20)).toBe('');
  });

  it('cuts longer text at a word boundary and appends …', () => {
    expect(cutExcerpt('alpha beta gamma delta', 13)).toBe('alpha beta…');
    expect(cutExcerpt('alpha beta gamma delta', 10)).toBe('alpha beta…');
    expect(cutExcerpt('alpha beta gamma delta', 16)).toBe('alpha beta gamma…');
  });

  it('hard-cuts a single word longer than the length', () => {
    expect(cutExcerpt('Donaudampfschifffahrtsgesellschaft', 10)).toBe('Donaudampf…');
    expect(cutExcerpt('Donaudampfschifffahrtsgesellschaft is long', 10)).toBe('Donaudampf…');
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    expect(cutExcerpt('😀😀😀 😀😀', 4)).toBe('😀😀😀…');
    expect(cutExcerpt('😀😀😀😀😀', 3)).toBe('😀😀😀…');
  });

  it('gives a prefix of the text of at most N characters, at a word boundary unless one word is too long', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdé😀日-.,'.split('')), minLength: 1, maxLength: 15 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 120 }), (words, length) => {
        const text = words.join(' ');
        const excerpt = cutExcerpt(text, length);
        if ([...text].length <= length) {
          expect(excerpt).toBe(text);
          return;
        }
        expect(excerpt.endsWith('…')).toBe(true);
        if (/[^.,]/.test(excerpt.slice(0, -1))) expect(excerpt).not.toMatch(/[.,]…$/);
        const head = excerpt.slice(0, -1);
        expect(text.startsWith(head)).toBe(true);
        expect([...head].length).toBeLessThanOrEqual(length);
        expect(head.length).toBeGreaterThan(0);
        const firstChars = [...text].slice(0, length).join('');
        // At a word boundary (the ellipsis taking the place of the punctuation the cut ended on) …
        if (firstChars.includes(' ')) expect(text.slice(head.length)).toMatch(/^[.,]* /);
        // … unless the first word alone is longer than the length.
        else expect(head).toBe(firstChars.replace(/[.,]+$/, '') || firstChars);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('topicExcerpt', () => {
  it('is the cut plain text of the post', () => {
    const html = renderTopicHtml('Hello **there**, [friend](https://example.com).\n\nSecond paragraph here.');
    expect(topicExcerpt(html, 200)).toBe('Hello there, friend. Second paragraph here.');
    expect(topicExcerpt(html, 25)).toBe('Hello there, friend…');
  });
});

describe('the excerptLength option', () => {
  const typesJson = parseJsonFile(JSON.stringify({ forums: [{ id: 'help', name: 'Help' }] }), 'content/content-types.json') as JsonFile;
  const contentTypes = readContentTypes(typesJson, 'content/content-types.json').index;
  const body = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  const file = `---\ntitle: Long\nauthor: ana\ncreated: 2024-01-01\nforum: help\n---\n${body}\n`;

  it('decides where readTopic cuts the excerpt', () => {
    for (const excerptLength of [20, 50, 200]) {
      const { topic, problems } = readTopic('content/topics/long.md', file, { contentTypes, excerptLength });
      expect(problems).toEqual([]);
      expect(excerptOf(topic!)).toBe(cutExcerpt(body, excerptLength));
      // The record keeps the text without its `…` (a one-byte string for Latin-1 text), and that it was cut.
      expect(topic!.excerptCut).toBe(true);
      expect(topic!.excerptText).not.toContain('…');
      expect(`${topic!.excerptText}…`).toBe(cutExcerpt(body, excerptLength));
      expect([...topic!.excerptText].length).toBeLessThanOrEqual(excerptLength);
    }
  });

  it('keeps a post shorter than the length whole, without …', () => {
    const { topic } = readTopic('content/topics/short.md', file.replace(body, 'Just this.'), { contentTypes, excerptLength: 200 });
    expect(topic!.excerptText).toBe('Just this.');
    expect(topic!.excerptCut).toBe(false);
    expect(excerptOf(topic!)).toBe('Just this.');
  });
});
