import { perSite } from './site-data.ts';
import { buildSearchIndex } from './lib/search/index-build.ts';
import { memberRecords } from './lib/member-records.ts';

/**
 * The search index files (path under /search-index/ → JSON), built once per build from the
 * normalised records: the topic index (src/lib/search/index-format.ts) and members.json, the
 * member search's records.
 */
export const searchFiles = perSite(({ topics, contentTypes, members }) => {
  const files = buildSearchIndex(topics, [...contentTypes.values()]);
  files.set('members.json', JSON.stringify(memberRecords(members, topics)));
  return files;
});
