/** Normalises a tag as SPEC 2.1 says: trimmed, inner whitespace collapsed to one space, lower-cased (NFC). */
export function normaliseTag(raw: string): string {
  // NFC last: lower-casing can undo it (`Ϊ́` lower-cases to a sequence that composes to `ΐ`).
  return raw.trim().replace(/\s+/gu, ' ').toLowerCase().normalize('NFC');
}

/** Longest tag, in characters after normalising (SPEC 2.1). */
export const MAX_TAG_LENGTH = 50;

/** What is wrong with a normalised tag (empty, too long, a comma), or undefined: the one rule for topics' tags and tags.json. */
export function tagProblem(tag: string): string | undefined {
  const length = [...tag].length;
  if (length < 1) return 'a tag must not be empty';
  if (length > MAX_TAG_LENGTH) return `tag is ${length} characters; at most ${MAX_TAG_LENGTH} allowed`;
  // The search's `tags` parameter and Tags field separate tags with commas (SPEC 4.2).
  if (tag.includes(',')) return `tag '${tag}' contains a comma, which separates tags in a search; use another character`;
  return undefined;
}

/**
 * A topic's tags with each synonym replaced by its canonical tag (tags.json), in the topic's own
 * order; a tag met a second time this way (`js` beside `javascript`) is kept once, where it came first.
 */
export function canonicalTags(tags: readonly string[], canonicalOf: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const canonical = canonicalOf.get(tag) ?? tag;
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

// Characters a tag keeps as-is in its URL segment. Everything else is escaped with `~`, which keeps
// `c`, `c++` and `c#` apart (`c`, `c~2b~2b`, `c~23`) and can be read back exactly.
const KEPT = /[\p{L}\p{N}-]/u;

function escapeChar(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `~${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `~u${code.toString(16).padStart(4, '0')}`;
  return `~U${code.toString(16).padStart(6, '0')}`;
}

/** A slug longer than this many UTF-8 bytes becomes a readable prefix and a hash, so every file name stays far below the 255-byte limit of file systems. */
export const MAX_SLUG_BYTES = 120;
const PREFIX_BYTES = 100;
const HASHED = /~h[0-9a-z]{13}$/;

function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** 64-bit FNV-1a of a text's UTF-16 code units, in 13 base-36 digits: short, stable, and browser-safe (no crypto). */
function hash64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = ((h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(36).padStart(13, '0');
}

/** Slugs already made: a site has few tags, and each is slugged on every page that links it. */
const slugs = new Map<string, string>();
const SLUGS_KEPT = 50_000;

/**
 * The URL segment of a tag (its slug): letters, digits and `-` stay, a space becomes `_`, and any
 * other character becomes `~` and its code point in hex (`~2b`, `~u2013`, `~U01f600`).
 * A slug over MAX_SLUG_BYTES keeps its first pieces up to 100 bytes and ends in `~h` and a hash
 * of the tag (`~h` is no escape, so such a slug is never another tag's). Distinct tags get
 * distinct slugs, and tagFromSlug reads a slug back.
 */
export function tagSlug(tag: string): string {
  let slug = slugs.get(tag);
  if (slug === undefined) {
    slug = slugOf(tag);
    if (slugs.size >= SLUGS_KEPT) slugs.clear();
    slugs.set(tag, slug);
  }
  return slug;
}

function slugOf(tag: string): string {
  const pieces: string[] = [];
  for (const char of tag) {
    if (char === ' ') pieces.push('_');
    else if (KEPT.test(char)) pieces.push(char);
    else pieces.push(escapeChar(char));
  }
  const slug = pieces.join('');
  if (utf8Length(slug) <= MAX_SLUG_BYTES) return slug;
  let prefix = '';
  let bytes = 0;
  for (const piece of pieces) {
    bytes += utf8Length(piece);
    if (bytes > PREFIX_BYTES) break;
    prefix += piece;
  }
  return `${prefix}~h${hash64(tag)}`;
}

const ESCAPE = /^~(?:u([0-9a-f]{4})|U([0-9a-f]{6})|([0-9a-f]{2}))/;

/**
 * Reads a tag back from its slug; the inverse of tagSlug. A long tag's slug (prefix and hash) is
 * read back only from `known`, the tags that may have made it. Returns undefined for a string
 * tagSlug never makes.
 */
export function tagFromSlug(slug: string, known: Iterable<string> = []): string | undefined {
  if (slug === '') return undefined; // no tag is empty
  if (HASHED.test(slug)) {
    for (const tag of known) if (tagSlug(tag) === slug) return tag;
    return undefined;
  }
  let tag = '';
  for (let i = 0; i < slug.length; ) {
    if (slug[i] === '~') {
      const match = ESCAPE.exec(slug.slice(i));
      if (!match) return undefined;
      const code = parseInt(match[1] ?? match[2] ?? match[3]!, 16);
      if (code > 0x10ffff) return undefined;
      tag += String.fromCodePoint(code);
      i += match[0].length;
    } else {
      const char = String.fromCodePoint(slug.codePointAt(i)!);
      tag += char === '_' ? ' ' : char;
      i += char.length;
    }
  }
  return tagSlug(tag) === slug ? tag : undefined;
}
