/**
 * The workflow list file (SPEC 5). The integration injects this endpoint at workflows.primaryUrl and
 * workflows.backupUrl (when they are site paths); both render the same text, so the copies are
 * byte-identical. An invalid list stops the build with one line per problem.
 */
import type { APIRoute } from 'astro';
import { base } from 'astro:config/client';
import { siteData } from '../../build/site-records.ts';
import { renderWorkflowList } from '../../outputs/workflow-list.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const { topics, members, contentTypes } = await siteData();
  const { text, problems } = renderWorkflowList(topics, {
    siteRoot: siteRootUrl(site, base),
    members,
    contentTypes,
  });
  if (problems.length > 0) throw new ContentProblemsError(problems);
  return new Response(text, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
