import { siteData } from './site-data.ts';
import { buildSearchIndex } from './lib/search/index-build.ts';
import { memberRecords } from './lib/member-records.ts';

let files: Promise<Map<string, string>> | undefined;

/**
 * The search index files (path under /search-index/ → JSON), built once per build from the
 * normalised records: the topic index (src/lib/search/index-format.ts) and members.json, the
 * member search's records.
 */
export function searchFiles(): Promise<Map<string, string>> {
  return (files ??= siteData().then(({ topics, contentTypes, members }) => {
    const index = buildSearchIndex(topics, [...contentTypes.values()]);
    index.set('members.json', JSON.stringify(memberRecords(members, topics)));
    return index;
  }));
}
