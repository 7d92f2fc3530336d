/**
 * `import-workflows`: turns an existing workflow list (either key style) into topic files, the
 * forums its types need (content-types.json) and the members its authors need (members.json).
 * It never overwrites a topic file, skips items a topic already shares, and writes every file
 * atomically while holding a lock, after reading the content again under it.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import slugify from '@sindresorhus/slugify';
import { isProblem, readJsonFile } from '../content/json-file.ts';
import { readContentTypes } from '../content/content-types.ts';
import { readTopic } from '../content/topics.ts';
import { normaliseTag } from '../model/tags.ts';
import { memberKey } from '../model/members.ts';
import type { WorkflowKey } from '../model/workflow-list.ts';
import type { Problem } from '../content/problems.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { withLock, LockBusyError } from './lock.ts';
import { slugFromTitle, uniqueSlug } from './new-topic.ts';
import { convertItem, readList, renamedFile, reportField, type ItemValues } from './workflow-import-items.ts';
import { addChildForum, appendMembers, createFileAtomic, IMPORT_MARK, topicText, workflowClaims } from './import-workflows-files.ts';
import { parseContentDate } from '../content/dates.ts';

export const IMPORT_WORKFLOWS_COMMAND = 'import-workflows';
export const IMPORT_WORKFLOWS_OPTIONS = { content: 'string', forum: 'string', date: 'string', 'dry-run': 'boolean' } as const;

export { IMPORT_MARK };

export interface ImportRequest {
  /** The project root (report paths are relative to it). */
  root: string;
  list: string;
  contentDir: string;
  /** The forum the type forums go under (added when missing). */
  forum: string;
  /** `created` of new topics and `joined` of new members, `YYYY-MM-DD`. */
  date: string;
  dryRun: boolean;
}

export interface ImportOutcome {
  /** One line each: every item skipped, every value changed, and notes about the whole list. */
  report: Problem[];
  imported: number;
  skipped: number;
  alreadyImported: number;
  changedValues: number;
  written: { topics: string[]; members: number; forums: number };
}

/** Plans the import against the content as it is now and, unless a dry run, writes it. */
function importNow(request: ImportRequest, listText: string): ImportOutcome | { problems: Problem[] } {
  const listFile = relative(request.root, request.list) || request.list;
  const read = readList(listText, listFile);
  if ('problem' in read) return { problems: [read.problem] };
  const { items, style } = read;
  const report: Problem[] = [...read.notes, ...read.skipped];
  const at = (index: number, line: number | undefined, key: WorkflowKey | undefined, name: string, message: string) =>
    report.push({ file: listFile, ...(line ? { line } : {}), field: reportField(index, key, style), message: `${JSON.stringify(name)}: ${message}` });

  const typesPath = join(request.contentDir, 'content-types.json');
  const typesFile = relative(request.root, typesPath);
  const typesJson = readJsonFile(typesPath, typesFile, { problem: 'the file is missing' });
  if (isProblem(typesJson)) return { problems: [typesJson] };
  const { index: types, problems: typeProblems } = readContentTypes(typesJson, typesFile);
  if (typeProblems.length > 0) return { problems: typeProblems };
  const membersPath = join(request.contentDir, 'members.json');
  const membersJson = readJsonFile(membersPath, relative(request.root, membersPath));
  if (membersJson && isProblem(membersJson)) return { problems: [membersJson] };
  const members = new Map(((membersJson?.data ?? []) as Array<{ name: string; website?: string }>).map((m) => [memberKey(m.name), m]));
  const { claims, slugs } = workflowClaims(request.contentDir);

  // 1. Each item's values, with duplicates of a file resolved in list order.
  const accepted: Array<{ index: number; line?: number; values: ItemValues }> = [];
  const byFile = new Map<string, ItemValues>();
  let skipped = read.skipped.length;
  let changedValues = 0;
  for (const { index, line, values: given } of items) {
    const name = given['workflow-name'] || given['workflow-file'];
    const converted = convertItem(given);
    if ('skip' in converted) {
      at(index, line, undefined, name, converted.skip);
      skipped++;
      continue;
    }
    const { values, changes } = converted;
    const first = byFile.get(values['workflow-file']);
    if (first && JSON.stringify(first) === JSON.stringify(values)) {
      at(index, line, undefined, name, `skipped: the same item as an earlier one with the file ${JSON.stringify(values['workflow-file'])}`);
      skipped++;
      continue;
    }
    if (first) {
      let n = 2;
      while (byFile.has(renamedFile(values['workflow-file'], n))) n++;
      const file = renamedFile(values['workflow-file'], n);
      changes.push({ key: 'workflow-file', message: `a second item with the file ${JSON.stringify(values['workflow-file'])}: imported as ${JSON.stringify(file)} (its backup download is made from this name)` });
      values['workflow-file'] = file;
    }
    byFile.set(values['workflow-file'], values);
    const claim = claims.get(values['workflow-file']);
    if (claim && !claim.imported) {
      at(index, line, 'workflow-file', name, `skipped: ${relative(request.root, claim.file)} already shares this workflow file; it is left as it is`);
      skipped++;
      continue;
    }
    accepted.push({ index, line, values });
    if (claim) continue; // imported by an earlier run: nothing to report again
    for (const change of changes) at(index, line, change.key, name, change.message);
    changedValues += changes.length;
  }

  // 2. Forums per type, members per author (the site their items name most often).
  const contentTypes = typesJson.data as { forums?: unknown[] };
  let typesText = typesJson.text;
  let forumsAdded = 0;
  const parentPath = (() => {
    const found = types.byId.get(request.forum);
    return found?.group === 'forum' ? found.path : undefined;
  })();
  if (!parentPath && !request.dryRun) {
    typesText = applyEdits(typesText, modify(typesText, ['forums', (contentTypes.forums ?? []).length], { id: request.forum, name: 'Workflows' }, { isArrayInsertion: true, formattingOptions: { insertSpaces: true, tabSize: 2 } }));
    forumsAdded++;
  }
  const typeOf = new Map<string, { field: 'forum' | 'category'; id: string }>();
  const taken = new Set(types.byId.keys());
  taken.add(request.forum);
  const newForums: Array<{ id: string; name: string }> = [];
  const typeFor = (name: string) => {
    if (name === '') return { field: 'forum' as const, id: request.forum };
    const known = typeOf.get(name) ?? [...types.byId.values()].find((type) => type.name === name);
    if (known) return 'field' in known ? known : { field: known.group === 'forum' ? ('forum' as const) : ('category' as const), id: known.id };
    const id = uniqueSlug(slugify(name).slice(0, 70).replace(/-+$/, '') || 'workflows', taken);
    taken.add(id);
    newForums.push({ id, name });
    const type = { field: 'forum' as const, id };
    typeOf.set(name, type);
    return type;
  };
  const sites = new Map<string, Map<string, number>>();
  for (const { values } of accepted) {
    const key = memberKey(values['workflow-author-name']);
    const counts = sites.get(key) ?? new Map<string, number>();
    if (values['workflow-author-site']) counts.set(values['workflow-author-site'], (counts.get(values['workflow-author-site']) ?? 0) + 1);
    sites.set(key, counts);
  }
  const newMembers: Array<{ name: string; joined: string; group: string; website?: string }> = [];
  for (const { values } of accepted) {
    const key = memberKey(values['workflow-author-name']);
    if (members.has(key)) continue;
    const website = [...(sites.get(key) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0];
    const member = { name: values['workflow-author-name'], joined: request.date, group: 'Members', ...(website ? { website } : {}) };
    members.set(key, member);
    newMembers.push(member);
  }

  // 3. The topics: checked by the build's own reader before anything is written.
  const topics: Array<{ path: string; text: string }> = [];
  for (const { index, line, values } of accepted) {
    if (claims.has(values['workflow-file'])) continue;
    const type = typeFor(values['workflow-type'] === '' ? '' : values['workflow-type']);
    if (values['workflow-type'] === '') {
      at(index, line, 'workflow-type', values['workflow-name'], `no type given: the topic goes to the forum '${request.forum}', whose name is published`);
      changedValues++;
    }
    const tag = normaliseTag(values['workflow-type']);
    const tags = tag && [...tag].length <= 50 ? [tag] : [];
    const memberSite = members.get(memberKey(values['workflow-author-name']))?.website ?? '';
    const authorSite = values['workflow-author-site'] === memberSite ? undefined : values['workflow-author-site'];
    const slug = uniqueSlug(slugFromTitle(values['workflow-name']), slugs);
    slugs.add(slug);
    const path = join(request.contentDir, 'topics', 'workflows', `${slug}.md`);
    const text = topicText(values, type, tags, authorSite, request, index);
    const check = readTopic(`${slug}.md`, text, { contentTypes: types, contentTypesUnreadable: true, excerptLength: 200, render: () => ({ html: '', text: '' }) });
    if (check.problems.length > 0) {
      at(index, line, undefined, values['workflow-name'], `skipped: ${check.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
      skipped++;
      continue;
    }
    topics.push({ path, text });
  }
  if (!request.dryRun) for (const forum of newForums) typesText = addChildForum(typesText, parentPath ?? [request.forum], forum);
  forumsAdded += newForums.length;

  const outcome: ImportOutcome = {
    report,
    imported: topics.length,
    skipped,
    alreadyImported: accepted.filter(({ values }) => claims.has(values['workflow-file'])).length,
    changedValues,
    written: { topics: topics.map(({ path }) => relative(request.root, path)), members: newMembers.length, forums: forumsAdded },
  };
  if (request.dryRun) return outcome;
  if (forumsAdded > 0) writeFileAtomic(typesPath, typesText);
  if (newMembers.length > 0) writeFileAtomic(membersPath, appendMembers(membersJson?.text, membersJson ? (membersJson.data as unknown[]).length : 0, newMembers));
  for (const { path, text } of topics) createFileAtomic(path, text);
  return outcome;
}

/** Runs the import: a dry run reads only; a real one holds the content folder's lock and reads again under it. */
export async function importWorkflows(request: ImportRequest): Promise<ImportOutcome | { problems: Problem[] }> {
  let listText: string;
  try {
    listText = readFileSync(request.list, 'utf8');
  } catch (error) {
    return { problems: [{ file: relative(request.root, request.list) || request.list, field: '(file)', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` }] };
  }
  if (request.dryRun) return importNow(request, listText);
  try {
    return await withLock(join(request.contentDir, '.tagsite-content.lock'), () => importNow(request, listText));
  } catch (error) {
    if (error instanceof LockBusyError) return { problems: [{ file: relative(request.root, request.contentDir), field: '(lock)', message: error.message }] };
    throw error;
  }
}

/** The request from the command line: the list file (the one word that is not an option) and the options, or one problem line each. */
export function importArguments(
  root: string,
  list: string | undefined,
  args: { values: Record<string, string | boolean>; problems: Problem[] },
  today: string,
): ImportRequest | { problems: Problem[] } {
  const problems = [...args.problems];
  const { content, forum = 'share-workflows', date = today } = args.values as Record<string, string | undefined>;
  if (list === undefined) problems.push({ file: IMPORT_WORKFLOWS_COMMAND, field: '<list.json>', message: 'is required: the workflow list file to import, before the options' });
  if (!/^[a-z0-9][a-z0-9-]*$/.test(forum)) problems.push({ file: IMPORT_WORKFLOWS_COMMAND, field: '--forum', message: `'${forum}' is not a forum id (lower-case letters, digits and hyphens)` });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || parseContentDate(date) === undefined) problems.push({ file: IMPORT_WORKFLOWS_COMMAND, field: '--date', message: `'${date}' is not a real calendar date YYYY-MM-DD` });
  if (problems.length > 0) return { problems };
  return { root, list: list!, contentDir: resolve(root, content ?? 'content'), forum, date, dryRun: args.values['dry-run'] === true };
}

/** The closing line: what was found and what was (or would be) written. */
export function summary(outcome: ImportOutcome, dryRun: boolean): string {
  const { imported, skipped, alreadyImported, changedValues, written } = outcome;
  const verb = dryRun ? 'would write' : 'wrote';
  return (
    `${imported} imported, ${skipped} skipped, ${alreadyImported} already imported; ${changedValues} values changed (one line each above); ` +
    `${verb} ${written.topics.length} topics, ${written.members} members, ${written.forums} forums${dryRun ? ' (dry run: nothing written)' : ''}`
  );
}
