/**
 * The old addresses of imported tags (a forum's tag pages) into tags.json as `aliases`, beside the
 * synonyms and descriptions people wrote: a tag that is a synonym gives its address to its tag. An
 * address that is already the tag's own page here (`/tags/<tag>/` on Invision Community) is left out.
 */
import { join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { isProblem, readJsonFile, type JsonLimits } from '../content/json-file.ts';
import { readTags } from '../content/tags.ts';
import { ALIASES_MAX } from '../content/aliases.ts';
import type { Problem } from '../content/problems.ts';
import { normaliseTag, tagProblem } from '../model/tags.ts';
import { tagPath } from '../model/urls.ts';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { shownPath } from './content-data.ts';
import { aliasesOf } from './old-links.ts';
import type { ImportState } from './state.ts';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
const bare = (path: string) => path.replace(/(.)\/$/, '$1');

/** Each imported tag (normalised) with its old addresses that are not its page here. */
export function importedTagAliases(state: ImportState): Map<string, string[]> {
  const wanted = new Map<string, string[]>();
  for (const [raw, url] of Object.entries(state.tags)) {
    const tag = normaliseTag(raw);
    if (tagProblem(tag)) continue;
    const aliases = aliasesOf([url], state.url).filter((alias) => bare(alias) !== bare(tagPath(tag)));
    if (aliases.length > 0) wanted.set(tag, [...new Set([...(wanted.get(tag) ?? []), ...aliases])]);
  }
  return wanted;
}

/** tags.json's text with the aliases it lacks added (each entry's own kept, at most ALIASES_MAX an entry). */
export function addTagAliases(text: string, canonicalOf: ReadonlyMap<string, string>, wanted: ReadonlyMap<string, string[]>): string {
  let out = text;
  const data = JSON.parse(text) as Record<string, { aliases?: unknown } | undefined>;
  const keyOf = new Map(Object.keys(data).map((key) => [normaliseTag(key), key]));
  for (const [tag, aliases] of wanted) {
    const canonical = canonicalOf.get(tag) ?? tag;
    const key = keyOf.get(canonical) ?? canonical;
    const listed = Array.isArray(data[key]?.aliases) ? (data[key]!.aliases as unknown[]) : undefined;
    const missing = aliases.filter((alias) => !listed?.includes(alias)).slice(0, Math.max(0, ALIASES_MAX - (listed?.length ?? 0)));
    if (missing.length === 0) continue;
    if (!keyOf.has(canonical)) {
      out = applyEdits(out, modify(out, [key], { aliases: missing }, FORMAT));
      keyOf.set(canonical, key);
    } else if (listed) {
      for (const [i, alias] of missing.entries()) out = applyEdits(out, modify(out, [key, 'aliases', listed.length + i], alias, { isArrayInsertion: true, ...FORMAT }));
    } else out = applyEdits(out, modify(out, [key, 'aliases'], missing, FORMAT));
    data[key] = { ...(data[key] ?? {}), aliases: [...(listed ?? []), ...missing] };
  }
  return out;
}

/** Re-reads tags.json, adds the imported tags' old addresses and writes it (under the content lock); its problems, if it has any. */
export function writeTagAliases(root: string, contentDir: string, limits: JsonLimits, state: ImportState): Problem[] {
  const wanted = importedTagAliases(state);
  if (wanted.size === 0) return [];
  const path = join(contentDir, 'tags.json');
  const shown = shownPath(root, path);
  const notWritten = (problems: Problem[]) => problems.map((problem) => ({ ...problem, message: `${problem.message} (the tags' old addresses were not written)` }));
  const json = readJsonFile(path, shown, { text: '{}\n' }, limits);
  if (isProblem(json)) return notWritten([json]);
  const read = readTags(json, shown);
  if (read.problems.length > 0) return notWritten(read.problems);
  const text = addTagAliases(json.text, read.tags.canonicalOf, wanted);
  if (text === json.text) return [];
  const check = readTags({ data: JSON.parse(text), lineOf: () => undefined }, shown);
  if (check.problems.length > 0) return notWritten(check.problems);
  writeFileAtomic(path, text);
  return [];
}
