import { siteData } from './site-data.ts';
import { buildSearchIndex } from './lib/search/index-build.ts';

let files: Promise<Map<string, string>> | undefined;

/** The search index files (path under /search-index/ → JSON), built once per build from the normalised records. */
export function searchFiles(): Promise<Map<string, string>> {
  return (files ??= siteData().then(({ topics, contentTypes }) => buildSearchIndex(topics, [...contentTypes.values()])));
}
