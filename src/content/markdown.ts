import { createRequire } from 'node:module';
import type * as MarkedModule from 'marked';
import type sanitizeHtml from 'sanitize-html';
import type * as Htmlparser2 from 'htmlparser2';
import { excerptOf, type TopicExcerpt } from '../model/listing.ts';

// Topics are untrusted data: Markdown is rendered with marked and the HTML is then cleaned with
// sanitize-html against an allow-list. Astro's own Markdown pipeline (Sätteri) runs no rehype
// plugins, so topics do not go through it; site pages (MDX) are trusted code and do.
//
// The three are loaded when a post is first rendered: a rebuild after a title or date edit renders
// none, and does without them (some 70 ms of loading).
const require = createRequire(import.meta.url);
let libraries: { marked: MarkedModule.Marked; sanitize: typeof sanitizeHtml; Parser: typeof Htmlparser2.Parser } | undefined;
function markdownLibraries(): NonNullable<typeof libraries> {
  if (!libraries) {
    const { Marked: MarkedParser } = require('marked') as typeof MarkedModule;
    libraries = {
      marked: new MarkedParser({ gfm: true, async: false }),
      sanitize: require('sanitize-html') as typeof sanitizeHtml,
      Parser: (require('htmlparser2') as typeof Htmlparser2).Parser,
    };
  }
  return libraries;
}

/**
 * Whether a link or image address is safe with these schemes: read as browsers read it (WHATWG URL
 * parsing strips C0 controls, spaces, tabs and line breaks) and as laxer readers may (feed readers,
 * mail clients: any Unicode space, control or invisible format character dropped), it is relative
 * or has one of the schemes. So `&#x2000;javascript:` or `java\tscript:` never survives.
 */
export function safeUrl(value: string, schemes: readonly string[]): boolean {
  const squeezed = value.replace(/[\p{White_Space}\p{Cc}\p{Cf}]/gu, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  if (scheme !== undefined && !schemes.includes(scheme)) return false;
  if (/^\/\//.test(squeezed) || /^\\/.test(squeezed)) return false; // protocol-relative: another host
  try {
    const parsed = new URL(value, 'https://relative.invalid/');
    return parsed.origin === 'https://relative.invalid' || schemes.includes(parsed.protocol.slice(0, -1));
  } catch {
    return false;
  }
}

/** A tag's attribute `name` without an address that safeUrl refuses. */
function withSafeUrl(attribs: sanitizeHtml.Attributes, name: string, schemes: readonly string[]): sanitizeHtml.Attributes {
  if (attribs[name] === undefined || safeUrl(attribs[name]!, schemes)) return attribs;
  const { [name]: _dropped, ...rest } = attribs;
  return rest;
}

const LINK_SCHEMES = ['http', 'https', 'mailto'];
const IMAGE_SCHEMES = ['http', 'https'];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'kbd', 'samp',
    'em', 'strong', 'del', 's', 'sub', 'sup', 'mark', 'small', 'a', 'img', 'ul', 'ol', 'li',
    'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary', 'input',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
  },
  allowedClasses: { code: [/^language-[\w+#-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // A heading of level 1 would compete with the topic's title.
  transformTags: {
    h1: 'h2',
    // A code block scrolls sideways on a phone: it takes keyboard focus so it can be scrolled without a pointer.
    pre: (tagName) => ({ tagName, attribs: { tabindex: '0' } }),
    a: (tagName, attribs) => ({ tagName, attribs: { ...withSafeUrl(attribs, 'href', LINK_SCHEMES), rel: 'nofollow ugc noopener' } }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...withSafeUrl(attribs, 'src', IMAGE_SCHEMES), loading: 'lazy' } }),
    input: (tagName, attribs) => ({ tagName, attribs: attribs.type === 'checkbox' ? { ...attribs, disabled: '' } : attribs }),
  },
  // Task-list checkboxes stay; other inputs go. (Renaming them to a disallowed tag instead makes
  // sanitize-html 2.18 write the next end tag at that depth as `</span>`: an unclosed <a> or
  // <table> then swallowed the rest of the page.)
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object', 'embed'],
} as sanitizeHtml.IOptions;
// Attributes added by transforms must be allowed too.
(SANITIZE.allowedAttributes as Record<string, string[]>).a!.push('rel');
(SANITIZE.allowedAttributes as Record<string, string[]>).img!.push('loading');
(SANITIZE.allowedAttributes as Record<string, string[]>).pre = ['tabindex'];

/** Renders a topic's first post (Markdown) to HTML that is safe to put into a page: no scripts, no event handlers, no `javascript:` URLs. */
export function renderTopicHtml(markdown: string): string {
  const { marked, sanitize } = markdownLibraries();
  return sanitize(marked.parse(markdown) as string, SANITIZE);
}

const BLOCK = new Set([
  'p', 'div', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'dl', 'dt', 'dd',
  'blockquote', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary',
]);

// What ends a block whose text has no punctuation of its own, so that words of two blocks never
// run together: a heading introduces what follows, items and rows are a list, cells and lines a series.
const SEPARATOR: Record<string, string> = {
  h1: ':', h2: ':', h3: ':', h4: ':', h5: ':', h6: ':', summary: ':', dt: ':',
  li: ';', dd: ';', tr: ';', td: ',', th: ',', br: ',',
};
const ENDS_WITH_PUNCTUATION = /[\p{P}]$/u;
const LIST = new Set(['ul', 'ol', 'dl', 'table']);

/**
 * The plain text of (sanitised) HTML: markup removed, link text kept, whitespace collapsed;
 * paragraphs joined by one space, and headings, list items, table cells and line breaks ended by a
 * separator unless their text ends in punctuation.
 */
export function plainText(html: string): string {
  const parts: string[] = [];
  let last = '';
  const { Parser } = markdownLibraries();
  const parser = new Parser(
    {
      onopentag(name) {
        // A line break ends its line; a list or table introduced by text without punctuation follows a colon.
        const separator = name === 'br' ? SEPARATOR.br : LIST.has(name) ? ':' : undefined;
        if (separator && last && !ENDS_WITH_PUNCTUATION.test(last)) parts.push((last = separator));
        if (BLOCK.has(name)) parts.push(' ');
      },
      ontext(text) {
        parts.push(text);
        const trimmed = text.trimEnd();
        if (trimmed) last = trimmed;
      },
      onclosetag(name) {
        const separator = name === 'br' ? undefined : SEPARATOR[name];
        if (separator && last && !ENDS_WITH_PUNCTUATION.test(last)) parts.push((last = separator));
        if (BLOCK.has(name)) parts.push(' ');
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return parts.join('').replace(/\s+/gu, ' ').trim().replace(/\s*[:;,]$/u, '');
}

/**
 * The excerpt rule of SPEC 2.1: when the text is longer than `length` characters it is cut at a
 * word boundary to at most `length` characters, and excerptOf shows it with `…` appended.
 */
export function excerptParts(text: string, length: number): TopicExcerpt {
  // UTF-16 length >= code points: a short text needs no counting.
  if (text.length <= length) return { excerptText: text, excerptCut: false };
  // Take the first length + 1 code points only: the posts can be long.
  const chars: string[] = [];
  for (const char of text) {
    chars.push(char);
    if (chars.length > length) break;
  }
  if (chars.length <= length) return { excerptText: text, excerptCut: false };
  const head = chars.slice(0, length);
  // The cut falls on a boundary when the next character is a space; otherwise drop the broken word.
  if (chars[length] !== ' ') {
    const lastSpace = head.lastIndexOf(' ');
    if (lastSpace > 0) head.length = lastSpace;
  }
  // `risk.…` reads as a typo: the ellipsis takes the place of the punctuation it follows.
  const kept = head.join('').trimEnd();
  return { excerptText: kept.replace(/[.,:;]+$/u, '') || kept, excerptCut: true };
}

/** The excerpt rule of SPEC 2.1, as shown. */
export const cutExcerpt = (text: string, length: number): string => excerptOf(excerptParts(text, length));

/** A topic's excerpt from its sanitised HTML. */
export function topicExcerpt(html: string, length: number): string {
  return cutExcerpt(plainText(html), length);
}
