import { perSite } from './site-records.ts';
import { searchIndexFiles } from './index-and-feeds.ts';
import { handedSideFiles } from './store.ts';

const builtHere = perSite(({ topics, contentTypes, members }) => searchIndexFiles({ topics, members, contentTypes: [...contentTypes.values()] }));

/**
 * The search index files (path under /search-index/ → JSON), built once per build from the
 * normalised records: the topic index (src/search/index-format.ts) and members.json, the
 * member search's records. `npm run build` builds them in a worker thread while Astro renders the pages.
 */
export async function searchFiles(): Promise<Map<string, string>> {
  return (await handedSideFiles())?.index ?? builtHere();
}
