/** The link records as published at /api/links.json. */
import type { LinkRecord } from '../content/links.ts';

/** One record as published: exactly the six fields of links.json, in its order. */
export function publishedLinkRecord(record: LinkRecord): LinkRecord {
  return { name: record.name, description: record.description, tags: [...record.tags], link: record.link, timestamp: record.timestamp, credit: record.credit };
}
