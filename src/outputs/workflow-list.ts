/**
 * The workflow list file (SPEC 5): topics with `workflow` front matter → items in the established
 * hyphenated format, checked against schemas/workflow-list.schema.json before anything is published.
 */
import type { Topic } from '../content/topics.ts';
import type { Member } from '../content/members.ts';
import type { WorkflowList } from '../content/schema-types.ts';
import { schemaProblems } from '../content/schema-validation.ts';
import { topicUrl } from '../model/urls.ts';
import { memberKey } from '../model/members.ts';
import { isSitePath, type WorkflowListItem } from '../model/workflow-list.ts';
import type { Problem } from '../content/problems.ts';

export { backupDownloadUrl, siteAddress, WORKFLOW_KEYS } from '../model/workflow-list.ts';
export type { WorkflowListItem };

/** What an item needs beyond its topic. */
export interface WorkflowListContext {
  /** The site's absolute root URL: Astro `site` + `base`, such as `https://example.org/community/`. */
  siteRoot: string;
  /** Listed members: a listed author's website becomes `workflow-author-site`. */
  members: ReadonlyArray<Pick<Member, 'name' | 'website'>>;
  /** Content type id → its name (`workflow-type` is the name people read; the id when unknown). */
  contentTypes: ReadonlyMap<string, { name: string }>;
}

/** The workflow's name is its file name without the extension; a file named only `.flowsmith` falls back to the topic title. */
export function workflowName(file: string, title: string): string {
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : dot === 0 ? '' : file;
  return stem.trim() || title;
}

/** One list item: all eleven keys, "" for what the topic does not give. The topic must have a workflow. */
export function workflowItem(topic: Topic, context: WorkflowListContext): WorkflowListItem {
  const workflow = topic.workflow!;
  const author = memberKey(topic.author);
  const member = context.members.find((m) => memberKey(m.name) === author);
  // Keys in the schema's order, which is the order they are written in.
  return {
    'workflow-name': workflowName(workflow.file, topic.title),
    'workflow-version': workflow.version ?? '',
    'workflow-description-small': workflow.description ?? '',
    'workflow-type': context.contentTypes.get(topic.contentType)?.name ?? topic.contentType,
    'workflow-language': workflow.language ?? '',
    'workflow-release-page': workflow.release || topicUrl(context.siteRoot, topic.slug),
    'workflow-download-link': workflow.download,
    'workflow-author-name': topic.author,
    'workflow-author-site': member?.website ?? '',
    'workflow-file': workflow.file,
    'workflow-screenshot': workflow.screenshot ?? '',
  };
}

/** The list: one item per topic with a workflow, in the order the topics are given. */
export function workflowList(topics: readonly Topic[], context: WorkflowListContext): WorkflowList {
  return topics.filter((topic) => topic.workflow).map((topic) => workflowItem(topic, context));
}

/**
 * Checks a list against schemas/workflow-list.schema.json. A problem about item i names the file
 * it came from (`sources[i]`, a topic file) so the user knows what to fix.
 */
export function workflowListProblems(list: unknown, sources: readonly string[] = [], listName = 'workflow list'): Problem[] {
  return schemaProblems('workflowList', list, listName, () => undefined, { root: listName }).map((problem) => {
    const item = /^.*?\[(\d+)\]/.exec(problem.field);
    const source = item ? sources[Number(item[1])] : undefined;
    return source ? { ...problem, file: source } : problem;
  });
}

/** Two topics may not share a workflow file: the backup download address is made from the file name alone. */
export function duplicateWorkflowFileProblems(topics: readonly Pick<Topic, 'file' | 'workflow'>[]): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const topic of topics) {
    const name = topic.workflow?.file;
    if (name === undefined) continue;
    const owner = first.get(name);
    if (owner === undefined) first.set(name, topic.file);
    else
      problems.push({
        file: topic.file,
        field: 'workflow.file',
        message: `'${name}' is also the workflow file of ${owner}; workflow file names must be unique (the backup download address is made from the name)`,
      });
  }
  return problems;
}

// Each path segment: unreserved URL characters only, so the address needs no escaping anywhere
// (Astro route patterns, `_headers`, nginx `location`) and names a file, not a folder.
const LIST_PATH = /^\/?(?:[A-Za-z0-9._~-]+\/)*[A-Za-z0-9._~-]*[A-Za-z0-9_~-]$/;

/** Checks the list addresses: a site path must name a file; anything else must be an http(s) URL. */
export function workflowAddressProblems(workflows: { primaryUrl: string; backupUrl: string }, file = 'astro.config.mjs'): Problem[] {
  const problems: Problem[] = [];
  for (const key of ['primaryUrl', 'backupUrl'] as const) {
    const address = workflows[key];
    const field = `tagsite.workflows.${key}`;
    if (isSitePath(address)) {
      if (!LIST_PATH.test(address) || address.split('/').some((segment) => segment === '.' || segment === '..'))
        problems.push({
          file,
          field,
          message: `'${address}' is not a file path on the site: use letters, digits, '.', '_', '~' and '-' between slashes, such as /api/workflows.json`,
        });
    } else if (!/^https?:\/\//i.test(address)) {
      problems.push({ file, field, message: `'${address}' must be a path on the site (such as /api/workflows.json) or an http or https URL` });
    }
  }
  return problems;
}

/** The site paths (without `base`) where the build publishes the list: the primary and backup addresses that are on this site. */
export function publishedListPaths(workflows: { primaryUrl: string; backupUrl: string }): string[] {
  const paths = [workflows.primaryUrl, workflows.backupUrl].filter(isSitePath).map((path) => `/${path.replace(/^\/+/, '')}`);
  return [...new Set(paths)];
}

/**
 * The bytes of the published list, or the problems that stop the build. Both addresses get exactly
 * this text, so they are byte-identical.
 */
export function renderWorkflowList(
  topics: readonly Topic[],
  context: Omit<WorkflowListContext, 'siteRoot'> & { siteRoot: string | undefined },
): { text: string; problems: Problem[] } {
  const withWorkflow = topics.filter((topic) => topic.workflow);
  if (withWorkflow.length > 0 && !context.siteRoot) {
    return {
      text: '',
      problems: [{ file: 'astro.config.mjs', field: 'site', message: "is required to publish the workflow list: its release pages are absolute URLs (set site: 'https://your.domain')" }],
    };
  }
  const list = workflowList(withWorkflow, { ...context, siteRoot: context.siteRoot ?? 'http://localhost/' });
  const problems = [...duplicateWorkflowFileProblems(withWorkflow), ...workflowListProblems(list, withWorkflow.map((topic) => topic.file))];
  // One item a line: readable and diffable, yet nearly as small as the compact form.
  const text = list.length === 0 ? '[]\n' : `[\n${list.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`;
  return { text: problems.length > 0 ? '' : text, problems };
}
