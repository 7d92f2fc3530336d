// Runs of CJK characters have no spaces between words: they are indexed as overlapping pairs of
// characters (bigrams), which finds any two-or-more-character word inside them.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{L}\p{N}]+(?:\+\+|#)?/gu;

/** Folds a word for matching: lower case, accents removed (`Über` → `uber`). */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Text without a character past ASCII: folding it is lower-casing it, and its words are runs of letters and digits. */
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_TOKEN = /[a-z0-9]+(?:\+\+|#)?/g;

/** The searchable terms of a text, in order (with repeats): folded words, CJK runs as bigrams. */
export function terms(text: string): string[] {
  // The same terms, for most posts, without Unicode normalisation and property classes.
  if (ASCII.test(text)) return text.toLowerCase().match(ASCII_TOKEN) ?? [];
  const out: string[] = [];
  for (const match of foldWord(text).matchAll(TOKEN)) {
    const token = match[0];
    if (!CJK.test(token)) {
      out.push(token);
      continue;
    }
    // Split mixed runs (`ocrスクショ`) into their CJK and other parts.
    for (const part of token.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu) ?? []) {
      if (!CJK.test(part)) out.push(part);
      else if (part.length === 1) out.push(part);
      else for (let i = 0; i + 1 < part.length; i++) out.push(part.slice(i, i + 2));
    }
  }
  return out;
}

/** The words of a query: its distinct terms. */
export function queryWords(q: string): string[] {
  return [...new Set(terms(q))];
}

/**
 * The quoted phrases of a query (`"two words"`): each as its terms, in order; repeats and phrases
 * without words left out. A quote never closed starts no phrase.
 */
export function queryPhrases(q: string): string[][] {
  const phrases = new Map<string, string[]>();
  for (const match of q.matchAll(/"([^"]*)"/gu)) {
    const phrase = terms(match[1]!);
    if (phrase.length > 0) phrases.set(phrase.join(' '), phrase);
  }
  return [...phrases.values()];
}

/** Which vocabulary shard a term lives in: its first character (typo tolerance works within it). */
export function vocabKey(term: string): string {
  return term.codePointAt(0)!.toString(16);
}

/** Which postings shard a term (or a word, before its terms are known) lives in: the last whose first term is not after it. */
export function postingsShard(term: string, bounds: readonly string[]): number {
  let low = 0;
  let high = bounds.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (bounds[mid]! <= term) low = mid;
    else high = mid - 1;
  }
  return low;
}

export const vocabPath = (key: string) => `vocab/${key}.json`;
export const postingsPath = (n: number) => `postings/${n}.json`;
export const positionsPath = (n: number) => `positions/${n}.json`;

/** Characters a word needs before it matches the terms it is a prefix of (`con` finds `console`). */
export const PREFIX_MIN_CHARS = 3;
/**
 * Terms a query word can expand to, at most, by prefix and by typo each. Every term may sit in its
 * own postings file, so this bounds the files one word fetches; the word itself always counts.
 */
export const MAX_EXPANSIONS = 8;

/**
 * The postings shards `word` itself and the terms it is a prefix of can be in, as the bounds alone
 * tell: its own shard, and each next one whose first term starts with it, as many as the first
 * MAX_EXPANSIONS such terms can fill (every shard holds at least one). A word too short to match
 * prefixes has only its own. A next shard may turn out not to be needed (its own shard held enough
 * of them): one file too many, where waiting for the vocabulary first would cost a round of fetches.
 */
export function prefixShards(word: string, bounds: readonly string[]): number[] {
  const own = postingsShard(word, bounds);
  const shards = [own];
  if ([...word].length < PREFIX_MIN_CHARS) return shards;
  for (let next = own + 1; next < bounds.length && next <= own + MAX_EXPANSIONS && bounds[next]!.startsWith(word); next++) shards.push(next);
  return shards;
}

/**
 * The index files (paths under /search-index/) `q`'s words need first: each word's vocabulary
 * shard and the postings shards of the word and of the terms it is a prefix of (prefixShards), so
 * most words cost one round of fetches; and the positions of a quoted phrase's words. Words whose
 * vocabulary shard does not exist need none. The files of typos follow, once the vocabulary is read.
 */
export function firstWordFiles(q: string, vocabKeys: ReadonlySet<string>, bounds: readonly string[]): string[] {
  const files = new Set<string>();
  for (const word of queryWords(q)) {
    if (!vocabKeys.has(vocabKey(word))) continue;
    files.add(vocabPath(vocabKey(word)));
    for (const n of prefixShards(word, bounds)) files.add(postingsPath(n));
  }
  // A quote still open is no phrase yet.
  for (const term of queryPhrases(q).flat()) {
    if (vocabKeys.has(vocabKey(term))) files.add(positionsPath(postingsShard(term, bounds)));
  }
  return [...files];
}
