/**
 * The build's loader (issue 7): topic files shared between threads, and first posts rendered by an
 * earlier build reused while their Markdown is unchanged; the same content and problems as loadContent.
 */
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { loadContent, loadContentInParallel, postOf, withoutPosts } from '../../src/content/load.ts';
import { rememberPosts } from '../../src/build/post-memory.ts';
import { withoutPostCopies } from '../../src/content/reading-thread.ts';
import { formatProblem } from '../../src/content/problems.ts';
import { writeCorpus } from '../../scripts/bench/corpus.ts';
import { stampListing } from '../../src/build/output-check.ts';
import { fileStamp } from '../../src/content/file-stamp.ts';

// Enough topics for worker threads to be used (loadContentInParallel's PARALLEL_FROM is 1,500).
const dir = mkdtempSync(join(tmpdir(), 'tagsite-parallel-'));
writeCorpus(dir, { count: 1600, seed: 'parallel' });
const options = { root: dir, contentDir: dir, excerptLength: 200 };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadContentInParallel', () => {
  it('gives exactly what loadContent gives, problems included', async () => {
    const { content: topicsBefore } = loadContent(options);
    const broken = join(dir, topicsBefore.topics[1200]!.file);
    const text = readFileSync(broken, 'utf8');
    writeFileSync(broken, text.replace(/^created: .*$/m, 'created: 2023-02-30').replace(/^views: .*$/m, 'views: many'));
    try {
      const sequential = loadContent(options);
      const parallel = await loadContentInParallel(options);
      expect(parallel.problems.map(formatProblem)).toEqual(sequential.problems.map(formatProblem));
      expect(parallel.problems.map((problem) => problem.field).sort()).toEqual(['created', 'views']);
      expect(parallel.content).toEqual(sequential.content);
      expect(parallel.content.topics).toHaveLength(1599);
    } finally {
      writeFileSync(broken, text);
    }
  });

  it('has a reading thread send each post once, in its remembered rendering: the message is smaller by every post', async () => {
    const { content, memory } = await loadContentInParallel(options);
    const results = content.topics.map((topic) => ({ file: topic.file, problems: [], topic, remembered: memory.get(topic.file)! }));
    const sent = withoutPostCopies(results);
    expect(sent.every(({ topic }) => topic!.html === '' && topic!.text === '')).toBe(true);
    expect(sent.map(({ remembered }) => remembered)).toEqual(results.map(({ remembered }) => remembered));
    const posts = content.topics.reduce((sum, topic) => sum + topic.html.length + topic.text.length, 0);
    expect(serialize(sent).length).toBeLessThan(serialize(results).length - posts);
  });

  it('gives the topics without their posts, each with its key and its post read back from the memory, and without their text where the memory lacks the post', async () => {
    const { content, keys, memory } = await loadContentInParallel(options);
    const cache = mkdtempSync(join(tmpdir(), 'tagsite-posts-'));
    onTestFinished(() => rmSync(cache, { recursive: true, force: true }));
    const kept = rememberPosts(cache, 'code', memory);
    expect(kept.size).toBe(content.topics.length);
    const lacking = content.topics[7]!;
    kept.delete(lacking.file);
    const pages = withoutPosts(content, keys, kept);
    expect(pages.content.topics).toEqual(content.topics.map((topic) => ({ ...topic, html: topic === lacking ? topic.html : '', text: '' })));
    expect(content.topics.every((topic) => topic.html !== '' && topic.text !== '')).toBe(true);
    // Each post is read from the memory's file: the pages get exactly the HTML and text read.
    for (const topic of [content.topics[0]!, content.topics[800]!, content.topics[1599]!]) {
      const page = pages.content.topics.find(({ slug }) => slug === topic.slug)!;
      expect(postOf(pages.content, page)).toEqual({ html: topic.html, text: topic.text });
    }
    expect(postOf(pages.content, pages.content.topics[7]!)).toBe(pages.content.topics[7]);
    expect(pages.content.topics.map((topic) => pages.keys.get(topic))).toEqual(content.topics.map((topic) => keys.get(topic)));
    expect(pages.keys.size).toBe(content.topics.length);
    expect(pages.content.members).toBe(content.members);
  });

  it('reuses a remembered rendering only while the Markdown it was made from is unchanged', async () => {
    const first = await loadContentInParallel(options);
    expect(first.memory.size).toBe(1600);
    // Two topics, one from each thread's share; their remembered renderings are marked, and the
    // record of their file forgotten (see the next test), so only the rendering can be reused.
    const [early, late] = [first.content.topics[3]!, first.content.topics[1500]!];
    const memory = new Map(first.memory);
    for (const topic of [early, late]) memory.set(topic.file, { ...memory.get(topic.file)!, html: '<p>remembered</p>', text: 'remembered', read: undefined });
    const lateFile = join(dir, late.file);
    const lateText = readFileSync(lateFile, 'utf8');
    writeFileSync(lateFile, `${lateText}\nA new last paragraph.\n`);
    try {
      const second = await loadContentInParallel(options, memory);
      const bySlug = new Map(second.content.topics.map((topic) => [topic.slug, topic]));
      expect(bySlug.get(early.slug)!.html).toBe('<p>remembered</p>');
      expect(bySlug.get(early.slug)!.excerptText).toBe('remembered');
      expect(bySlug.get(late.slug)!.html).toContain('A new last paragraph.');
      expect(second.memory.get(late.file)!.html).toContain('A new last paragraph.');
    } finally {
      writeFileSync(lateFile, lateText);
    }
  });

  it('takes a file unchanged since it was read (size, times, inode; same settings) from memory without reading it, and reads any other again', async () => {
    const first = await loadContentInParallel(options);
    const [kept, edited, moved] = [first.content.topics[5]!, first.content.topics[1400]!, first.content.topics[1550]!];
    // What memory says of two files is marked: only a file still as it was read may show it.
    const memory = new Map(first.memory);
    for (const topic of [kept, edited]) {
      const remembered = memory.get(topic.file)!;
      memory.set(topic.file, { ...remembered, read: { ...remembered.read!, topic: { ...remembered.read!.topic, title: 'From memory' } } });
    }
    const editedFile = join(dir, edited.file);
    const editedText = readFileSync(editedFile, 'utf8');
    // The same bytes written again: only the file's times say it was written.
    writeFileSync(editedFile, editedText);
    const movedFile = join(dir, moved.file);
    const movedText = readFileSync(movedFile, 'utf8');
    writeFileSync(movedFile, movedText.replace(/^views: .*$/m, 'views: many'));
    try {
      const second = await loadContentInParallel(options, memory);
      const bySlug = new Map(second.content.topics.map((topic) => [topic.slug, topic]));
      // Unchanged: the marked record, keys in the same order (records are digested as JSON text), its post
      // kept out of it (empty HTML and text) and given where it is shown.
      const fromMemory = bySlug.get(kept.slug)!;
      expect(fromMemory.title).toBe('From memory');
      expect(Object.keys(fromMemory)).toEqual(Object.keys(kept));
      expect([fromMemory.html, fromMemory.text]).toEqual(['', '']);
      expect(postOf(second.content, fromMemory)).toMatchObject({ html: kept.html, text: kept.text });
      expect(kept.html).toContain('<p>');
      expect({ ...fromMemory, title: kept.title, html: kept.html, text: kept.text }).toEqual(kept);
      // A topic read again carries its post itself.
      expect(second.content.keptPosts?.has(edited.slug)).toBe(false);
      expect(bySlug.get(edited.slug)!.html).toBe(edited.html);
      // Written again, same bytes: read again. Changed into a broken file: read again, and reported.
      expect(bySlug.get(edited.slug)!.title).toBe(edited.title);
      expect(bySlug.has(moved.slug)).toBe(false);
      expect(second.problems.map((problem) => [problem.file, problem.field])).toEqual([[moved.file, 'views']]);
      // Files taken from memory and files read again come back in the files' order, as loadContent's.
      expect(second.content.topics.map((topic) => topic.slug)).toEqual(first.content.topics.filter((topic) => topic !== moved).map((topic) => topic.slug));
      // Another excerpt length is another setting: every file is read again.
      const longer = await loadContentInParallel({ ...options, excerptLength: 40 }, memory);
      const kept40 = longer.content.topics.find((topic) => topic.slug === kept.slug)!;
      expect(kept40.title).toBe(kept.title);
      expect(kept40.excerptText.length).toBeLessThan(kept.excerptText.length);
    } finally {
      writeFileSync(editedFile, editedText);
      writeFileSync(movedFile, movedText);
    }
  });

  it("takes files' stamps from the content's listing where it noted them, taken before the read: a file written after it is read by the next build", async () => {
    const first = await loadContentInParallel(options);
    const listedKept = first.content.topics[7]!;
    const memory = new Map(first.memory);
    const remembered = memory.get(listedKept.file)!;
    memory.set(listedKept.file, { ...remembered, read: { ...remembered.read!, topic: { ...remembered.read!.topic, title: 'From memory' } } });
    const { stamps } = stampListing(dir);
    const keptFile = join(dir, listedKept.file);
    expect(stamps.get(keptFile)).toBe(fileStamp(keptFile));
    expect(stamps.size).toBe(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length);
    const keptText = readFileSync(keptFile, 'utf8');
    // Written after the listing: this build goes by the listing (and its stamp says the file as listed).
    writeFileSync(keptFile, keptText);
    try {
      const second = await loadContentInParallel(options, memory, stamps);
      expect(second.content.topics.find((topic) => topic.slug === listedKept.slug)!.title).toBe('From memory');
      // Without the listing's stamps the file is looked up now, and read again.
      const third = await loadContentInParallel(options, memory);
      expect(third.content.topics.find((topic) => topic.slug === listedKept.slug)!.title).toBe(listedKept.title);
    } finally {
      writeFileSync(keptFile, keptText);
    }
  });

  it('gives every topic a key that changes with its record only: kept with a file from memory, the same for the same bytes read again, another when it or its canonical tags change', async () => {
    const first = await loadContentInParallel(options, new Map());
    expect(first.keys.size).toBe(1600);
    const keyOf = (loaded: typeof first) => new Map(loaded.content.topics.map((topic) => [topic.slug, loaded.keys.get(topic)]));
    const before = keyOf(first);
    expect(new Set(before.values()).size).toBe(1600);
    // One file from each thread's share is changed; one is written again with the same bytes.
    const [edited, rewritten] = [first.content.topics[10]!, first.content.topics[1450]!];
    const editedFile = join(dir, edited.file);
    const editedText = readFileSync(editedFile, 'utf8');
    writeFileSync(editedFile, editedText.replace(/^title: .*$/m, 'title: "A title written again"'));
    const rewrittenFile = join(dir, rewritten.file);
    const rewrittenText = readFileSync(rewrittenFile, 'utf8');
    writeFileSync(rewrittenFile, rewrittenText);
    // A tag of the edited topic becomes the synonym of another tag of the site.
    const synonym = first.content.topics[20]!.tags[0]!;
    const canonical = first.content.topics.flatMap((topic) => topic.tags).find((tag) => tag !== synonym)!;
    const tagsFile = join(dir, 'tags.json');
    try {
      const second = keyOf(await loadContentInParallel(options, first.memory));
      expect(second.get(edited.slug)).not.toBe(before.get(edited.slug));
      expect([...second].filter(([slug, key]) => slug !== edited.slug && key !== before.get(slug))).toEqual([]);
      writeFileSync(tagsFile, JSON.stringify({ [canonical]: { synonyms: [synonym] } }));
      const withSynonym = await loadContentInParallel(options, first.memory);
      const tagged = new Set(first.content.topics.filter((topic) => topic.tags.includes(synonym)).map((topic) => topic.slug));
      const changed = [...keyOf(withSynonym)].filter(([slug, key]) => key !== second.get(slug)).map(([slug]) => slug);
      expect(new Set(changed)).toEqual(tagged);
    } finally {
      writeFileSync(editedFile, editedText);
      writeFileSync(rewrittenFile, rewrittenText);
      rmSync(tagsFile, { force: true });
    }
  });

  it('reads every unchanged file again when content-types.json changed: a forum taken out is reported in each of its topics', async () => {
    const first = await loadContentInParallel(options);
    const forum = first.content.topics[0]!.contentType;
    const inForum = first.content.topics.filter((topic) => topic.contentType === forum).map((topic) => topic.file).sort();
    const typesFile = join(dir, 'content-types.json');
    const typesText = readFileSync(typesFile, 'utf8');
    type Node = { id: string; children?: Node[] };
    const without = (nodes: Node[]): Node[] => nodes.filter((node) => node.id !== forum).map((node) => (node.children ? { ...node, children: without(node.children) } : node));
    const types = JSON.parse(typesText) as Record<string, Node[]>;
    writeFileSync(typesFile, JSON.stringify(Object.fromEntries(Object.entries(types).map(([group, nodes]) => [group, without(nodes)]))));
    try {
      const second = await loadContentInParallel(options, first.memory);
      const blamed = second.problems.filter((problem) => problem.field === 'forum' || problem.field === 'category');
      expect(blamed.map((problem) => problem.file).sort()).toEqual(inForum);
      expect(inForum.length).toBeGreaterThan(10);
    } finally {
      writeFileSync(typesFile, typesText);
    }
  });
});
