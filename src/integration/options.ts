import type { TagsiteOptions } from '../content/schema-types.ts';
import { schemaProblems } from '../content/schema-validation.ts';
import type { Problem } from '../content/problems.ts';

export type { TagsiteOptions };

type DeepRequired<T> = { [K in keyof T]-?: NonNullable<T[K]> extends object ? DeepRequired<NonNullable<T[K]>> : NonNullable<T[K]> };

/** The options with every default filled in (defaults are defined in schemas/options.schema.json). */
export type ResolvedOptions = DeepRequired<TagsiteOptions>;

/** Validates tagsite({...}) options and fills in defaults. The problems name `astro.config.mjs` and the option. */
export function resolveOptions(user: unknown, file = 'astro.config.mjs'): { options: ResolvedOptions; problems: Problem[] } {
  const options = structuredClone(user ?? {}) as Record<string, unknown>;
  const problems = schemaProblems('options', options, file, () => undefined, { root: 'tagsite', withDefaults: true });
  return { options: options as ResolvedOptions, problems };
}
