/**
 * `add-link`: checks one documentation link record by the rules of links.json (SPEC 2.4) and
 * appends it at the end of the file, leaving the records already there byte for byte as they were.
 * The file is replaced atomically: an interrupted run leaves the old file. Runs at once take turns
 * (the content folder's lock, src/cli/lock.ts) and each reads the file under the lock, so none
 * loses another's record.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isProblem, parseJsonFile, readJsonFile } from '../content/json-file.ts';
import { newLinkProblems, readLinks, type LinkRecord } from '../content/links.ts';
import type { Problem } from '../content/problems.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { contentDir, projectOptions } from './project.ts';
import { CONTENT_LOCK, LockBusyError, withLock } from './lock.ts';
import type { JsonLimits } from '../content/json-file.ts';

export const ADD_LINK_COMMAND = 'add-link';

/** The command's options, for parseArgs. */
export const ADD_LINK_OPTIONS = {
  name: 'string', description: 'string', tags: 'string', link: 'string', credit: 'string', timestamp: 'string', content: 'string',
} as const;

/** The fields of a record in the order links.json writes them (the schema's order). */
export const LINK_FIELDS = ['name', 'description', 'tags', 'link', 'timestamp', 'credit'] as const;

/**
 * The record add-link appends, from its arguments. `--tags a,b` is split at commas, with spaces
 * around each tag dropped (`--tags "api, json"`); an empty `--tags ""` means no tags. Nothing else
 * is changed: the record is then checked by exactly the rules of the file.
 */
export function linkRecordFromArguments(values: Record<string, string | boolean | undefined>, today: string): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of LINK_FIELDS) {
    const value = field === 'timestamp' ? (values.timestamp ?? today) : values[field];
    if (value === undefined) continue;
    if (field === 'tags') record.tags = String(value).trim() === '' ? [] : String(value).split(',').map((tag) => tag.trim());
    else record[field] = value;
  }
  return record;
}

/**
 * Points a problem of the new record at the argument to fix: `[12].tags[1]` of links.json becomes
 * `--tags` with "tag 2 …"; a duplicate link keeps its message.
 */
export function argumentProblem(problem: Problem, command: string): Problem {
  const match = /^\[\d+\]\.([a-z]+)(?:\[(\d+)\])?$/.exec(problem.field);
  if (!match) return problem;
  const [, field, item] = match;
  return {
    file: command,
    field: `--${field}`,
    message: item === undefined ? problem.message : `tag ${Number(item) + 1}: ${problem.message}`,
  };
}

/**
 * The text of links.json with one record added at the end. When the file is exactly what
 * `JSON.stringify(records, null, 2)` writes, it is written again that way; otherwise the record
 * is inserted before the closing `]`, so every byte of the records already there stays as it was.
 * Returns undefined when the text does not end in a JSON array.
 */
export function appendRecordText(text: string, records: unknown[], record: LinkRecord): string | undefined {
  const canonical = `${JSON.stringify(records, null, 2)}\n`;
  if (text === canonical) return `${JSON.stringify([...records, record], null, 2)}\n`;
  const close = text.lastIndexOf(']');
  const open = text.indexOf('[');
  if (close < 0 || open < 0 || open > close) return undefined;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const body = JSON.stringify(record, null, 2)
    .split('\n')
    .map((line) => `  ${line}`)
    .join(newline);
  const before = text.slice(0, close).trimEnd();
  const empty = before.endsWith('[') && records.length === 0;
  return `${before}${empty ? '' : ','}${newline}${body}${newline}${text.slice(close)}`;
}

/** What a run did: the line to print, or the problems (and a closing line) that stopped it. */
export type AddLinkOutcome = { added: string } | { problems: Problem[]; advice?: string };

/**
 * Adds the record that `args` describe to links.json of the content folder (`--content`, else the
 * default). The arguments' own problems are reported with the record's, at once; a file that
 * already has problems is never appended to.
 */
export async function addLink(root: string, args: { values: Record<string, string | boolean>; problems: Problem[] }, today: string): Promise<AddLinkOutcome> {
  const folder = contentDir(root, args.values.content as string | undefined);
  const shown = relative(root, folder).startsWith('..') ? folder : relative(root, folder) || '.';
  if (!existsSync(folder)) return { problems: [...args.problems, { file: shown, field: '(folder)', message: `the content folder ${shown} does not exist` }] };
  const { options } = await projectOptions(root);
  try {
    return await withLock(join(folder, CONTENT_LOCK), () => addLinkNow(root, folder, args, today, options.limits), { waitMs: 60_000 });
  } catch (error) {
    if (error instanceof LockBusyError) return { problems: [{ file: shown, field: '(lock)', message: error.message }] };
    throw error;
  }
}

/** addLink's work, under the content folder's lock: read the file as it is now, check, append. */
function addLinkNow(root: string, folder: string, args: { values: Record<string, string | boolean>; problems: Problem[] }, today: string, limits: JsonLimits): AddLinkOutcome {
  const path = join(folder, 'links.json');
  const file = relative(root, path).startsWith('..') ? path : relative(root, path);

  const json = readJsonFile(path, file, { text: '[]\n' }, limits);
  const fileProblems = isProblem(json) ? [json] : readLinks(json, file).problems;
  if (isProblem(json) || fileProblems.length > 0) return { problems: fileProblems, advice: `${file} has problems: fix them before adding a record.` };
  const existing = json.data as LinkRecord[];

  const record = linkRecordFromArguments(args.values, today);
  const problems = [...args.problems, ...newLinkProblems(record, existing, file).map((problem) => argumentProblem(problem, ADD_LINK_COMMAND))];
  if (problems.length > 0) return { problems };

  const updated = appendRecordText(json.text, existing, record as unknown as LinkRecord);
  // The new text must read back as the old records plus this one, or nothing is written.
  const readBack = updated === undefined ? undefined : parseJsonFile(updated, file);
  if (!readBack || isProblem(readBack) || JSON.stringify(readBack.data) !== JSON.stringify([...existing, record])) {
    return { problems: [{ file, field: '(file)', message: 'could not append to this file safely; it was left unchanged' }] };
  }
  try {
    writeFileAtomic(path, updated!);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problems: [{ file, field: '(file)', message: `could not be written (${reason}); it was left unchanged` }] };
  }
  // Counted as every problem line counts records: `[13]` is the fourteenth.
  return { added: `added ${JSON.stringify(record.name)} to ${file} as [${existing.length}]${json.exists ? '' : ' (new file)'}` };
}
