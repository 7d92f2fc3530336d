/**
 * Each name many topics carry (tags, author, content type and group) is one string in a thread
 * that holds every record, however many copies the records came with (a message to a thread makes
 * one a record).
 */
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { shareNames } from '../../src/content/shared-names.ts';
import type { Topic } from '../../src/content/topics.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const topic = (i: number, tags: string[], author: string): Topic => ({
  slug: `heron-notes-${i}`,
  file: `content/topics/heron-notes-${i}.md`,
  title: `Heron notes, part ${i}`,
  author,
  createdMs: Date.UTC(2025, 2, 1, 8),
  updatedMs: Date.UTC(2025, 2, 2, 8),
  contentType: 'field-reports',
  contentGroup: 'forum',
  tags,
  replies: i % 7,
  views: i * 3,
  excerptText: `What the herons did on day ${i}.`,
  excerptCut: false,
  html: '',
  text: '',
});

describe('shareNames', () => {
  it('changes no value of any record, and keeps each topic its own tags in their order', () => {
    const topics = [topic(1, ['wading-birds', 'estuary'], 'marta-okafor'), topic(2, ['estuary', 'tides', 'wading-birds'], 'ilse-varga'), topic(3, [], 'marta-okafor')];
    const before = structuredClone(topics);
    const sent = structuredClone(topics);
    shareNames(sent);
    expect(sent).toEqual(before);
    sent[0]!.tags.push('dusk');
    expect(sent[1]!.tags).toEqual(['estuary', 'tides', 'wading-birds']);
  });

  it('keeps one copy of each name for records that arrived with a copy each', () => {
    const tags = ['a', 'b', 'c'].map((letter) => `${letter}-${'long-tag-name-'.repeat(30)}`);
    const author = `member-${'with-a-long-name-'.repeat(20)}`;
    const count = 20_000;
    // A message to a thread gives every record strings of its own, as structuredClone does.
    const topics = structuredClone(Array.from({ length: count }, (_, i) => topic(i, [...tags], author)));
    const namesBytes = count * (tags.join('').length + author.length);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    shareNames(topics);
    collectGarbage();
    const freed = before - process.memoryUsage().heapUsed;
    expect(namesBytes).toBeGreaterThan(30_000_000);
    expect(freed).toBeGreaterThan(namesBytes * 0.8);
    expect(topics[count - 1]!.tags).toEqual(tags);
    expect(topics[count - 1]!.author).toBe(author);
  });
});
