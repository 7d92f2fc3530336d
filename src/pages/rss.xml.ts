/** /rss.xml: the newest topics of the whole site. */
import type { APIRoute } from 'astro';
import { siteData } from '../build/site-records.ts';
import { feedResponse } from '../integration/routes/feed-response.ts';

export const GET: APIRoute = async ({ site }) => feedResponse((await siteData()).topics, site);
