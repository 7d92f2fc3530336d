/**
 * A topic's first post, where a build took its record from its memory without it. Apart from
 * ./load.ts, whose reading of topic files (Ajv, gray-matter, marked, sanitize-html) a thread that
 * only needs this would otherwise load: half a second of the index thread's start.
 */
import type { RenderedPost, Topic } from './topics.ts';

/** A post kept where the build keeps its posts (../build/post-memory.ts), whose HTML and text are read together. */
interface ReadWhenAsked extends RenderedPost {
  rendering(): RenderedPost;
}

/** A post's HTML and text, each read once where it is kept apart. */
export function renderingOf(post: RenderedPost): RenderedPost {
  return typeof (post as Partial<ReadWhenAsked>).rendering === 'function' ? (post as ReadWhenAsked).rendering() : post;
}

/** Whether a record holds no post: its post is kept apart (SiteContent.keptPosts), or it has none to show. */
export function holdsNoPost(topic: Topic): boolean {
  return topic.html === '' && topic.text === '';
}

/** The record without its post: the record itself when it already holds none, so that it stays the one object others hold too. */
export function withoutPost(topic: Topic): Topic {
  return holdsNoPost(topic) ? topic : { ...topic, html: '', text: '' };
}

/** A topic's first post: its record's, or the one the build kept out of it (SiteContent.keptPosts, ./load.ts). */
export function postOf(content: { keptPosts?: ReadonlyMap<string, RenderedPost> }, topic: Topic): RenderedPost {
  const kept = holdsNoPost(topic) ? content.keptPosts?.get(topic.slug) : undefined;
  return kept ? renderingOf(kept) : topic;
}
