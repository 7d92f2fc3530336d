/**
 * Link records beyond reading the file: the record `add-link` builds from its arguments, where its
 * problems point, how it is appended to links.json without touching the records already there,
 * and the record as published.
 */
import type { LinkRecord } from '../content/links.ts';
import type { Problem } from '../content/problems.ts';

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

/** One record as published (at /api/links.json): exactly the six fields of links.json, in its order. */
export function publishedLinkRecord(record: LinkRecord): LinkRecord {
  return { name: record.name, description: record.description, tags: [...record.tags], link: record.link, timestamp: record.timestamp, credit: record.credit };
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

/** The count line of the link directory: all records, or how many carry the chosen tag. */
export function linkCountText(shown: number, total: number, tag: string): string {
  const records = (n: number) => `${n} link record${n === 1 ? '' : 's'}`;
  if (!tag) return records(total);
  if (shown === 0) return `No link records are tagged '${tag}'.`;
  return `${records(shown)} tagged '${tag}', of ${total}`;
}

/** Every tag of the link records with how many records carry it, A→Z. */
export function linkTagCounts(records: Pick<LinkRecord, 'tags'>[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const record of records) for (const tag of new Set(record.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}
