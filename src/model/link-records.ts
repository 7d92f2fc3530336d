/** The link directory's texts, for its page and its script alike (browser-safe). */
import type { LinkRecord } from '../content/links.ts';

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
