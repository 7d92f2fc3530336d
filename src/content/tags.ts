import type { Tags } from './schema-types.ts';
import type { JsonFile } from './json-file.ts';
import { schemaProblems, pointerToField } from './schema-validation.ts';
import { normaliseTag, tagProblem } from '../model/tags.ts';
import type { Problem } from './problems.ts';
import { readAliases, type DeclaredAlias } from './aliases.ts';

/** What tags.json says: which tags are synonyms of which, and the tags' descriptions. */
export interface TagDefinitions {
  /** Synonym → its canonical tag (both normalised). */
  canonicalOf: Map<string, string>;
  /** Canonical tag → its description. */
  descriptions: Map<string, string>;
  /** Old addresses of tags' pages (`aliases`). */
  aliases: DeclaredAlias[];
}

/** A site without tags.json: no synonyms, no descriptions. */
export function noTagDefinitions(): TagDefinitions {
  return { canonicalOf: new Map(), descriptions: new Map(), aliases: [] };
}

const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const quoted = (tags: readonly string[]) => tags.map((tag) => `'${tag}'`).join(', ');

/** One entry of the file as far as its rules can read it (the schema reports the rest). */
interface Entry {
  key: string;
  tag: string;
  synonyms: Array<{ raw: string; tag: string; index: number }>;
}

/** The entries whose key and synonyms are readable tags; key problems (bad tag, two keys for one tag) go to `problem`. */
function readableEntries(data: Record<string, unknown>, problem: (pointer: string, message: string, field?: string) => void): Entry[] {
  const entries: Entry[] = [];
  const keyOf = new Map<string, string>();
  for (const [key, value] of Object.entries(data)) {
    const tag = normaliseTag(key);
    const wrong = tagProblem(tag);
    const first = keyOf.get(tag);
    // The key is quoted: an empty key or one with spaces around it would not show otherwise.
    if (wrong) problem(`/${pointerKey(key)}`, wrong, JSON.stringify(key));
    else if (first !== undefined) problem(`/${pointerKey(key)}`, `the tag '${tag}' has two entries (also ${JSON.stringify(first)}, the same after trimming and lower-casing): merge them`, JSON.stringify(key));
    if (wrong || first !== undefined) continue;
    keyOf.set(tag, key);
    const list = (value as { synonyms?: unknown })?.synonyms;
    const synonyms = (Array.isArray(list) ? list : []).flatMap((raw: unknown, index) => (typeof raw === 'string' ? [{ raw, tag: normaliseTag(raw), index }] : []));
    entries.push({ key, tag, synonyms });
  }
  return entries;
}

/** The tags from `start` through keys' synonyms to `goal`, or undefined: a cycle when `start` is a synonym of `goal`. */
function pathTo(start: string, goal: string, synonymsOf: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const cameFrom = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of synonymsOf.get(queue[i]!) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, queue[i]!);
      if (next === goal) {
        const path = [goal];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * Validates tags.json: its schema, then the rules a schema cannot say, all reported at once. Keys and
 * synonyms are normalised as topics' tags; a synonym is of one tag only, never the tag itself nor a
 * key of the file (that would be a chain or a cycle).
 */
export function readTags(json: JsonFile, file: string): { tags: TagDefinitions; problems: Problem[] } {
  const problems = schemaProblems('tags', json.data, file, json.lineOf);
  const tags = noTagDefinitions();
  if (json.data === null || typeof json.data !== 'object' || Array.isArray(json.data)) return { tags, problems };
  const problem = (pointer: string, message: string, field = pointerToField(pointer)) => problems.push({ file, line: json.lineOf(pointer), field, message });
  const entries = readableEntries(json.data as Record<string, unknown>, problem);
  const synonymsOf = new Map(entries.map(({ tag, synonyms }) => [tag, synonyms.map((synonym) => synonym.tag)]));
  const claimed = new Map<string, string>();
  const cycles = new Set<string>();
  for (const { key, tag: canonical, synonyms } of entries) {
    const seen = new Set<string>();
    for (const { raw, tag, index } of synonyms) {
      const pointer = `/${pointerKey(key)}/synonyms/${index}`;
      const wrong = tagProblem(tag);
      const owner = claimed.get(tag);
      const cycle = synonymsOf.has(tag) ? pathTo(tag, canonical, synonymsOf) : undefined;
      if (wrong) problem(pointer, wrong);
      else if (tag === canonical) problem(pointer, `${JSON.stringify(raw)} is the tag itself: remove it from its synonyms`);
      else if (seen.has(tag)) problem(pointer, `'${tag}' is listed twice: keep one`);
      else if (owner !== undefined && owner !== canonical) problem(pointer, `'${tag}' is already a synonym of '${owner}': a synonym belongs to one tag only`);
      else if (cycle) {
        const members = [...cycle].sort().join('\0');
        if (!cycles.has(members)) problem(pointer, `a cycle of synonyms: ${[canonical, ...cycle].map((t) => `'${t}'`).join(' → ')}: choose one of them as the tag and list the others as its synonyms`);
        cycles.add(members);
      } else if ((synonymsOf.get(tag) ?? []).length > 0) {
        problem(pointer, `a chain of synonyms: '${tag}' is a synonym of '${canonical}' and has synonyms of its own (${quoted(synonymsOf.get(tag)!)}): list those under '${canonical}' and remove the entry '${tag}'`);
      } else if (synonymsOf.has(tag)) {
        problem(pointer, `'${tag}' is also a tag of its own (an entry of this file): a tag is either canonical or a synonym; remove its entry (its description can move to '${canonical}') or this synonym`);
      }
      seen.add(tag);
      if (owner === undefined && !wrong && tag !== canonical && !synonymsOf.has(tag)) {
        claimed.set(tag, canonical);
        tags.canonicalOf.set(tag, canonical);
      }
    }
  }
  for (const [key, value] of Object.entries(json.data as Tags)) {
    const description = value?.description;
    if (typeof description === 'string' && description.trim() !== '') tags.descriptions.set(normaliseTag(key), description.trim());
  }
  for (const { key, tag } of entries) {
    const value = (json.data as Record<string, { aliases?: unknown }>)[key];
    tags.aliases.push(...readAliases(value?.aliases, { file, field: pointerToField(`/${pointerKey(key)}/aliases`), pointer: `/${pointerKey(key)}/aliases`, lineOf: json.lineOf }, { kind: 'tag', tag }, problems));
  }
  return { tags, problems };
}
