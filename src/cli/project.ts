/** What the command-line scripts share: finding the project, its options and content, and printing problems. */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { TagsiteIntegration } from '../integration/index.ts';
import type { ResolvedOptions } from '../integration/options.ts';
import { ContentProblemsError, formatProblem, type Problem } from '../content/problems.ts';

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
  // The options' validator (Ajv and the schemas) loads only for the commands that read options.
  const { resolveOptions } = await import('../integration/options.ts');
  const configFile = process.env.TAGSITE_CONFIG ?? 'astro.config.mjs';
  const path = resolve(root, configFile);
  if (!existsSync(path)) return { ...resolveOptions({}), config: {} };
  const unreadable = configProblem(root);
  if (unreadable) return { ...resolveOptions({}), problems: [unreadable], config: {} };
  let config: Record<string, unknown>;
  try {
    config = ((await import(pathToFileURL(path).href)) as { default: Record<string, unknown> }).default ?? {};
  } catch (error) {
    const first = String((error as Error)?.message ?? error).split('\n')[0];
    return { ...resolveOptions({}), problems: [{ file: configFile, field: '(file)', message: `could not be loaded: ${first}` }], config: {} };
  }
  const integrations = ((config.integrations ?? []) as unknown[]).flat() as Array<Partial<TagsiteIntegration>>;
  const tagsite = integrations.find((integration) => integration?.name === 'tagsite');
  if (!tagsite?.resolved) return { ...resolveOptions({}), config };
  const problems = (tagsite.problems ?? []).map((problem) => ({ ...problem, file: configFile }));
  return { options: tagsite.resolved, problems, config };
}

/**
 * A syntax error in the project's config file (TAGSITE_CONFIG, else astro.config.mjs) as one
 * problem with its line, found by `node --check` before Astro or a command loads it (both would
 * print a stack). Undefined when the file parses or does not exist.
 */
export function configProblem(root: string): Problem | undefined {
  const configFile = process.env.TAGSITE_CONFIG ?? 'astro.config.mjs';
  const path = resolve(root, configFile);
  if (!existsSync(path)) return undefined;
  const check = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8' });
  if (check.status === 0) return undefined;
  const output = `${check.stderr ?? ''}`;
  const line = /:(\d+)\r?\n/.exec(output)?.[1];
  const message = /^(SyntaxError: .*)$/m.exec(output)?.[1] ?? output.trim().split('\n')[0] ?? 'cannot be read';
  return { file: configFile, ...(line ? { line: Number(line) } : {}), field: '(file)', message: `not valid JavaScript: ${message.replace(/^SyntaxError: /, '')}` };
}

/** Prints every problem, one line each, on stderr, with a closing count. */
export function printProblems(problems: Problem[]): void {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`\n${problems.length} problem${problems.length === 1 ? '' : 's'} found.`);
}

/**
 * The build's edge for problems in options and content: every one printed as one line, and the
 * process ends before anything is written (Astro would add a stack and a hook name to a thrown error).
 */
export async function stopOnProblems<T>(step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    if (!(error instanceof ContentProblemsError)) throw error;
    printProblems(error.problems);
    console.error('The build stopped before writing anything; the output folder is unchanged.');
    process.exit(1);
  }
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
