/** /rss.xml: the newest topics of the whole site. */
import type { APIRoute } from 'astro';
import { siteData } from '../site-data.ts';
import { feedResponse } from '../routes/feed-response.ts';

export const GET: APIRoute = async ({ site }) => feedResponse((await siteData()).topics, site);
