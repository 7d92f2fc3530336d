import { defineCollection } from 'astro:content';
import type { Loader, LoaderContext } from 'astro/loaders';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import options from 'virtual:tagsite/options';
import { loadContent, type SiteContent } from './lib/content.ts';
import { ContentProblemsError } from './lib/problems.ts';
import { takeHandedContent } from './lib/content-handoff.ts';

// All four content files are validated together (a topic's forum must exist in content-types.json),
// once per build; each collection's loader takes its part of the result.
let loaded: SiteContent | undefined;

function siteContent(context: LoaderContext): SiteContent {
  if (!loaded) {
    const root = fileURLToPath(context.config.root);
    const contentDir = resolve(root, process.env.TAGSITE_CONTENT ?? 'content');
    const handed = takeHandedContent(contentDir, options.excerptLength);
    if (handed) loaded = handed;
    else {
      const { content, problems } = loadContent({ root, contentDir, excerptLength: options.excerptLength });
      if (problems.length > 0) throw new ContentProblemsError(problems);
      loaded = content;
    }
    // In `astro dev`, edits to content/ reload everything.
    context.watcher?.on('all', (_event, path) => {
      if (path.startsWith(contentDir)) loaded = undefined;
    });
  }
  return loaded;
}

function tagsiteLoader(name: string, entries: (content: SiteContent) => Array<{ id: string; data: Record<string, unknown> }>): Loader {
  return {
    name: `tagsite-${name}`,
    load: async (context) => {
      const list = entries(siteContent(context));
      context.store.clear();
      for (const { id, data } of list) context.store.set({ id, data, digest: context.generateDigest(data) });
    },
  };
}

export const collections = {
  topics: defineCollection({
    loader: tagsiteLoader('topics', (content) =>
      content.topics.map((topic) => ({ id: topic.slug, data: { ...topic } })),
    ),
  }),
  contentTypes: defineCollection({
    loader: tagsiteLoader('content-types', (content) =>
      content.contentTypes.list.map((type, order) => ({ id: type.id, data: { ...type, order } })),
    ),
  }),
  members: defineCollection({
    loader: tagsiteLoader('members', (content) => content.members.map((member, order) => ({ id: member.name, data: { ...member, order } }))),
  }),
  links: defineCollection({
    loader: tagsiteLoader('links', (content) =>
      content.links.map((record, order) => ({ id: String(order).padStart(6, '0'), data: { ...record, order } })),
    ),
  }),
};
