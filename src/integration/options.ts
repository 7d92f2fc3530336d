/**
 * The one validator of the site's options: tagsite({...}) against schemas/options.schema.json
 * (which holds every default), the rules across fields the schema cannot say, and Astro's `site`,
 * which feeds, the sitemap and the workflow list need. `npm run validate` and the build call it.
 */
import type { TagsiteOptions } from '../content/schema-types.ts';
import { schemaProblems } from '../content/schema-validation.ts';
import type { Problem } from '../content/problems.ts';
import { workflowAddressProblems } from '../outputs/workflow-list.ts';

export type { TagsiteOptions };

type DeepRequired<T> = { [K in keyof T]-?: NonNullable<T[K]> extends object ? DeepRequired<NonNullable<T[K]>> : NonNullable<T[K]> };

/** The options with every default filled in (defaults are defined in schemas/options.schema.json). */
export type ResolvedOptions = DeepRequired<TagsiteOptions>;

/** Validates tagsite({...}) options and fills in defaults. The problems name `file` and the option. */
export function resolveOptions(user: unknown, file = 'astro.config.mjs'): { options: ResolvedOptions; problems: Problem[] } {
  const options = structuredClone(user ?? {}) as Record<string, unknown>;
  const problems = schemaProblems('options', options, file, () => undefined, { root: 'tagsite', withDefaults: true });
  const resolved = options as ResolvedOptions;
  if (problems.length === 0) problems.push(...workflowAddressProblems(resolved.workflows, file));
  return { options: resolved, problems };
}

/**
 * Astro's `site` is required: a build publishes absolute URLs (feeds, the sitemap and, when any
 * topic shares a workflow, the workflow list, whose reason is given first).
 */
export function siteProblems(site: string | URL | undefined, publishesWorkflowList: boolean, file = 'astro.config.mjs'): Problem[] {
  if (site) return [];
  const reason = publishesWorkflowList ? 'to publish the workflow list: its release pages are absolute URLs' : 'for the RSS feeds: their links are absolute URLs';
  return [{ file, field: 'site', message: `is required ${reason} (set site: 'https://your.domain')` }];
}
