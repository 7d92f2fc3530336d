import type { Topic } from '../content/topics.ts';
import type { ContentType } from '../content/content-types.ts';
import { tagSlug } from '../model/tags.ts';
import { terms, vocabKey } from './words.ts';
import { comparePopularity } from '../model/popularity.ts';
import {
  DISPLAY_ALL_ROWS_PER_FILE, DISPLAY_ROWS_PER_FILE, INDEX_VERSION, type DisplayFiles, deltaEncode, type Columns, type CoreFile, type DisplayRow, type IndexedType,
  type PositionsFile, type PostingsFile, type StructuredCore, type TagFile, type TagOrdinalsFile, type VocabFile, type WordsFile,
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
  const tagCount = new Map<string, number>();
  for (const topic of topics) for (const tag of topic.tags) tagCount.set(tag, (tagCount.get(tag) ?? 0) + 1);
  const tagNames = [...tagCount].sort(comparePopularity).map(([tag]) => tag);
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
 * All files of the search index, by path under /search-index/. `topics` must be in listing order
 * (their index is their ordinal).
 */
export function buildSearchIndex(topics: readonly Topic[], contentTypes: readonly ContentType[], canonicalOf: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const files = new Map<string, string>();
  emitSearchIndex(topics, contentTypes, canonicalOf, (path, text) => files.set(path, text));
  return files;
}

/**
 * Hands every file of the search index to `emit` (its path under /search-index/ and its text) as
 * soon as it is made, so a build can write each and let it go: a big site's index is never held
 * whole. `topics` must be in listing order.
 */
export function emitSearchIndex(topics: readonly Topic[], contentTypes: readonly ContentType[], canonicalOf: ReadonlyMap<string, string>, emit: (path: string, text: string) => void): void {
  const structured = structuredCore(topics, contentTypes);
  const { types } = structured;
  const typeIndex = typeIndexOf(contentTypes);

  // Words: term → ordinals (ascending, since ordinals are visited in order), and where the term stands in each.
  const postings = new Map<string, { all: number[]; title: number[]; positions: number[] }>();
  topics.forEach((topic, ordinal) => {
    const places = new Map<string, { title: number[]; post: number[] }>();
    const note = (list: readonly string[], where: 'title' | 'post') => {
      for (let i = 0; i < list.length; i++) {
        let at = places.get(list[i]!);
        if (!at) places.set(list[i]!, (at = { title: [], post: [] }));
        at[where].push(i);
      }
    };
    note(terms(topic.title), 'title');
    note(terms(topic.text), 'post');
    for (const [term, { title, post }] of places) {
      let entry = postings.get(term);
      if (!entry) postings.set(term, (entry = { all: [], title: [], positions: [] }));
      entry.all.push(ordinal);
      if (title.length > 0) entry.title.push(ordinal);
      // See PositionsFile. Pushed one by one: a word repeated many thousand times in one post would overflow a spread's arguments.
      const { positions } = entry;
      positions.push(post.length * 2 + (title.length > 0 ? 1 : 0));
      if (title.length > 0) positions.push(title.length);
      for (let i = 0; i < title.length; i++) positions.push(title[i]! - (i > 0 ? title[i - 1]! : 0));
      for (let i = 0; i < post.length; i++) positions.push(post[i]! - (i > 0 ? post[i - 1]! : 0));
    }
  });
  // Postings shards: consecutive runs of the sorted terms, each of about POSTINGS_PER_SHARD postings.
  // Each shard is written as soon as it is full and its terms let go: the positions of a big site
  // (a number per word of every post) are never all held both as numbers and as text.
  const vocab = new Map<string, VocabFile>();
  const postingBounds: string[] = [];
  let shard: PostingsFile = {};
  let positionShard: PositionsFile = {};
  const writeShard = () => {
    const n = Math.max(0, postingBounds.length - 1);
    emit(`postings/${n}.json`, JSON.stringify(shard));
    emit(`positions/${n}.json`, JSON.stringify(positionShard));
  };
  let inShard = Infinity;
  for (const term of [...postings.keys()].sort()) {
    const entry = postings.get(term)!;
    postings.delete(term);
    const key = vocabKey(term);
    let file = vocab.get(key);
    if (!file) vocab.set(key, (file = { terms: [], df: [] }));
    file.terms.push(term);
    file.df.push(entry.all.length);
    if (inShard > 0 && inShard + entry.all.length > POSTINGS_PER_SHARD) {
      if (postingBounds.length > 0) writeShard();
      shard = {};
      positionShard = {};
      postingBounds.push(term);
      inShard = 0;
    }
    inShard += entry.all.length;
    shard[term] = [deltaEncode(entry.all), deltaEncode(entry.title)];
    positionShard[term] = entry.positions;
  }
  if (postingBounds.length === 0) postingBounds.push('');
  writeShard();
  const vocabKeys = [...vocab.keys()].sort();
  for (const [key, file] of vocab) emit(`vocab/${key}.json`, JSON.stringify(file));

  const row = (topic: Topic): DisplayRow => [
    topic.slug, topic.title, topic.excerpt, Math.floor(topic.updatedMs / 1000), topic.replies, topic.author, topic.tags,
  ];
  const rows = topics.map(row);
  for (let start = 0; start < rows.length; start += DISPLAY_ROWS_PER_FILE) {
    emit(`display/${start / DISPLAY_ROWS_PER_FILE}.json`, JSON.stringify(rows.slice(start, start + DISPLAY_ROWS_PER_FILE)));
  }
  let displayAllBytes = 0;
  for (let start = 0; start < rows.length; start += DISPLAY_ALL_ROWS_PER_FILE) {
    const text = JSON.stringify(rows.slice(start, start + DISPLAY_ALL_ROWS_PER_FILE));
    emit(`display-all/${start / DISPLAY_ALL_ROWS_PER_FILE}.json`, text);
    displayAllBytes += text.length; // characters: near enough to bytes for a budget
  }
  const display: DisplayFiles = { displayShardSize: DISPLAY_ROWS_PER_FILE, displayAllSize: DISPLAY_ALL_ROWS_PER_FILE, displayAllBytes };
  // Topics' tags are canonical already: the index needs only the synonyms of tags some topic carries.
  const tagId = new Map(structured.tagNames.map((tag, i) => [tag, i]));
  const tagSynonyms = [...canonicalOf].flatMap(([synonym, canonical]): Array<[string, number]> => (tagId.has(canonical) ? [[synonym, tagId.get(canonical)!]] : []));
  const core: CoreFile = { version: INDEX_VERSION, ...display, postingBounds, vocabKeys, ...structured, ...(tagSynonyms.length > 0 ? { tagSynonyms } : {}) };
  emit('core.json', JSON.stringify(core));

  // One self-contained file per tag: its topics only, with local ids for tags, authors and types.
  const byTag = new Map<string, number[]>();
  topics.forEach((topic, ordinal) => {
    for (const tag of topic.tags) {
      let list = byTag.get(tag);
      if (!list) byTag.set(tag, (list = []));
      list.push(ordinal);
    }
  });
  emit('words.json', JSON.stringify({ count: topics.length, ...display, postingBounds, vocabKeys } satisfies WordsFile));
  for (const [tag, ordinals] of byTag) {
    const subset = ordinals.map((ordinal) => topics[ordinal]!);
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
    emit(`tags/${tagSlug(tag)}.json`, JSON.stringify(file));
    emit(`tag-ordinals/${tagSlug(tag)}.json`, JSON.stringify(deltaEncode(ordinals) satisfies TagOrdinalsFile));
  }
}
