/**
 * What import-workflows does to one list: read it in either key style (repairing PHP-style `\'`
 * escapes), and turn each untrusted item into the values a topic can hold, naming every value it
 * has to change. No files are touched here.
 */
import { parseTree, type Node } from 'jsonc-parser';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { PUBLISHABLE_URL, underscoreKey, WORKFLOW_KEYS, workflowName, type KeyStyle, type WorkflowKey } from '../model/workflow-list.ts';
import type { Problem } from '../content/problems.ts';

export type ItemValues = Record<WorkflowKey, string>;

/** One item as the list gives it: its place, its line in the list file and its eleven values as strings. */
export interface ListItem {
  index: number;
  line?: number;
  values: ItemValues;
}

/** A value the import changed (or could not keep), by key. */
export interface Change {
  key: WorkflowKey;
  message: string;
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** `\'` is not a JSON escape; PHP's addslashes writes it. `\\` pairs are kept as they are. */
function repairEscapes(text: string): { text: string; count: number } {
  let count = 0;
  const repaired = text.replace(/\\(.)/gs, (pair: string, next: string) => (next === "'" ? (count++, "'") : pair));
  return { text: repaired, count };
}

/** Reads a list file's text: the items, the list's key style, notes for the report, or the problem that stops the import. */
export function readList(text: string, file: string): { items: ListItem[]; style: KeyStyle; notes: Problem[]; skipped: Problem[] } | { problem: Problem } {
  const notes: Problem[] = [];
  let data: unknown;
  let source = text.replace(/^\uFEFF/, '');
  try {
    data = JSON.parse(source);
  } catch (strictError) {
    const { text: repaired, count } = repairEscapes(source);
    try {
      data = JSON.parse(repaired);
    } catch {
      return { problem: { file, field: '(file)', message: `not valid JSON: ${(strictError as Error).message}` } };
    }
    source = repaired;
    notes.push({ file, field: '(file)', message: `repaired ${count} PHP-style \\' escape${count === 1 ? '' : 's'} that strict JSON rejects (read as ')` });
  }
  if (!Array.isArray(data)) return { problem: { file, field: '(file)', message: 'must be a list (a JSON array) of workflow items' } };
  const nodes: Node[] = parseTree(source)?.children ?? [];
  const underscoreItems = data.filter((raw) => raw && typeof raw === 'object' && Object.keys(raw).some((key) => key.startsWith('workflow_'))).length;
  const style: KeyStyle = underscoreItems > data.length / 2 ? 'underscore' : 'hyphenated';
  const items: ListItem[] = [];
  const skipped: Problem[] = [];
  data.forEach((raw: unknown, index) => {
    const line = nodes[index] ? lineAt(source, nodes[index]!.offset) : undefined;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      skipped.push({ file, line, field: `[${index}]`, message: 'skipped: not a workflow item (an object)' });
      return;
    }
    const record = raw as Record<string, unknown>;
    const values = {} as ItemValues;
    for (const key of WORKFLOW_KEYS) {
      const value = record[key] ?? record[underscoreKey(key)];
      values[key] = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    }
    items.push({ index, line, values });
  });
  return { items, style, notes, skipped };
}

/** A field of the report in the list's own key style: `[12].workflow_file`. */
export function reportField(index: number, key: WorkflowKey | undefined, style: KeyStyle): string {
  return key === undefined ? `[${index}]` : `[${index}].${style === 'hyphenated' ? key : underscoreKey(key)}`;
}

const uri = fullFormats.uri as (value: string) => boolean;

/** An http(s) address with a host that the schemas accept; percent-encoded when it needs it; undefined when it is none. */
export function publishableUrl(value: string): string | undefined {
  const fits = (candidate: string) => PUBLISHABLE_URL.test(candidate) && uri(candidate);
  if (fits(value)) return value;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname && fits(url.href) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Cut to at most `max` characters (code points), at a word boundary when there is one in the second half. */
export function cutAtWord(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max + 1).join('');
  const space = head.search(/\s\S*$/);
  const cut = space > max / 2 ? head.slice(0, space) : chars.slice(0, max).join('');
  return cut.trimEnd();
}

const length = (text: string) => [...text].length;
const quote = (text: string) => JSON.stringify(text);

/** The values of one item as a topic will hold them, and every change made; or why it is skipped. */
export interface ConvertedItem {
  values: ItemValues;
  changes: Change[];
}

/** Repairs one item's values for a topic (SPEC 2.1's limits); `skip` says why it cannot become one. */
export function convertItem(item: ItemValues): ConvertedItem | { skip: string } {
  const values = { ...item };
  const changes: Change[] = [];
  const change = (key: WorkflowKey, to: string, message: string) => {
    values[key] = to;
    changes.push({ key, message });
  };

  const given = values['workflow-file'];
  const file = given.split(/[/\\]/).pop()!.trim() === '' ? '' : given.split(/[/\\]/).pop()!;
  if (file === '' || file === '.' || file === '..') return { skip: `skipped: no workflow file name (${quote(given)})` };
  if (length(file) > 255) return { skip: 'skipped: the workflow file name is over 255 characters' };
  if (file !== given) change('workflow-file', file, `path cut from the file name: ${quote(file)} (was ${quote(given)})`);

  const author = values['workflow-author-name'].trim();
  if (author === '') return { skip: 'skipped: no author name' };
  if (length(author) > 80) change('workflow-author-name', cutAtWord(author, 80), `author name cut to 80 characters: ${quote(cutAtWord(author, 80))}`);
  else if (author !== values['workflow-author-name']) change('workflow-author-name', author, 'spaces around the author name removed');

  const name = values['workflow-name'];
  if (name.trim() === '') change('workflow-name', workflowName(file, file), `no name given: the file name without its extension is published (${quote(workflowName(file, file))})`);
  else if (length(name) > 200) change('workflow-name', cutAtWord(name, 200), 'name cut to 200 characters');

  const description = values['workflow-description-small'];
  if (length(description) > 100) {
    change('workflow-description-small', cutAtWord(description, 100), 'description cut to 100 characters at a word boundary (the whole text is the topic\'s first post)');
  }
  for (const key of ['workflow-version', 'workflow-language'] as const) {
    if (length(values[key]) > 50) change(key, cutAtWord(values[key], 50), `cut to 50 characters`);
  }

  for (const key of ['workflow-download-link', 'workflow-author-site', 'workflow-release-page'] as const) {
    const value = values[key];
    if (value === '') continue;
    const url = publishableUrl(value);
    const instead = key === 'workflow-release-page' ? "; the topic's own page is published instead" : '';
    if (url === undefined) change(key, '', `${quote(value)} is not an http or https address with a host (a placeholder): dropped${instead}`);
    else if (url !== value) change(key, url, `written as a valid URL (percent-encoded): ${url}`);
  }
  if (item['workflow-release-page'] === '') changes.push({ key: 'workflow-release-page', message: 'no release page: the topic\'s own page is published as the release page' });

  const screenshot = values['workflow-screenshot'];
  if (/^[a-z][a-z0-9+.-]*:/i.test(screenshot)) {
    const url = publishableUrl(screenshot);
    if (url === undefined) change('workflow-screenshot', '', `${quote(screenshot)} is not an http or https address: dropped`);
    else if (url !== screenshot) change('workflow-screenshot', url, `written as a valid URL (percent-encoded): ${url}`);
  } else if (/[/\\]/.test(screenshot)) {
    const bare = screenshot.split(/[/\\]/).pop()!;
    change('workflow-screenshot', bare === '.' || bare === '..' ? '' : bare, `path cut from the screenshot name: ${quote(bare)}`);
  } else if (screenshot === '.' || screenshot === '..' || length(screenshot) > 2000) change('workflow-screenshot', '', `${quote(screenshot.slice(0, 40))} is not a screenshot name: dropped`);
  return { values, changes };
}

/** `Name.ext` → `Name (2).ext`: the file name of a different item that came with a file name already taken. */
export function renamedFile(file: string, n: number): string {
  const dot = file.lastIndexOf('.');
  return dot > 0 ? `${file.slice(0, dot)} (${n})${file.slice(dot)}` : `${file} (${n})`;
}
