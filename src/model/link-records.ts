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
export function linkTagCounts(records: readonly Pick<LinkRecord, 'tags'>[]): Array<[string, number]> {
  return [...linksByTag(records)].map(([tag, carrying]): [string, number] => [tag, carrying.length]).sort(([a], [b]) => a.localeCompare(b));
}

/**
 * How many records a tag page's "Documentation links" section shows: the first in the file's
 * order, with a link to all of them in the directory. Every page of a listing has the section, so
 * a tag that 150 records carry (a benchmark corpus of 1,000,000 topics has 10,000 records) made
 * each of its pages render all 150: a 10,000-topic site with those records rendered its pages in
 * twice the time and grew by half (245 → 381 MB).
 */
export const TAG_LINKS_SHOWN = 10;

const byTag = new WeakMap<readonly Pick<LinkRecord, 'tags'>[], Map<string, Pick<LinkRecord, 'tags'>[]>>();

/**
 * The records carrying each tag, in the file's order: made once for a list of records, where each
 * tag page filtered every record again.
 */
export function linksByTag<R extends Pick<LinkRecord, 'tags'>>(records: readonly R[]): ReadonlyMap<string, readonly R[]> {
  let tags = byTag.get(records) as Map<string, R[]> | undefined;
  if (!tags) {
    tags = new Map();
    for (const record of records) {
      for (const tag of new Set(record.tags)) {
        const list = tags.get(tag);
        if (list) list.push(record);
        else tags.set(tag, [record]);
      }
    }
    byTag.set(records, tags);
  }
  return tags;
}
