import type { Topic } from '../content/topics.ts';
import type { ContentType } from '../content/content-types.ts';
import { tagSlug } from '../model/tags.ts';
import { vocabKey } from './words.ts';
import { wordPostings, type SortedWords } from './sorted-words.ts';
import { comparePopularity } from '../model/popularity.ts';
import { excerptOf, tagCounts } from '../model/listing.ts';
import {
  displayAllRowsPerFile, DISPLAY_ROWS_PER_FILE, INDEX_VERSION, type DisplayFiles, deltaEncode, type Columns, type CoreFile, type DisplayRow, type IndexedType,
  type PositionsFile, type PostingsFile, type StructuredCore, type TagFile, type TagOrdinalsFile, type VocabFile, type VocabularyFile, type WordsFile, WORDS_FILE,
} from './index-format.ts';

/** Aim for about this many postings per postings shard. */
const POSTINGS_PER_SHARD = 12_000;

function columnsOf(topics: readonly Topic[], tagId: Map<string, number>, authorId: Map<string, number>, typeId: Map<string, number>): Columns {
  const updatedSeconds = topics.map((topic) => Math.floor(topic.updatedMs / 1000));
  return {
    // Listing order is newest `updated` first, so the deltas are small negative numbers.
    updated: deltaEncode(updatedSeconds),
    age: topics.map((topic, i) => updatedSeconds[i]! - Math.floor(topic.createdMs / 1000)),
    replies: topics.map((topic) => topic.replies),
    views: topics.map((topic) => topic.views),
    author: topics.map((topic) => authorId.get(topic.author)!),
    type: topics.map((topic) => typeId.get(topic.contentType) ?? -1),
    tags: topics.map((topic) => topic.tags.map((tag) => tagId.get(tag)!)),
  };
}

/** Content-type id → its index in the site's order (the index's type numbers). */
function typeIndexOf(contentTypes: readonly ContentType[]): Map<string, number> {
  return new Map(contentTypes.map((type, i) => [type.id, i]));
}

/** The site's content types as the index lists them: in the site's order, each naming its parent forum. */
export function indexedTypes(contentTypes: readonly ContentType[]): IndexedType[] {
  const typeIndex = typeIndexOf(contentTypes);
  return contentTypes.map((type) => ({
    id: type.id,
    name: type.name,
    group: type.group,
    parent: type.path.length > 1 ? typeIndex.get(type.path.at(-2)!)! : -1,
  }));
}

/** The structured part of core.json. `topics` must be in listing order (their index is their ordinal). */
export function structuredCore(topics: readonly Topic[], contentTypes: readonly ContentType[]): StructuredCore {
  // Tags by count (most used first) give the most used tags the shortest ids.
  const tagNames = [...tagCounts(topics)].sort(comparePopularity).map(([tag]) => tag);
  const authorNames = [...new Set(topics.map((topic) => topic.author))].sort();
  return {
    count: topics.length,
    tagNames,
    authorNames,
    types: indexedTypes(contentTypes),
    ...columnsOf(topics, new Map(tagNames.map((tag, i) => [tag, i])), new Map(authorNames.map((author, i) => [author, i])), typeIndexOf(contentTypes)),
  };
}

/**
 * Asked before a per-tag file (`tags/<tag>.json`) is made: `key` names what it is made from (the
 * tag and its topics in listing order; a build's keys: ../build/index-and-feeds.ts), and `take`
 * says whether the build took the previous output's file of that key instead, so it is not made.
 * Asked before postings shard `n` and its positions shard are made (their terms start at `first`,
 * and end before `next`, none for the last shard), `shard` says whether the build took the previous
 * output's instead (../build/shard-reuse.ts). A display file is keyed like a tag's file, by its
 * topics, with its length after the key (`<key>:<length>`, which core.json adds up for display-all):
 * `earlier` gives the key the previous output's file of a path has. A tag `unchanged` says is
 * carried by the same topics as in the previous build, all with the same records, under the same
 * content types (../build/feed-writing.ts): its file's key is the previous one, taken without keying it.
 */
export interface IndexReuse {
  key: (tag: string, topics: readonly Topic[]) => string;
  take: (path: string, key: string) => boolean;
  shard?: (n: number, first: string, next: string | undefined) => boolean;
  earlier?: (path: string) => string | undefined;
  unchanged?: (tag: string) => boolean;
}

/**
 * The index's topic numbers (CoreFile.numbers) of `topics` in listing order: each topic's place
 * when they are ordered by `created`, oldest first, then slug Z→A (the highest number is the
 * newest, as relevancy breaks ties: ./relevance.ts), and the topics in that order. A bump leaves
 * every number as it was, and a new topic (the newest) takes the next one.
 */
export function topicNumbers(topics: readonly Topic[]): { numbers: number[]; byNumber: Topic[] } {
  const order = topics.map((_, ordinal) => ordinal);
  order.sort((a, b) => {
    const x = topics[a]!;
    const y = topics[b]!;
    return x.createdMs - y.createdMs || (x.slug < y.slug ? 1 : x.slug > y.slug ? -1 : 0);
  });
  const numbers = new Array<number>(topics.length);
  order.forEach((ordinal, number) => (numbers[ordinal] = number));
  return { numbers, byNumber: order.map((ordinal) => topics[ordinal]!) };
}

/**
 * All files of the search index, by path under /search-index/. `topics` must be in listing order
 * (their index is their ordinal).
 */
export function buildSearchIndex(topics: readonly Topic[], contentTypes: readonly ContentType[], canonicalOf: ReadonlyMap<string, string> = new Map(), postingsPerShard = POSTINGS_PER_SHARD): Map<string, string> {
  const files = new Map<string, string>();
  emitSearchIndex(topics, contentTypes, canonicalOf, (path, text) => files.set(path, text), undefined, { postingsPerShard });
  return files;
}

/**
 * Hands every file of the search index to `emit` (its path under /search-index/ and its text) as
 * soon as it is made, so a build can write each and let it go: a big site's index is never held
 * whole. `topics` must be in listing order. With `reuse`, a per-tag file is emitted with its key
 * (IndexReuse), and not made when `reuse` takes it; nor is a postings shard, with its positions
 * shard, that `reuse.shard` takes. `postings` reads the topics' words, given in number order (a
 * rebuild's copies what it read before: ../build/word-memory.ts); `postingsPerShard` sizes the
 * shards (the tests make them small). With `listing`, the last build's core.json, whose topics without their posts are these,
 * the files made from those alone (display files, each tag's) are not made, and core.json is that
 * one with the new word files. Those files come first, then `listingMade` is called: from then on
 * only the topics' titles are read (and their texts, by `postings`). `wordsMade` is called once the
 * word files are all emitted, before core.json and words.json: the words read can be let go of then.
 */
export function emitSearchIndex(
  topics: readonly Topic[],
  contentTypes: readonly ContentType[],
  canonicalOf: ReadonlyMap<string, string>,
  emit: (path: string, text: string, key?: string) => void,
  reuse?: IndexReuse,
  { postings = wordPostings, postingsPerShard = POSTINGS_PER_SHARD, listing, listingMade, wordsMade }: { postings?: (topics: readonly Topic[]) => SortedWords; postingsPerShard?: number; listing?: CoreFile; listingMade?: () => void; wordsMade?: () => void } = {},
): void {
  // The files made from the topics without their posts come first: the words need only the
  // topics' titles and texts, and what else the topics hold can be let go of before they are read.
  const { byNumber, core } = listingFirst(topics, contentTypes, canonicalOf, emit, reuse, listing);
  listingMade?.();
  const words = emitWordFiles(byNumber, emit, reuse, postings, postingsPerShard);
  wordsMade?.();
  emit('core.json', core.withWords(words));
  emit(WORDS_FILE, JSON.stringify({ ...core.sizes, ...words } satisfies WordsFile));
}

/** The topics in number order, and core.json but for the word files, made from the topics without their posts (emitListingFiles), or `listing`, the last build's. */
function listingFirst(topics: readonly Topic[], contentTypes: readonly ContentType[], canonicalOf: ReadonlyMap<string, string>, emit: (path: string, text: string, key?: string) => void, reuse: IndexReuse | undefined, listing: CoreFile | undefined): { byNumber: Topic[]; core: CoreText } {
  const { numbers, byNumber } = topicNumbers(topics);
  if (!listing) return { byNumber, core: emitListingFiles(topics, { numbers, byNumber }, contentTypes, canonicalOf, emit, reuse) };
  const { count, displayShardSize, displayAllSize, displayAllBytes } = listing;
  return { byNumber, core: { sizes: { count, displayShardSize, displayAllSize, displayAllBytes }, withWords: (words) => JSON.stringify({ ...listing, ...words }) } };
}

/** What core.json and words.json say of the word files. */
type WordFiles = Pick<CoreFile, 'postingBounds' | 'vocabKeys' | 'vocabAllBytes'>;
/** core.json but for the word files: its text once they are made, and the sizes words.json repeats. */
type CoreText = { sizes: Pick<CoreFile, 'count' | 'displayShardSize' | 'displayAllSize' | 'displayAllBytes'>; withWords: (words: WordFiles) => string };

/**
 * core.json as JSON.stringify writes `{ ...before, ...words, ...after }` (the three with no name in
 * common), with `before` and `after` written now: while the words are read, their text is held, not
 * the columns and numbers of every topic as arrays. At 100,000 topics that text is 5 MB, where a
 * function making core.json from the arrays held 20 MB of the index thread's heap (with what the
 * listing files were made from, in its scope). Made here, so that its function holds nothing else.
 */
function coreText(before: object, after: object, sizes: CoreText['sizes']): CoreText {
  const head = JSON.stringify(before).slice(0, -1);
  const tail = JSON.stringify(after).slice(1);
  return { sizes, withWords: (words) => `${head},${JSON.stringify(words).slice(1, -1)},${tail}` };
}

/** The postings and positions shards and the vocabulary files (emitSearchIndex), of `topics` in number order. */
function emitWordFiles(topics: readonly Topic[], emit: (path: string, text: string) => void, reuse: IndexReuse | undefined, postings: (topics: readonly Topic[]) => SortedWords, postingsPerShard: number): WordFiles {
  // Postings shards: consecutive runs of the sorted terms, each of about POSTINGS_PER_SHARD postings
  // (`starts`: where each begins among the terms, then where the last ends). Each is made from its
  // terms' postings and written, and its terms let go: the positions of a big site (a number per
  // word of every post) are never all held as JSON numbers or text.
  const words = postings(topics);
  const { terms, df } = words;
  const vocab = new Map<string, VocabFile>();
  const starts: number[] = [];
  let inShard = Infinity;
  for (let r = 0; r < terms.length; r++) {
    const term = terms[r]!;
    const key = vocabKey(term);
    let file = vocab.get(key);
    if (!file) vocab.set(key, (file = { terms: [], df: [] }));
    file.terms.push(term);
    file.df.push(df[r]!);
    if (inShard > 0 && inShard + df[r]! > postingsPerShard) {
      starts.push(r);
      inShard = 0;
    }
    inShard += df[r]!;
  }
  const postingBounds = starts.length > 0 ? starts.map((r) => terms[r]!) : [''];
  if (starts.length === 0) starts.push(0);
  starts.push(terms.length);
  // The shards the previous output's files stand for are not made; the others are, a run of them at a time.
  const make = postingBounds.map((first, n) => !reuse?.shard?.(n, first, postingBounds[n + 1]));
  for (let n = 0; n < make.length; ) {
    if (!make[n]) {
      n++;
      continue;
    }
    let end = n;
    while (end < make.length && make[end]) end++;
    const listed = words.postings(starts[n]!, starts[end]!);
    for (; n < end; n++) {
      const shard: PostingsFile = {};
      const positionShard: PositionsFile = {};
      for (let r = starts[n]!; r < starts[n + 1]!; r++) {
        const { term, all, title, positions } = listed.next().value!;
        shard[term] = [deltaEncode(all), deltaEncode(title)];
        positionShard[term] = positions;
      }
      emit(`postings/${n}.json`, JSON.stringify(shard));
      emit(`positions/${n}.json`, JSON.stringify(positionShard));
    }
  }
  const vocabKeys = [...vocab.keys()].sort();
  for (const [key, file] of vocab) emit(`vocab/${key}.json`, JSON.stringify(file));
  const vocabAll = JSON.stringify(Object.fromEntries(vocabKeys.map((key) => [key, vocab.get(key)!])) satisfies VocabularyFile);
  emit('vocab-all.json', vocabAll);
  const vocabAllBytes = vocabAll.length; // characters: near enough to bytes for a budget
  return { postingBounds, vocabKeys, vocabAllBytes };
}

/**
 * The display files (emitSearchIndex): the topics' rows by number, DISPLAY_ROWS_PER_FILE a file, and
 * displayAllRowsPerFile a file in display-all/. With `reuse`, a file whose topics' key (with its
 * length) the previous output's file has is taken, not made: after a title edit, two of them are made.
 */
function emitDisplayFiles(byNumber: readonly Topic[], row: (topic: Topic) => DisplayRow, emit: (path: string, text: string, key?: string) => void, reuse: IndexReuse | undefined): DisplayFiles {
  // One file of rows; says its length (characters: near enough to bytes for a budget).
  const emitRows = (path: string, topics: readonly Topic[]): number => {
    const key = reuse?.key(`\0${path}`, topics);
    const earlier = key === undefined ? undefined : reuse!.earlier?.(path);
    if (earlier?.startsWith(`${key}:`) && reuse!.take(path, earlier)) return Number(earlier.slice(key!.length + 1));
    const text = JSON.stringify(topics.map(row));
    emit(path, text, key === undefined ? undefined : `${key}:${text.length}`);
    return text.length;
  };
  for (let start = 0; start < byNumber.length; start += DISPLAY_ROWS_PER_FILE) emitRows(`display/${start / DISPLAY_ROWS_PER_FILE}.json`, byNumber.slice(start, start + DISPLAY_ROWS_PER_FILE));
  let displayAllBytes = 0;
  const displayAllSize = displayAllRowsPerFile(byNumber.length);
  for (let start = 0; start < byNumber.length; start += displayAllSize) displayAllBytes += emitRows(`display-all/${start / displayAllSize}.json`, byNumber.slice(start, start + displayAllSize));
  return { displayShardSize: DISPLAY_ROWS_PER_FILE, displayAllSize, displayAllBytes };
}

/**
 * The files made from the topics without their posts: the display files, each tag's ordinals and
 * own file (emitSearchIndex); returns core.json but for the word files. `topics` in listing order, with their
 * numbers (topicNumbers).
 */
function emitListingFiles(
  topics: readonly Topic[],
  { numbers, byNumber }: ReturnType<typeof topicNumbers>,
  contentTypes: readonly ContentType[],
  canonicalOf: ReadonlyMap<string, string>,
  emit: (path: string, text: string, key?: string) => void,
  reuse: IndexReuse | undefined,
): CoreText {
  const structured = structuredCore(topics, contentTypes);
  const { types } = structured;
  const typeIndex = typeIndexOf(contentTypes);
  const row = (topic: Topic): DisplayRow => [
    topic.slug, topic.title, excerptOf(topic), Math.floor(topic.updatedMs / 1000), topic.replies, topic.author, topic.tags,
  ];
  const display = emitDisplayFiles(byNumber, row, emit, reuse);
  // Topics' tags are canonical already: the index needs only the synonyms of tags some topic carries.
  const tagId = new Map(structured.tagNames.map((tag, i) => [tag, i]));
  const tagSynonyms = [...canonicalOf].flatMap(([synonym, canonical]): Array<[string, number]> => (tagId.has(canonical) ? [[synonym, tagId.get(canonical)!]] : []));

  // One self-contained file per tag: its topics only, with local ids for tags, authors and types.
  const byTag = new Map<string, number[]>();
  topics.forEach((topic, ordinal) => {
    for (const tag of topic.tags) {
      let list = byTag.get(tag);
      if (!list) byTag.set(tag, (list = []));
      list.push(ordinal);
    }
  });
  for (const [tag, ordinals] of byTag) {
    const path = `tags/${tagSlug(tag)}.json`;
    emit(`tag-ordinals/${tagSlug(tag)}.json`, JSON.stringify(deltaEncode(ordinals.map((ordinal) => numbers[ordinal]!)) satisfies TagOrdinalsFile));
    const earlier = reuse?.unchanged?.(tag) ? reuse.earlier?.(path) : undefined;
    if (earlier !== undefined && reuse!.take(path, earlier)) continue;
    const subset = ordinals.map((ordinal) => topics[ordinal]!);
    const key = reuse?.key(tag, subset);
    if (key !== undefined && reuse!.take(path, key)) continue;
    const localTags = [...new Set(subset.flatMap((topic) => topic.tags))];
    const localAuthors = [...new Set(subset.map((topic) => topic.author))].sort();
    const file: TagFile = {
      version: INDEX_VERSION,
      tag,
      tagNames: localTags,
      authorNames: localAuthors,
      types,
      display: subset.map(row),
      ...columnsOf(subset, new Map(localTags.map((t, i) => [t, i])), new Map(localAuthors.map((a, i) => [a, i])), typeIndex),
    };
    emit(path, JSON.stringify(file), key);
  }
  return coreText({ version: INDEX_VERSION, ...display }, { ...structured, numbers, ...(tagSynonyms.length > 0 ? { tagSynonyms } : {}) }, { count: structured.count, ...display });
}
