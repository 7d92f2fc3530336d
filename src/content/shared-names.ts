/**
 * One string for each name that many topics carry: their tags, author, content type and group. A
 * topic file's reading makes strings of its own, and so does every message that takes the records
 * to another thread: 14 MB of the page thread's heap at 100,000 topics of the benchmark's corpus
 * (600 tags, 400 authors); the main and index threads held their own copies too. Each thread that holds
 * every record shares the names once it has them.
 */
import type { Topic } from './topics.ts';

/** Gives every topic the first string met of each of its names (its records change in place, their values do not). */
export function shareNames(topics: readonly Topic[]): void {
  const names = new Map<string, string>();
  const one = (name: string): string => {
    const met = names.get(name);
    if (met !== undefined) return met;
    names.set(name, name);
    return name;
  };
  for (const topic of topics) {
    topic.author = one(topic.author);
    topic.contentType = one(topic.contentType);
    topic.contentGroup = one(topic.contentGroup) as Topic['contentGroup'];
    const { tags } = topic;
    for (let i = 0; i < tags.length; i++) tags[i] = one(tags[i]!);
  }
}
