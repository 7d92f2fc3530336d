/**
 * The workflow list file (SPEC 5). The integration injects this endpoint at workflows.primaryUrl and
 * workflows.backupUrl (when they are site paths); both render the same text, so the copies are
 * byte-identical. An invalid list stops the build with one line per problem.
 */
import type { APIRoute } from 'astro';
import { siteData } from '../../build/site-records.ts';
import { renderWorkflowList } from '../../outputs/workflow-list.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const { topics, members, contentTypes } = await siteData();
  const { text, problems } = renderWorkflowList(topics, {
    siteRoot: siteRootUrl(import.meta.env.SITE, import.meta.env.BASE_URL),
    members,
    contentTypes,
  });
  if (problems.length > 0) {
    const error = new ContentProblemsError(problems);
    // A user's mistake, not a bug: Astro prints the stack it is given, so give it only the message.
    error.stack = `${error.name}: ${error.message}`;
    throw error;
  }
  return new Response(text, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
