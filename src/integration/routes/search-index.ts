import type { APIRoute, GetStaticPaths } from 'astro';
import { fromSiteRecords } from '../../build/site-records.ts';
import { searchIndexFiles } from '../../build/index-and-feeds.ts';

// Every file of the static search index (src/search/index-format.ts), for `astro dev` only: a
// build writes them from its worker thread (src/build/pipeline.ts).
const searchFiles = fromSiteRecords(({ topics, contentTypes, members, tags }) => searchIndexFiles({ topics, members, contentTypes: [...contentTypes.values()], canonicalOf: tags.canonicalOf }));

export const getStaticPaths = (async () => [...(await searchFiles()).keys()].map((path) => ({ params: { file: path } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const body = (await searchFiles()).get(params.file!);
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
