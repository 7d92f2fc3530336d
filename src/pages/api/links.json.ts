import type { APIRoute } from 'astro';
import { siteData } from '../../build/site-records.ts';
import { publishedLinkRecord } from '../../outputs/links.ts';

/** `/api/links.json`: the link records as published — the records of content/links.json, in its order and format. */
export const GET: APIRoute = async () => {
  const { links } = await siteData();
  return new Response(`${JSON.stringify(links.map(publishedLinkRecord), null, 2)}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
