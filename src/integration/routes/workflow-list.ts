/**
 * The workflow lists. The integration injects this endpoint at the hyphenated list's site paths
 * (workflows.primaryUrl, backupUrl) and workflow-list-underscore.ts at the underscore list's; every
 * address of one style renders the same text, so its copies are byte-identical. An invalid list
 * stops the build with one line per problem.
 */
import type { APIRoute } from 'astro';
import { base } from 'astro:config/client';
import { fromSiteRecords, siteData } from '../../build/site-records.ts';
import { sameWhileTopics } from '../../build/page-reuse.ts';
import { renderWorkflowLists, type RenderedLists } from '../../outputs/workflow-list.ts';
import type { KeyStyle } from '../../model/workflow-list.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';

export const prerender = true;

/** Both lists, made and checked once a build for all their addresses (four in the default config): by the site's address. */
const renderedLists = fromSiteRecords(() => new Map<string | undefined, Promise<RenderedLists>>());

/** The endpoint of one key style. */
export function listEndpoint(style: KeyStyle): APIRoute {
  return async ({ site }) => {
    const { topics, members, contentTypes } = await siteData();
    const siteRoot = siteRootUrl(site, base);
    const made = await renderedLists();
    let making = made.get(siteRoot);
    if (!making) {
      // Kept from the last build while its workflow topics, the members and the site's data are the same: a list it checked.
      const withWorkflow = topics.filter((topic) => topic.workflow);
      made.set(siteRoot, (making = sameWhileTopics(`(workflow lists) ${siteRoot}`, withWorkflow, [siteRoot, members], () => renderWorkflowLists(withWorkflow, { siteRoot, members, contentTypes }))));
    }
    const lists = await making;
    if (lists.problems.length > 0) throw new ContentProblemsError(lists.problems);
    return new Response(lists[style], { headers: { 'content-type': 'application/json; charset=utf-8' } });
  };
}

export const GET = listEndpoint('hyphenated');
