/**
 * The workflow lists: topics with `workflow` front matter → items, published in both key styles
 * real clients read (hyphenated and underscore), each checked against its own schema before
 * anything is published.
 */
import type { Topic } from '../content/topics.ts';
import type { Member } from '../content/members.ts';
import type { WorkflowList } from '../content/schema-types.ts';
import { schemaProblems } from '../content/schema-validation.ts';
import { topicUrl } from '../model/urls.ts';
import { memberKey } from '../model/members.ts';
import { isSitePath, toUnderscore, workflowName, type KeyStyle, type WorkflowListItem } from '../model/workflow-list.ts';
import type { Problem } from '../content/problems.ts';

export { backupDownloadUrl, siteAddress, toUnderscore, WORKFLOW_KEYS, workflowName } from '../model/workflow-list.ts';
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

/** One list item: all eleven keys, "" for what the topic does not give. The topic must have a workflow. */
export function workflowItem(topic: Topic, context: WorkflowListContext): WorkflowListItem {
  const workflow = topic.workflow!;
  const author = memberKey(topic.author);
  const member = context.members.find((m) => memberKey(m.name) === author);
  // Keys in the schema's order, which is the order they are written in.
  return {
    'workflow-name': workflowName(workflow.file, topic.title, workflow.name),
    'workflow-version': workflow.version ?? '',
    'workflow-description-small': workflow.description ?? '',
    'workflow-type': context.contentTypes.get(topic.contentType)?.name ?? topic.contentType,
    'workflow-language': workflow.language ?? '',
    'workflow-release-page': workflow.release || topicUrl(context.siteRoot, topic.slug),
    'workflow-download-link': workflow.download ?? '',
    'workflow-author-name': topic.author,
    // An explicit "" says this workflow has no author site, even when the member has a website.
    'workflow-author-site': workflow.authorSite ?? member?.website ?? '',
    'workflow-file': workflow.file,
    'workflow-screenshot': workflow.screenshot ?? '',
  };
}

/** The list: one item per topic with a workflow, in the order the topics are given. */
export function workflowList(topics: readonly Topic[], context: WorkflowListContext): WorkflowList {
  return topics.filter((topic) => topic.workflow).map((topic) => workflowItem(topic, context));
}

/**
 * Checks a list against its key style's schema. A problem about item i names the file it came
 * from (`sources[i]`, a topic file) so the user knows what to fix.
 */
export function workflowListProblems(list: unknown, sources: readonly string[] = [], style: KeyStyle = 'hyphenated'): Problem[] {
  const listName = style === 'hyphenated' ? 'workflow list' : 'workflow list (underscore keys)';
  return schemaProblems(style === 'hyphenated' ? 'workflowList' : 'workflowListUnderscore', list, listName, () => undefined, { root: listName }).map((problem) => {
    const item = /^.*?\[(\d+)\]/.exec(problem.field);
    const source = item ? sources[Number(item[1])] : undefined;
    return source ? { ...problem, file: source } : problem;
  });
}

/** A topic file naming a workflow file (`line`: where `workflow.file` is written). */
export interface WorkflowFileClaim {
  file: string;
  name: string;
  line?: number;
}

/** Two topics may not share a workflow file: the backup download address is made from the file name alone. */
export function duplicateWorkflowFileProblems(claims: readonly WorkflowFileClaim[]): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const { file, name, line } of claims) {
    const owner = first.get(name);
    if (owner === undefined) first.set(name, file);
    else
      problems.push({
        file,
        ...(line === undefined ? {} : { line }),
        field: 'workflow.file',
        message: `'${name}' is also the workflow file of ${owner}; workflow file names must be unique (the backup download address is made from the name)`,
      });
  }
  return problems;
}

// Each path segment: unreserved URL characters only, so the address needs no escaping anywhere
// (Astro route patterns, `_headers`, nginx `location`) and names a file, not a folder.
const LIST_PATH = /^\/?(?:[A-Za-z0-9._~-]+\/)*[A-Za-z0-9._~-]*[A-Za-z0-9_~-]$/;

/** The list addresses among the options: the hyphenated list's and the underscore list's. */
export interface WorkflowAddresses {
  primaryUrl: string;
  backupUrl: string;
  /** The underscore list's addresses (absent: none is published). */
  underscorePrimaryUrl?: string;
  underscoreBackupUrl?: string;
}

/** Every list address with its option name and key style, in a fixed order. */
function listAddresses(workflows: WorkflowAddresses): Array<{ option: string; address: string; style: KeyStyle }> {
  return [
    { option: 'primaryUrl', address: workflows.primaryUrl, style: 'hyphenated' },
    { option: 'backupUrl', address: workflows.backupUrl, style: 'hyphenated' },
    ...(workflows.underscorePrimaryUrl ? [{ option: 'underscorePrimaryUrl', address: workflows.underscorePrimaryUrl, style: 'underscore' } as const] : []),
    ...(workflows.underscoreBackupUrl ? [{ option: 'underscoreBackupUrl', address: workflows.underscoreBackupUrl, style: 'underscore' } as const] : []),
  ];
}

const sitePath = (address: string) => `/${address.replace(/^\/+/, '')}`;

/** Checks the list addresses: a site path must name a file; anything else must be an http(s) URL; the two styles never share one. */
export function workflowAddressProblems(workflows: WorkflowAddresses, file = 'astro.config.mjs'): Problem[] {
  const problems: Problem[] = [];
  const styleAt = new Map<string, { option: string; style: KeyStyle }>();
  for (const { option, address, style } of listAddresses(workflows)) {
    const field = `tagsite.workflows.${option}`;
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
    const key = isSitePath(address) ? sitePath(address) : address;
    const other = styleAt.get(key);
    if (other && other.style !== style)
      problems.push({ file, field, message: `'${address}' is also tagsite.workflows.${other.option}: the ${style} list needs an address of its own` });
    else styleAt.set(key, { option, style });
  }
  return problems;
}

/** The site paths (without `base`) where the build publishes a list, with the key style each serves. */
export function publishedLists(workflows: WorkflowAddresses): Array<{ path: string; style: KeyStyle }> {
  const seen = new Set<string>();
  return listAddresses(workflows).flatMap(({ address, style }) => {
    if (!isSitePath(address) || seen.has(sitePath(address))) return [];
    seen.add(sitePath(address));
    return [{ path: sitePath(address), style }];
  });
}

/** The site paths (without `base`) of every published list copy (for `_headers`). */
export function publishedListPaths(workflows: WorkflowAddresses): string[] {
  return publishedLists(workflows).map(({ path }) => path);
}

/** The text of a list: one item a line, readable and diffable, yet nearly as small as the compact form. */
function listText(items: readonly object[]): string {
  return items.length === 0 ? '[]\n' : `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`;
}

/** Both published lists as text, or the problems that stop the build. */
export interface RenderedLists {
  hyphenated: string;
  underscore: string;
  problems: Problem[];
}

/**
 * The bytes of both lists (the same items in the same order), or the problems that stop the
 * build. Each list's addresses get exactly its text, so the copies are byte-identical.
 */
export function renderWorkflowLists(
  topics: readonly Topic[],
  context: Omit<WorkflowListContext, 'siteRoot'> & { siteRoot: string | undefined },
): RenderedLists {
  const withWorkflow = topics.filter((topic) => topic.workflow);
  if (withWorkflow.length > 0 && !context.siteRoot) {
    return {
      hyphenated: '',
      underscore: '',
      problems: [{ file: 'astro.config.mjs', field: 'site', message: "is required to publish the workflow list: its release pages are absolute URLs (set site: 'https://your.domain')" }],
    };
  }
  const list = workflowList(withWorkflow, { ...context, siteRoot: context.siteRoot ?? 'http://localhost/' });
  const underscore = list.map(toUnderscore);
  const sources = withWorkflow.map((topic) => topic.file);
  const claims = withWorkflow.map((topic) => ({ file: topic.file, name: topic.workflow!.file }));
  // The underscore list holds the same values, so its schema only adds problems when the two schemas differ.
  const problems = [...duplicateWorkflowFileProblems(claims), ...workflowListProblems(list, sources, 'hyphenated')];
  if (problems.length === 0) problems.push(...workflowListProblems(underscore, sources, 'underscore'));
  if (problems.length > 0) return { hyphenated: '', underscore: '', problems };
  return { hyphenated: listText(list), underscore: listText(underscore), problems };
}

/** The hyphenated list alone (see renderWorkflowLists). */
export function renderWorkflowList(
  topics: readonly Topic[],
  context: Omit<WorkflowListContext, 'siteRoot'> & { siteRoot: string | undefined },
): { text: string; problems: Problem[] } {
  const { hyphenated, problems } = renderWorkflowLists(topics, context);
  return { text: hyphenated, problems };
}
