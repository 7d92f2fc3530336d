/**
 * The limits of SPEC 7 (`limits.*` in the site options): the largest input a build accepts. Their
 * defaults live in schemas/options.schema.json with the reason for each; commands that read
 * content without the site's options (and `astro dev` pages) use those defaults.
 */
import type { TagsiteOptions } from './schema-types.ts';
import { schemas } from './schema-validation.ts';

export type Limits = Required<NonNullable<TagsiteOptions['limits']>>;

/** The defaults, read from the options schema (the one place they are written). */
export const DEFAULT_LIMITS: Limits = Object.fromEntries(
  Object.entries(schemas.options.properties.limits.properties).map(([name, schema]) => [name, schema.default]),
) as Limits;

/** How a message names a limit: `limits.tagsPerTopic`, with where to raise it. */
export function limitName(name: keyof Limits): string {
  return `limits.${name} in the site options`;
}
