/** import-workflows' reading and writing of the content folder: who shares which workflow file, topic texts, additions to the JSON files. */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { dump } from 'js-yaml';
import { readTopic } from '../content/topics.ts';
import { workflowName, type WorkflowKey } from '../model/workflow-list.ts';
import { writeFileAtomic } from './atomic-file.ts';
import type { ItemValues } from './workflow-import-items.ts';

/** The first line of an imported topic's front matter: how a later run knows the file is its own. */
export const IMPORT_MARK = '# imported by import-workflows';

const NO_TYPES = { list: [], byId: new Map(), subtree: new Map() };

/** The topic files that share a workflow: workflow file → the topic file and whether an import wrote it. */
export function workflowClaims(contentDir: string): { claims: Map<string, { file: string; imported: boolean }>; slugs: Set<string> } {
  const claims = new Map<string, { file: string; imported: boolean }>();
  const slugs = new Set<string>();
  const dir = join(contentDir, 'topics');
  if (!existsSync(dir)) return { claims, slugs };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    slugs.add(entry.name.slice(0, -3));
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    // Only the workflow file is needed: the build's reader gives it even for a topic with other problems.
    const { workflowFile } = readTopic(entry.name, text, { contentTypes: NO_TYPES, contentTypesUnreadable: true, excerptLength: 200, render: () => ({ html: '', text: '' }) });
    if (workflowFile && !claims.has(workflowFile.name)) claims.set(workflowFile.name, { file: path, imported: text.includes(IMPORT_MARK) });
  }
  return { claims, slugs };
}

/** A topic file's text: the import mark, front matter with the values that differ from the defaults, the description as the first post. */
export function topicText(values: ItemValues, type: { field: 'forum' | 'category'; id: string }, tags: string[], authorSite: string | undefined, meta: { list: string; date: string }, index: number): string {
  const file = values['workflow-file'];
  const workflow: Record<string, string> = { file };
  if (values['workflow-name'] !== workflowName(file, values['workflow-name'])) workflow.name = values['workflow-name'];
  const optional: Array<[string, WorkflowKey]> = [
    ['download', 'workflow-download-link'], ['version', 'workflow-version'], ['description', 'workflow-description-small'],
    ['release', 'workflow-release-page'], ['screenshot', 'workflow-screenshot'], ['language', 'workflow-language'],
  ];
  for (const [field, key] of optional) if (values[key] !== '') workflow[field] = values[key];
  if (authorSite !== undefined) workflow.authorSite = authorSite;
  const fields = { title: values['workflow-name'], author: values['workflow-author-name'], created: meta.date, [type.field]: type.id, tags, workflow };
  const body = values['workflow-description-small'] === '' ? values['workflow-name'] : values['workflow-description-small'];
  return `---\n${IMPORT_MARK} from ${basename(meta.list)} [${index}]\n${dump(fields, { lineWidth: -1 })}---\n${body}\n`;
}

/** Creates a file that must not exist yet, atomically: a hard link never replaces a file (EEXIST). */
export function createFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, text, (from, to) => {
    linkSync(from, to);
    rmSync(from, { force: true });
  });
}

/** content-types.json with a forum added under the forum at `path` (ids from the top), its formatting kept. */
export function addChildForum(text: string, path: readonly string[], forum: { id: string; name: string }): string {
  const current = JSON.parse(text) as { forums?: ForumNode[] };
  const jsonPath: Array<string | number> = ['forums'];
  let level = current.forums ?? [];
  let node: ForumNode | undefined;
  for (const id of path) {
    const at = level.findIndex((entry) => entry.id === id);
    if (at < 0) throw new Error(`forum '${id}' not found in content-types.json`);
    if (node) jsonPath.push('children');
    jsonPath.push(at);
    node = level[at]!;
    level = node.children ?? [];
  }
  const formattingOptions = { insertSpaces: true, tabSize: 2 };
  const edits = node?.children
    ? modify(text, [...jsonPath, 'children', level.length], forum, { isArrayInsertion: true, formattingOptions })
    : modify(text, [...jsonPath, 'children'], [forum], { formattingOptions });
  return applyEdits(text, edits);
}

interface ForumNode {
  id: string;
  children?: ForumNode[];
}

/** members.json with members appended at the end, the members already there kept byte for byte. */
export function appendMembers(text: string | undefined, count: number, added: object[]): string {
  if (text === undefined) return `${JSON.stringify(added, null, 2)}\n`;
  let out = text;
  added.forEach((member, i) => {
    out = applyEdits(out, modify(out, [count + i], member, { isArrayInsertion: true, formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  });
  return out;
}

