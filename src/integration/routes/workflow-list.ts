/**
 * The workflow lists. The integration injects this endpoint at the hyphenated list's site paths
 * (workflows.primaryUrl, backupUrl) and workflow-list-underscore.ts at the underscore list's; every
 * address of one style renders the same text, so its copies are byte-identical. An invalid list
 * stops the build with one line per problem.
 */
import type { APIRoute } from 'astro';
import { base } from 'astro:config/client';
import { siteData } from '../../build/site-records.ts';
import { renderWorkflowLists } from '../../outputs/workflow-list.ts';
import type { KeyStyle } from '../../model/workflow-list.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';

export const prerender = true;

/** The endpoint of one key style. */
export function listEndpoint(style: KeyStyle): APIRoute {
  return async ({ site }) => {
    const { topics, members, contentTypes } = await siteData();
    const lists = renderWorkflowLists(topics, { siteRoot: siteRootUrl(site, base), members, contentTypes });
    if (lists.problems.length > 0) throw new ContentProblemsError(lists.problems);
    return new Response(lists[style], { headers: { 'content-type': 'application/json; charset=utf-8' } });
  };
}

export const GET = listEndpoint('hyphenated');
