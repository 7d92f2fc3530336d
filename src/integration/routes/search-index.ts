import type { APIRoute, GetStaticPaths } from 'astro';
import { searchFiles } from '../../build/search-files.ts';

// Every file of the static search index (see src/search/index-format.ts), for `astro dev`;
// `astro build` writes them straight into the site (src/build-files.ts).
export const getStaticPaths = (async () =>
  [...(await searchFiles()).keys()].map((path) => ({ params: { file: path } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const body = (await searchFiles()).get(params.file!);
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
