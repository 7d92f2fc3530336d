// A rebuild copies the word postings of topics whose records are unchanged from the last build's
// memory (src/build/word-memory.ts): the postings it hands out must be exactly those of reading
// every topic again, whatever changed, and a memory it cannot trust must not be used.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { letGo, readPostings } from '../../src/search/word-postings.ts';
import { termPostings } from '../../src/search/sorted-words.ts';
import { earlierPostings, readWordMemory, rememberWords, wordsAtWork, type WordMemoryFile } from '../../src/build/word-memory.ts';
import { topicRecordKey } from '../../src/content/read-topics.ts';
import { corpusArb, WORDS } from './search-corpus.ts';

const folder = mkdtempSync(join(tmpdir(), 'tagsite-words-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const keyOf = (topic: Topic) => topicRecordKey(topic);

/** The memory as the index thread takes it: the table read (if usable), and where each topic is in it. */
function rememberedWords(memory: WordMemoryFile, keyOfTopic: (topic: Topic) => string | undefined) {
  const table = readWordMemory(memory);
  return table && earlierPostings(table, keyOfTopic);
}

/** Reads `topics` (in listing order) as a build does with `memory`, remembering them; returns the postings handed out. */
function rebuildRead(topics: readonly Topic[], memory: WordMemoryFile) {
  const listed = sortForListing(topics);
  const read = readPostings(listed, rememberedWords(memory, keyOf));
  rememberWords(memory, read, listed.map(keyOf));
  return [...termPostings(read)];
}

/** One edit of a topic, as changing its file would make it. */
const edits: Record<string, (topic: Topic, word: string) => Topic> = {
  post: (topic, word) => ({ ...topic, text: `${word} ${topic.text} ${word}` }),
  title: (topic, word) => ({ ...topic, title: `${topic.title} ${word}` }),
  emptied: (topic) => ({ ...topic, title: '', text: '' }),
  // Moves it to the top of the listing: every ordinal after it changes.
  bumped: (topic) => ({ ...topic, updatedMs: Date.UTC(2030, 0, 1), updated: '2030-01-01T00:00:00.000Z' }),
  replies: (topic) => ({ ...topic, replies: topic.replies + 1 }),
};

/** A next version of a corpus: topics deleted, edited, and added (from another corpus, under new slugs). */
function nextArb(topics: readonly Topic[]) {
  return fc
    .record({
      kept: fc.array(fc.boolean(), { minLength: topics.length, maxLength: topics.length }),
      edit: fc.array(fc.option(fc.tuple(fc.constantFrom(...Object.keys(edits)), fc.constantFrom(...WORDS, 'fernwick'))), { minLength: topics.length, maxLength: topics.length }),
      added: corpusArb.map(({ topics: more }) => more.slice(0, 5)),
      round: fc.nat(1000),
    })
    .map(({ kept, edit, added, round }) => [
      ...topics.flatMap((topic, i) => (kept[i] ? [edit[i] ? edits[edit[i]![0]]!(topic, edit[i]![1]) : topic] : [])),
      ...added.map((topic) => ({ ...topic, slug: `${topic.slug}-n${round}`, file: `content/topics/${topic.slug}-n${round}.md` })),
    ]);
}

describe('word memory', () => {
  it('hands out the postings of reading every topic, after edits, deletions, additions and moves, build after build', () => {
    let run = 0;
    fc.assert(
      fc.property(
        corpusArb.chain(({ topics }) => nextArb(topics).chain((second) => nextArb(second).map((third) => [topics, second, third]))),
        (versions) => {
          const memory = { file: join(folder, `run-${run++}.bin`), code: 'code-1' };
          for (const topics of versions) expect(rebuildRead(topics, memory)).toEqual([...termPostings(readPostings(sortForListing(topics)))]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('hands out the same postings whatever the runs its terms are laid out in', () => {
    fc.assert(
      fc.property(corpusArb, fc.nat(40), fc.nat(60), ({ topics }, postings, places) => {
        const read = readPostings(sortForListing(topics));
        expect([...termPostings(read, { postings, places })]).toEqual([...termPostings(read)]);
      }),
      { numRuns: 150 },
    );
  });

  it('gives each posting the ordinal of its topic, past topics without a word, first or in between', () => {
    const topic = (slug: string, title: string, text: string): Topic => ({
      slug, file: `content/topics/${slug}.md`, title, author: 'wren',       createdMs: 1, updatedMs: 1, contentType: 'help', contentGroup: 'forum', tags: [], replies: 0, views: 0, excerptText: text, excerptCut: false, html: `<p>${text}</p>`, text,
    });
    const read = readPostings([topic('a', '', ''), topic('b', 'Lantern', 'moss'), topic('c', '', ''), topic('d', '', ''), topic('e', 'Moss', 'lantern quartz')]);
    expect([...termPostings(read, { postings: 2, places: 3 })].map(({ term, all, title }) => [term, all, title])).toEqual([
      ['lantern', [1, 4], [1]], ['moss', [1, 4], [4]], ['quartz', [4], []],
    ]);
  });

  it('renumbers the terms that went with a deleted topic, the ids of those after them taking fewer bytes', () => {
    // 300 words of the first topic read: ids 0 to 299, those from 128 on in two bytes.
    const letters = 'bcdfghjklmnpqrstvwxz';
    const words = Array.from({ length: 300 }, (_, i) => `zo${letters[Math.floor(i / 20)]}${letters[i % 20]}a`);
    const topic = (slug: string, updatedMs: number, text: string): Topic => ({
      slug, file: `content/topics/${slug}.md`, title: 'Pollen', author: 'wren', createdMs: 1, updatedMs, contentType: 'help', contentGroup: 'forum', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html: `<p>${text}</p>`, text,
    });
    const first = topic('first', 3, words.join(' '));
    const later = topic('later', 2, `${words.slice(200, 210).join(' ')} ${words[250]} ${words[201]}`);
    const last = topic('last', 1, words.slice(260, 266).join(' '));
    const memory = { file: join(folder, 'renumbered.bin'), code: 'code-1' };
    rebuildRead([first, later, last], memory);
    // The later topics, copied from the memory: 'pollen' stays id 0, their other terms go from 200 and more to 1 to 17.
    expect(rememberedWords(memory, keyOf)?.at(later)).toBe(1);
    const copied = rebuildRead([later, last], memory);
    expect(copied).toEqual([...termPostings(readPostings([later, last]))]);
    expect(copied.map(({ term }) => term)).toEqual(['pollen', ...words.slice(200, 210), words[250], ...words.slice(260, 266)].sort());
    // Their ids renumbered in their order, as reading them alone numbers them: the same bytes, the last topic's postings moved to where they begin then.
    const remembered = readWordMemory(memory)!;
    const alone = readPostings([later, last]);
    expect(Buffer.from(remembered.postings)).toEqual(Buffer.from(alone.postings));
    expect([...remembered.topicStarts]).toEqual([...alone.topicStarts]);
  });

  it("hands out each term's places as they stand, however far into a long post, read or copied from the memory", () => {
    // Places of 128 and more take two bytes, of 16,384 and more three (each number in its bytes).
    const far = [0, 127, 128, 300, 16_383, 16_384, 16_385, 70_000];
    const words = Array.from({ length: 70_001 }, (_, i) => (far.includes(i) ? 'kestrel' : i % 2 ? 'fern' : 'moss'));
    const long: Topic = {
      slug: 'long', file: 'content/topics/long.md', title: 'Moss and kestrel kestrel', author: 'wren', createdMs: 2, updatedMs: 2, contentType: 'help', contentGroup: 'forum', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html: '', text: words.join(' '),
    };
    const short: Topic = { ...long, slug: 'short', file: 'content/topics/short.md', title: 'Fern', createdMs: 1, updatedMs: 1, text: 'kestrel' };
    // The post's occurrences × 2 + in the title, the title's count, the title's places as deltas, then the post's.
    const deltas = (places: number[]) => places.map((place, i) => place - (i > 0 ? places[i - 1]! : 0));
    const want = [far.length * 2 + 1, 2, ...deltas([2, 3]), ...deltas(far)];
    const kestrel = (postings: ReturnType<typeof rebuildRead>) => postings.find(({ term }) => term === 'kestrel');
    const memory = { file: join(folder, 'long.bin'), code: 'code-1' };
    const read = rebuildRead([long, short], memory);
    expect(kestrel(read)).toEqual({ term: 'kestrel', all: [0, 1], title: [0], positions: [...want, 2, 0] });
    expect(kestrel([...termPostings(readPostings(sortForListing([long, short])), { postings: 1, places: 3 })]), 'laid out a term at a time').toEqual(kestrel(read));
    // The next build copies the long topic from the memory and reads the changed short one.
    const copied = rebuildRead([long, { ...short, text: 'moss kestrel' }], memory);
    expect(kestrel(copied)?.positions).toEqual([...want, 2, 1]);
    expect(copied.find(({ term }) => term === 'moss')?.positions.slice(0, 4)).toEqual([words.filter((word) => word === 'moss').length * 2 + 1, 1, 0, 2]);
  });

  it('at work in a build, remembers the words once, then holds neither them nor the shards they leave as they were', () => {
    const file = { file: join(folder, 'at-work.bin'), code: 'code-1' };
    const topics = sortForListing(fc.sample(corpusArb, { numRuns: 1, seed: 7 })[0]!.topics);
    const shards = { bounds: [''], keys: [['p0', 'q0']] as const };
    // A first build, then one that reads the same topics with that memory.
    const first = wordsAtWork({ file }, keyOf);
    first.postings(topics);
    first.remember(shards);
    const table = readWordMemory(file)!;
    expect(table.shards).toEqual(shards);
    const second = wordsAtWork({ file, table }, keyOf);
    const words = second.postings(topics);
    expect([...words.postings(0, words.terms.length)]).toEqual([...termPostings(readPostings(topics))]);
    expect(second.same?.(0, '', undefined), 'its one shard, as the last build made it').toEqual(['p0', 'q0']);
    second.remember({ bounds: [''], keys: [['p1', 'q1']] });
    expect(readWordMemory(file)?.shards?.keys).toEqual([['p1', 'q1']]);
    expect(second.same).toBeUndefined();
    rmSync(file.file);
    second.remember(shards);
    expect(existsSync(file.file), 'remembered once').toBe(false);
  });

  it('gives a list of postings its memory back at once, not at some later collection: the list and every view of it are empty after', () => {
    const list = new Int32Array(16 << 20).fill(7); // 64 MB
    const view = list.subarray(5, 10);
    const before = process.memoryUsage().arrayBuffers;
    letGo(list);
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(64 << 20);
    expect([list.length, view.length]).toEqual([0, 0]);
    letGo(list); // nothing left to give
  });

  it('copies the topics it remembers: a remembered topic is not read again', () => {
    const memory = { file: join(folder, 'copies.bin'), code: 'code-1' };
    const topic = (slug: string, text: string, day: number): Topic => ({
      slug, file: `content/topics/${slug}.md`, title: 'Clipboard history', author: 'wren',       createdMs: Date.UTC(2026, 0, day), updatedMs: Date.UTC(2026, 0, day), contentType: 'help', contentGroup: 'forum', tags: ['api'], replies: 0, views: 0, excerptText: text, excerptCut: false, html: `<p>${text}</p>`, text,
    });
    const first = [topic('a', 'lantern moss lantern', 2), topic('b', 'quartz fennel', 1)];
    rebuildRead(first, memory);
    // The same records whose text property lies about them: a copy shows the words first read.
    const remembered = rememberedWords(memory, keyOf)!;
    const [a, b] = sortForListing(first);
    expect(remembered.at(a!)).toBe(0);
    expect(remembered.at(b!)).toBe(1);
    const read = readPostings([b!, a!], { ...remembered, at: (t) => (t === a ? 0 : undefined) });
    a!.text = 'nothing of it is read';
    expect([...termPostings(read)].map(({ term, all }) => [term, all])).toEqual([
      ['clipboard', [0, 1]], ['fennel', [0]], ['history', [0, 1]], ['lantern', [1]], ['moss', [1]], ['quartz', [0]],
    ]);
  });

  it('is not used when it is of other code, cut short, or its numbers do not fit together', () => {
    const file = join(folder, 'checked.bin');
    const topics = sortForListing([
      { slug: 'c', file: 'content/topics/c.md', title: 'Shell alias', author: 'wren', createdMs: 1, updatedMs: 1, contentType: 'help', contentGroup: 'forum', tags: [], replies: 0, views: 0, excerptText: '', excerptCut: false, html: '<p>juniper alias</p>', text: 'juniper alias' },
    ] satisfies Topic[]);
    rememberWords({ file, code: 'code-1' }, readPostings(topics), topics.map(keyOf));
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)?.at(topics[0]!)).toBe(0);
    expect(rememberedWords({ file, code: 'code-2' }, keyOf)).toBeUndefined();
    expect(rememberedWords({ file, code: 'code-' }, keyOf), 'a code the file\'s begins with').toBeUndefined();
    expect(rememberedWords({ file, code: 'code-10' }, keyOf), "a code beginning with the file's").toBeUndefined();
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, whole.length - 4));
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)).toBeUndefined();
    // A term id past the terms: the first posting's (the file ends with the postings' bytes, the first posting's term id 0 in one byte).
    const broken = Buffer.from(whole);
    const read = readPostings(topics);
    const postingsAt = whole.length - read.postings.length;
    expect(broken[postingsAt]).toBe(0);
    broken[postingsAt] = 99;
    writeFileSync(file, broken);
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)).toBeUndefined();
    // A topic's postings said to end past where they do: the last of the topics' starts, before the counts (4 bytes a topic) and the postings.
    const misplaced = Buffer.from(whole);
    const endAt = postingsAt - 4 * topics.length - 8;
    expect(misplaced.readDoubleLE(endAt)).toBe(read.postings.length);
    misplaced.writeDoubleLE(read.postings.length + 1, endAt);
    writeFileSync(file, misplaced);
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)).toBeUndefined();
    // A first posting that says it has more places than the bytes hold (63 in the post), and one that says fewer (none): the bytes do not end with the last posting.
    for (const header of [63 * 2, 0]) {
      const misread = Buffer.from(whole);
      misread[postingsAt + 1] = header;
      writeFileSync(file, misread);
      expect(rememberedWords({ file, code: 'code-1' }, keyOf), `header ${header}`).toBeUndefined();
    }
    // Places whose last byte does not end a number (its high bit set).
    const unended = Buffer.from(whole);
    unended[unended.length - 1] = 0x81;
    writeFileSync(file, unended);
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)).toBeUndefined();
    writeFileSync(file, whole);
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)?.at(topics[0]!), 'the file as written').toBe(0);
    writeFileSync(file, 'not a memory');
    expect(rememberedWords({ file, code: 'code-1' }, keyOf)).toBeUndefined();
    expect(rememberedWords({ file: join(folder, 'none.bin'), code: 'code-1' }, keyOf)).toBeUndefined();
  });
});
