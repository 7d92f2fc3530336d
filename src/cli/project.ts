/** What the command-line scripts share: finding the project, its options and content, and printing problems. */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { TagsiteIntegration } from '../integration/index.ts';
import { resolveOptions, type ResolvedOptions } from '../integration/options.ts';
import { formatProblem, type Problem } from '../content/problems.ts';

/** The project root: the current directory (npm runs scripts from the package folder). */
export function projectRoot(): string {
  return process.cwd();
}

/** The content folder: `--content <dir>`, else `content/`. */
export function contentDir(root: string, flag?: string): string {
  return resolve(root, flag ?? 'content');
}

/**
 * Reads the tagsite options from the project's astro.config.mjs (the integration validates them).
 * A config without a tagsite() integration gets the defaults.
 */
export async function projectOptions(root: string): Promise<{ options: ResolvedOptions; problems: Problem[]; config: Record<string, unknown> }> {
  const configFile = process.env.TAGSITE_CONFIG ?? 'astro.config.mjs';
  const path = resolve(root, configFile);
  if (!existsSync(path)) return { ...resolveOptions({}), config: {} };
  const config = ((await import(pathToFileURL(path).href)) as { default: Record<string, unknown> }).default;
  const integrations = ((config.integrations ?? []) as unknown[]).flat() as Array<Partial<TagsiteIntegration>>;
  const tagsite = integrations.find((integration) => integration?.name === 'tagsite');
  if (!tagsite?.resolved) return { ...resolveOptions({}), config };
  const problems = (tagsite.problems ?? []).map((problem) => ({ ...problem, file: configFile }));
  return { options: tagsite.resolved, problems, config };
}

/** Prints every problem, one line each, on stderr, with a closing count. */
export function printProblems(problems: Problem[]): void {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`\n${problems.length} problem${problems.length === 1 ? '' : 's'} found.`);
}

/**
 * Reads `--name value` and `--flag` arguments. Unknown or repeated names and stray words are
 * problems (one line each), never exceptions.
 */
export function parseArgs(
  argv: string[],
  spec: Record<string, 'string' | 'boolean'>,
  command: string,
): { values: Record<string, string | boolean>; problems: Problem[] } {
  const values: Record<string, string | boolean> = {};
  const problems: Problem[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      problems.push({ file: command, field: arg, message: 'unexpected argument (options start with --)' });
      continue;
    }
    const name = match[1]!;
    const kind = spec[name];
    if (!kind) {
      problems.push({ file: command, field: `--${name}`, message: `unknown option; known: ${Object.keys(spec).map((k) => `--${k}`).join(', ')}` });
      // Its value (if one follows) belongs to it: one mistake, one line.
      if (match[2] === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) i++;
      continue;
    }
    if (name in values) problems.push({ file: command, field: `--${name}`, message: 'given more than once' });
    if (kind === 'boolean') {
      values[name] = true;
      continue;
    }
    const value = match[2] ?? argv[i + 1];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) {
      problems.push({ file: command, field: `--${name}`, message: 'needs a value' });
      continue;
    }
    if (match[2] === undefined) i++;
    values[name] = value;
  }
  return { values, problems };
}
