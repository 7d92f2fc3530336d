/**
 * What an import adds to content-types.json (the forums, under their parents) and members.json
 * (profiles), read again and written atomically under the content lock, the files' formatting and
 * the entries people wrote kept as they are.
 */
import { join, relative, sep } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { isProblem, readJsonFile, type JsonLimits } from '../content/json-file.ts';
import { readContentTypes, type ContentTypeIndex } from '../content/content-types.ts';
import { readMembers, type Member } from '../content/members.ts';
import { memberKey } from '../model/members.ts';
import { PUBLISHABLE_URL } from '../model/workflow-list.ts';
import type { Problem } from '../content/problems.ts';
import { addChildForum, appendMembers } from '../cli/import-workflows-files.ts';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { isoSecond } from './mapping.ts';
import type { SourceMember } from './source.ts';
import type { ImportState } from './state.ts';
import { textHash } from './state.ts';
import { aliasesOf } from './old-links.ts';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
const EMPTY_TYPES = '{\n  "forums": []\n}\n';

/** A path as problem lines show it: relative to the project root, with `/`. */
export function shownPath(root: string, path: string): string {
  const shown = relative(root, path);
  return shown.startsWith('..') ? path : shown.split(sep).join('/');
}

/** content-types.json (an empty forum list when the file is missing) and its index, or its problems. */
export function readTypes(root: string, contentDir: string, limits: JsonLimits): { text: string; index: ContentTypeIndex } | { problems: Problem[] } {
  const path = join(contentDir, 'content-types.json');
  const json = readJsonFile(path, shownPath(root, path), { text: EMPTY_TYPES }, limits);
  if (isProblem(json)) return { problems: [json] };
  const { index, problems } = readContentTypes(json, shownPath(root, path));
  return problems.length > 0 ? { problems } : { text: json.text, index };
}

/** A forum to add: its id, name, the id of the forum it goes under (none: at the top), and its old addresses. */
export interface NewForum {
  id: string;
  name: string;
  parent?: string;
  aliases?: string[];
}

/** Where a forum is in content-types.json, as a JSON path (`forums`, 0, `children`, 2), with its entry. */
function forumAt(text: string, path: readonly string[]): { at: Array<string | number>; entry: Record<string, unknown> } | undefined {
  let level = (JSON.parse(text) as { forums?: Array<Record<string, unknown>> }).forums ?? [];
  const at: Array<string | number> = ['forums'];
  let entry: Record<string, unknown> | undefined;
  for (const id of path) {
    const i = level.findIndex((forum) => forum.id === id);
    if (i < 0) return undefined;
    if (entry) at.push('children');
    at.push(i);
    entry = level[i]!;
    level = Array.isArray(entry.children) ? (entry.children as Array<Record<string, unknown>>) : [];
  }
  return entry ? { at, entry } : undefined;
}

/** content-types.json with the forums it lacks added (parents listed before children); how many were added. */
export function addForums(text: string, index: ContentTypeIndex, forums: readonly NewForum[]): { text: string; added: string[] } {
  let out = text;
  const paths = new Map<string, string[]>(index.list.filter((type) => type.group === 'forum').map((type) => [type.id, type.path]));
  const added: string[] = [];
  for (const forum of forums) {
    const entry = { id: forum.id, name: forum.name, ...(forum.aliases?.length ? { aliases: forum.aliases } : {}) };
    if (index.byId.has(forum.id) || paths.has(forum.id)) {
      // A forum an import wrote before it recorded old addresses gets them; aliases already there are kept.
      const found = forum.aliases?.length && paths.has(forum.id) ? forumAt(out, paths.get(forum.id)!) : undefined;
      if (found && found.entry.aliases === undefined) out = applyEdits(out, modify(out, [...found.at, 'aliases'], forum.aliases, FORMAT));
      continue;
    }
    const parentPath = forum.parent === undefined ? undefined : paths.get(forum.parent);
    if (parentPath) out = addChildForum(out, parentPath, entry);
    else {
      const top = (JSON.parse(out) as { forums?: unknown[] }).forums ?? [];
      out = applyEdits(out, modify(out, ['forums', top.length], entry, { isArrayInsertion: true, ...FORMAT }));
    }
    paths.set(forum.id, [...(parentPath ?? []), forum.id]);
    added.push(forum.id);
  }
  return { text: out, added };
}

/** Re-reads content-types.json, adds the forums it lacks and writes it; the ids added, or the file's problems. */
export function writeForums(root: string, contentDir: string, limits: JsonLimits, forums: readonly NewForum[]): { added: string[]; index: ContentTypeIndex } | { problems: Problem[] } {
  const types = readTypes(root, contentDir, limits);
  if ('problems' in types) return types;
  const { text, added } = addForums(types.text, types.index, forums);
  if (text === types.text) return { added, index: types.index };
  writeFileAtomic(join(contentDir, 'content-types.json'), text);
  const again = readTypes(root, contentDir, limits);
  return 'problems' in again ? again : { added, index: again.index };
}

const FIELD_MAX: Partial<Record<keyof Member, number>> = { group: 80, twitter: 80, jabber: 200, location: 200, interests: 500 };

/** A forum profile as a members.json record, with every value changed or left out named; undefined (and why) when it cannot be one. */
export function memberRecord(source: SourceMember, base: string): { member: Member; notes: string[] } | { skip: string } {
  const notes: string[] = [];
  const name = source.name.replace(/\s+/g, ' ').trim();
  if (name === '' || [...name].length > 80) return { skip: `name ${JSON.stringify(source.name)} is empty or over 80 characters` };
  const joined = isoSecond(source.joined)?.slice(0, 10);
  if (!joined) return { skip: `no valid join date (${JSON.stringify(source.joined ?? null)})` };
  const member: Member = { name, joined, group: (source.group ?? '').trim() || 'Members' };
  for (const field of ['twitter', 'website', 'jabber', 'location', 'interests'] as const) {
    const value = source[field]?.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
    if (!value) continue;
    if (field === 'website' && !PUBLISHABLE_URL.test(value)) {
      notes.push(`website ${JSON.stringify(value)} is not an http or https address: left out`);
      continue;
    }
    const max = FIELD_MAX[field];
    if (max !== undefined && [...value].length > max) {
      notes.push(`${field} is ${[...value].length} characters: cut to ${max}`);
      member[field] = [...value].slice(0, max).join('').trimEnd();
    } else member[field] = value;
  }
  if ([...member.group].length > 80) member.group = [...member.group].slice(0, 80).join('').trimEnd();
  const aliases = aliasesOf([source.url], base);
  if (aliases.length > 0) member.aliases = aliases;
  return { member, notes };
}

/**
 * members.json with the imported members: new names appended at the end; a member an earlier import
 * wrote, and nobody changed since, brought up to date; every other member kept as it is. At most
 * `maxRecords` records in all (those beyond are left out and counted).
 */
export function mergeMembers(text: string | undefined, current: Member[], imported: Member[], state: ImportState, maxRecords: number): { text: string; added: number; updated: number; leftOut: number; hashes: Record<string, string> } {
  const at = new Map(current.map((member, i) => [memberKey(member.name), i]));
  let out = text;
  const fresh: Member[] = [];
  let updated = 0;
  let leftOut = 0;
  const hashes: Record<string, string> = {};
  for (const member of imported) {
    const key = memberKey(member.name);
    const hash = textHash(JSON.stringify(member));
    const index = at.get(key);
    if (index === undefined) {
      if (current.length + fresh.length >= maxRecords) {
        leftOut++;
        continue;
      }
      at.set(key, current.length + fresh.length);
      fresh.push(member);
      hashes[member.name] = hash;
      continue;
    }
    const existing = current[index];
    const ours = existing && state.members[existing.name]?.hash === textHash(JSON.stringify(existing));
    if (!ours || !existing || out === undefined) continue;
    hashes[member.name] = hash;
    if (JSON.stringify(existing) === JSON.stringify(member)) continue;
    out = applyEdits(out, modify(out, [index], member, FORMAT));
    updated++;
  }
  if (fresh.length > 0) out = appendMembers(out, current.length, fresh);
  return { text: out ?? '[]\n', added: fresh.length, updated, leftOut, hashes };
}

/** members.json as it is: its text and records, or its problem. */
export function readMemberFile(root: string, contentDir: string, limits: JsonLimits): { text?: string; members: Member[] } | { problems: Problem[] } {
  const path = join(contentDir, 'members.json');
  const json = readJsonFile(path, shownPath(root, path), undefined, limits);
  if (json === undefined) return { members: [] };
  if (isProblem(json)) return { problems: [json] };
  const { members, problems } = readMembers(json, shownPath(root, path));
  return problems.length > 0 ? { problems } : { text: json.text, members };
}
