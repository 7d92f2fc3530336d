/** Posts sent to the index thread as their places in the topic memory's chunk files, and read there. */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rememberPosts } from '../../src/build/post-memory.ts';
import { placesToSend, postPlace, sentTexts } from '../../src/build/chunk-posts.ts';
import type { RenderMemory } from '../../src/content/read-topics.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-chunk-posts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sends the posts in chunk files as their places, each file named once, and reads each record\'s text from there', () => {
  const cache = join(dir, 'cache');
  // Text of every UTF-8 length, an empty post, and more posts than one chunk holds.
  const text = (i: number) => (i === 7 ? '' : `Post ${i}: Grüße — 𝔘 ${'word '.repeat(i % 13)}`);
  const memory: RenderMemory = new Map(Array.from({ length: 2500 }, (_, i) => [`topics/t${i}.md`, { digest: `d${i}`, html: `<p>${text(i)}</p>`, text: text(i) }]));
  const posts = rememberPosts(cache, 'code-1', memory);
  const files = [...memory.keys()];

  // Every other record goes with its post's place; the others keep a text of their own.
  const toSend = placesToSend();
  const records = files.map((file, i) => {
    const place = postPlace(posts.get(file));
    expect(place, file).toBeDefined();
    if (i % 2 === 1) toSend.note(i, place!);
    return { slug: `t${i}`, text: i % 2 === 1 ? '' : `own ${i}` };
  });
  // As the thread gets them: copied as postMessage copies them.
  const sent = structuredClone(toSend.sent);
  const received = structuredClone(records);
  expect(sent.chunks.length).toBeGreaterThan(1);
  expect(new Set(sent.chunks).size, 'each chunk file named once').toBe(sent.chunks.length);
  expect(sent.at.filter(Boolean)).toHaveLength(1250);

  const filesOpen = () => readdirSync('/proc/self/fd').length;
  const before = filesOpen();
  const { textOf, close } = sentTexts(received, sent);
  expect(received.map(textOf)).toEqual(files.map((_, i) => (i % 2 === 1 ? text(i) : `own ${i}`)));
  // The records are left as they came.
  expect(received).toEqual(records);

  // A post in no chunk file has no place.
  expect(postPlace({ html: '<p>x</p>', text: 'x' })).toBeUndefined();
  expect(postPlace(undefined)).toBeUndefined();

  // Read in another order, from more files than are kept open: the same texts.
  const order = [...received.keys()].sort((a, b) => (a % 3) - (b % 3) || b - a);
  const fewOpen = sentTexts(received, sent, 2);
  expect(order.map((i) => fewOpen.textOf(received[i]!))).toEqual(order.map((i) => (i % 2 === 1 ? text(i) : `own ${i}`)));
  expect(filesOpen(), 'each chunk file open once, and two of them at most for the second reader').toBe(before + sent.chunks.length + 2);
  fewOpen.close();

  // The memory's files gone meanwhile (those still open are closed first): reading a text says so, with what to do.
  close();
  expect(filesOpen()).toBe(before);
  rmSync(join(cache, 'posts'), { recursive: true });
  expect(textOf(received[2]!)).toBe('own 2');
  expect(() => textOf(received[3]!)).toThrow(/topic memory is damaged .*--clean/);
});
