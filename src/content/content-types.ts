import type { ContentTypes, Forum } from './schema-types.ts';
import type { JsonFile } from './json-file.ts';
import { schemaProblems } from './schema-validation.ts';
import type { Problem } from './problems.ts';
import { readAliases, type DeclaredAlias } from './aliases.ts';

/** One choice of the Content Type filter, flattened out of content-types.json. */
export interface ContentType {
  id: string;
  name: string;
  group: 'forum' | 'category' | 'featureCategory';
  /** For categories: articles, pages, databases, templates or media. */
  kind?: string;
  /** Ids from the top of the forum tree down to this one (just `[id]` outside forums). */
  path: string[];
}

export interface ContentTypeIndex {
  list: ContentType[];
  byId: Map<string, ContentType>;
  /** Every forum id with the ids of all its sub-forums (itself included): a forum filter includes its sub-forums. */
  subtree: Map<string, string[]>;
  /** Old addresses of forums and categories (`aliases`). */
  aliases?: DeclaredAlias[];
}

type Entry = Record<string, unknown> & { id: string };

/** Entries of a list that have a text id. */
function withIds(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter((item): item is Entry => typeof item?.id === 'string') : [];
}

function readableForums(value: unknown): Forum[] {
  return withIds(value).map((forum) => ({ id: forum.id, name: String(forum.name ?? forum.id), children: readableForums(forum.children) }));
}

/**
 * What can still be read of a content-types.json that breaks its schema: every entry with a text
 * id. Topics are then checked against the ids that are there, rather than all reported as naming
 * unknown ids because of one bad `kind`.
 */
function readableTypes(data: unknown): ContentTypes {
  const groups = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const entries = (value: unknown) => withIds(value).map((entry) => ({ ...entry, name: String(entry.name ?? entry.id) }));
  return {
    forums: readableForums(groups.forums),
    categories: entries(groups.categories) as ContentTypes['categories'],
    featureCategories: entries(groups.featureCategories),
  };
}

/** Validates content-types.json and flattens it; ids must be unique across all three groups. */
export function readContentTypes(json: JsonFile, file: string): { index: ContentTypeIndex; problems: Problem[] } {
  const problems = schemaProblems('contentTypes', json.data, file, json.lineOf);
  const list: ContentType[] = [];
  const subtree = new Map<string, string[]>();
  const seen = new Map<string, string>();
  const aliases: DeclaredAlias[] = [];
  const addAliases = (entry: { id: string; name: string; aliases?: unknown }, pointer: string, field: string) =>
    aliases.push(...readAliases(entry.aliases, { file, field: `${field}.aliases`, pointer: `${pointer}/aliases`, lineOf: json.lineOf }, { kind: 'type', id: entry.id, name: entry.name }, problems));
  const data = problems.length === 0 ? (json.data as ContentTypes) : readableTypes(json.data);

  const claim = (id: string, pointer: string, field: string) => {
    const first = seen.get(id);
    if (first) {
      problems.push({ file, line: json.lineOf(pointer), field, message: `duplicate id '${id}' (already used at ${first})` });
      return false;
    }
    seen.set(id, field);
    return true;
  };

  const walk = (forums: Forum[], path: string[], pointer: string, field: string): string[] => {
    const ids: string[] = [];
    forums.forEach((forum, i) => {
      const here = `${field}[${i}]`;
      if (!claim(forum.id, `${pointer}/${i}/id`, `${here}.id`)) return;
      list.push({ id: forum.id, name: forum.name, group: 'forum', path: [...path, forum.id] });
      addAliases(forum, `${pointer}/${i}`, here);
      const below = walk(forum.children ?? [], [...path, forum.id], `${pointer}/${i}/children`, `${here}.children`);
      subtree.set(forum.id, [forum.id, ...below]);
      ids.push(forum.id, ...below);
    });
    return ids;
  };
  walk(data.forums, [], '/forums', 'forums');
  (data.categories ?? []).forEach((category, i) => {
    if (!claim(category.id, `/categories/${i}/id`, `categories[${i}].id`)) return;
    list.push({ id: category.id, name: category.name, group: 'category', kind: category.kind, path: [category.id] });
    addAliases(category, `/categories/${i}`, `categories[${i}]`);
  });
  (data.featureCategories ?? []).forEach((feature, i) => {
    if (!claim(feature.id, `/featureCategories/${i}/id`, `featureCategories[${i}].id`)) return;
    list.push({ id: feature.id, name: feature.name, group: 'featureCategory', path: [feature.id] });
    addAliases(feature, `/featureCategories/${i}`, `featureCategories[${i}]`);
  });
  return { index: { list, byId: new Map(list.map((type) => [type.id, type])), subtree, aliases }, problems };
}
