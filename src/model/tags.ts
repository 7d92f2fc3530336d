/** Normalises a tag as SPEC 2.1 says: trimmed, inner whitespace collapsed to one space, lower-cased (NFC). */
export function normaliseTag(raw: string): string {
  // NFC last: lower-casing can undo it (`Ϊ́` lower-cases to a sequence that composes to `ΐ`).
  return raw.trim().replace(/\s+/gu, ' ').toLowerCase().normalize('NFC');
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

/**
 * The URL segment of a tag (its slug): letters, digits and `-` stay, a space becomes `_`, and any
 * other character becomes `~` and its code point in hex (`~2b`, `~u2013`, `~U01f600`).
 * Distinct tags always get distinct slugs, and tagFromSlug reads a slug back.
 */
export function tagSlug(tag: string): string {
  let slug = '';
  for (const char of tag) {
    if (char === ' ') slug += '_';
    else if (KEPT.test(char)) slug += char;
    else slug += escapeChar(char);
  }
  return slug;
}

const ESCAPE = /^~(?:u([0-9a-f]{4})|U([0-9a-f]{6})|([0-9a-f]{2}))/;

/** Reads a tag back from its slug; the inverse of tagSlug. Returns undefined for a string tagSlug never makes. */
export function tagFromSlug(slug: string): string | undefined {
  if (slug === '') return undefined; // no tag is empty
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
