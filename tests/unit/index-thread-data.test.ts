/** The build's two messages to the index thread: the topics without their posts, then the texts it reads words from. */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rememberPosts } from '../../src/build/post-memory.ts';
import { sentTexts } from '../../src/build/chunk-posts.ts';
import fc from 'fast-check';
import { keepWhatWordsRead, textsToSend, topicsToSend, withSentTexts } from '../../src/build/index-thread-data.ts';
import { buildSearchIndex, emitSearchIndex } from '../../src/search/index-build.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { CONTENT_TYPES, corpusArb } from './search-corpus.ts';
import type { SiteContent, TopicKeys } from '../../src/content/load.ts';
import type { RenderedPost, Topic } from '../../src/content/topics.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-index-thread-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const topic = (slug: string, post: RenderedPost): Topic => ({ slug, file: `topics/${slug}.md`, title: `Rope ${slug}`, excerptText: '', excerptCut: false, author: 'ines', createdMs: 1, updatedMs: 1, replies: 0, views: 0, contentType: 'help', tags: ['splices'], ...post }) as unknown as Topic;

it('sends the topics without their posts first, then only the texts the thread has no words of: by their place in a chunk file, or as text', () => {
  const post = (n: number): RenderedPost => ({ html: `<p>Eye splice, step ${n}</p>`, text: `Eye splice, step ${n}` });
  // in-memory: its words are remembered; in-chunk: its post is in a chunk file; own: its record
  // holds its post; kept: its post is kept apart from its record (a rebuild's), in no chunk file.
  const topics = [topic('in-memory', post(0)), topic('in-chunk', post(1)), topic('own', post(2)), topic('kept', { html: '', text: '' })];
  const content = { topics, keptPosts: new Map([['kept', post(3)]]) } as unknown as SiteContent;
  const keys: TopicKeys = new Map([[topics[0]!, 'key-0'], [topics[1]!, 'key-1'], [topics[3]!, 'key-3']]);
  const posts = rememberPosts(join(dir, 'cache'), 'code-1', new Map([['topics/in-chunk.md', { digest: 'd1', ...post(1) }]]));

  const first = topicsToSend(content, keys);
  expect(first.topics.map(({ html, text }) => html + text)).toEqual(['', '', '', '']);
  expect(first.topics.map(({ file }) => file), 'no source file: nothing the thread makes names one').toEqual(['', '', '', '']);
  expect(first.topics.map(({ slug }) => slug)).toEqual(['in-memory', 'in-chunk', 'own', 'kept']);
  expect(topics[3]!.file, 'the build`s records keep theirs').not.toBe('');
  expect(first.recordKeys).toEqual(['key-0', 'key-1', '', 'key-3']);
  expect(topics[2]!.text, 'the build`s records are left as they are').toBe('Eye splice, step 2');

  const second = textsToSend(content, first.recordKeys, new Set(['key-0']), posts);
  expect(second.places.at.flatMap((place, i) => (place ? [i] : []))).toEqual([1]);
  expect(second.texts).toEqual([[2, 'Eye splice, step 2'], [3, 'Eye splice, step 3']]);

  // In the thread, as postMessage copies them: every text it reads words from is there.
  const received = structuredClone(first.topics);
  const texts = structuredClone(second);
  withSentTexts(received, texts);
  const { textOf, close } = sentTexts(received, texts.places);
  expect(received.slice(1).map(textOf)).toEqual(['Eye splice, step 1', 'Eye splice, step 2', 'Eye splice, step 3']);
  expect(textOf(received[0]!), 'its words are remembered: no text sent').toBe('');
  close();

  // No record keys (a clean build's reading gives none for topics it read): every text is sent.
  const clean = topicsToSend(content, undefined);
  expect(clean.recordKeys).toEqual([]);
  expect(textsToSend(content, clean.recordKeys, new Set(['key-0']), new Map()).texts.map(([i]) => i)).toEqual([0, 1, 2, 3]);
});

it('makes the same index when the topics keep only what the words are read from once the listing files are made', () => {
  fc.assert(
    fc.property(corpusArb, ({ topics }) => {
      const whole = buildSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), 3);
      // The thread's copies (its own records), trimmed as the thread trims them.
      const copies = sortForListing(structuredClone(topics));
      const trimmed = new Map<string, string>();
      let trimmedBeforeWords = false;
      emitSearchIndex(copies, CONTENT_TYPES, new Map(), (path, text) => {
        if (path.startsWith('postings/') && copies.length > 0) trimmedBeforeWords ||= copies.every((topic) => topic.excerptText === '' && topic.slug === '');
        trimmed.set(path, text);
      }, undefined, { postingsPerShard: 3, listingMade: () => keepWhatWordsRead(copies) });
      expect(trimmed).toEqual(whole);
      if (copies.some((topic) => topic.text !== '' || topic.title !== '')) expect(trimmedBeforeWords, 'the postings were made from the trimmed topics').toBe(true);
    }),
    { numRuns: 60 },
  );
});
