/** The 404 page's lookup of old addresses, in files of a few hundred keys (src/outputs/old-addresses.ts). */
import type { APIRoute } from 'astro';
import { oldAddressLookup } from '../../build/site-records.ts';

export async function getStaticPaths() {
  const { files } = await oldAddressLookup();
  return [...files.keys()].map((name) => ({ params: { shard: name.slice('old-addresses/'.length, -'.json'.length) } }));
}

export const GET: APIRoute = async ({ params }) => {
  const { files } = await oldAddressLookup();
  return new Response(files.get(`old-addresses/${params.shard}.json`), { headers: { 'Content-Type': 'application/json' } });
};
