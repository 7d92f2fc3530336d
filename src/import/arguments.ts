/** `import-forum`'s command line: the options, checked all at once, one problem line each. */
import { resolve } from 'node:path';
import type { Problem } from '../content/problems.ts';
import { parseContentDate } from '../content/dates.ts';

export const IMPORT_FORUM_COMMAND = 'import-forum';
export const IMPORT_FORUM_OPTIONS = {
  from: 'string', url: 'string', forums: 'string', since: 'string', content: 'string', 'dry-run': 'boolean', 'include-hidden': 'boolean',
  'timeout-ms': 'string', 'retry-delay-ms': 'string', concurrency: 'string',
} as const;

export type ForumSoftware = 'ips' | 'discourse';

export interface ForumImportRequest {
  /** The project root (report paths are relative to it). */
  root: string;
  contentDir: string;
  from: ForumSoftware;
  /** The forum's address, ending in `/`. */
  url: string;
  /** Forum ids on the old forum (their sub-forums come with them); all when undefined. */
  forums?: string[];
  /** `YYYY-MM-DD`: only topics active on or after that day (UTC). */
  since?: string;
  dryRun: boolean;
  includeHidden: boolean;
  timeoutMs: number;
  retryDelayMs: number;
  concurrency: number;
  /** From the environment: IPS_API_KEY, or DISCOURSE_API_KEY and DISCOURSE_API_USERNAME. */
  key?: string;
  username?: string;
}

function wholeNumber(problems: Problem[], name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push({ file: IMPORT_FORUM_COMMAND, field: `--${name}`, message: `'${raw}' is not a whole number from ${min} to ${max}` });
    return fallback;
  }
  return Number(raw);
}

/** The forum's address made a base for its API: http or https, no user name or password, ending in `/`. */
export function forumUrl(raw: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `'${raw}' is not an address: give the forum's address, such as https://forum.example/` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `'${url.protocol}' addresses are not supported: give an http or https address` };
  if (url.username || url.password) return { problem: 'must not hold a user name or password: the key comes from an environment variable' };
  if (url.search || url.hash) return { problem: 'must not have a query or fragment: give the forum\'s own address' };
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return { url: url.href };
}

/** The request from the command line and the environment, or every problem with them. */
export function forumImportArguments(
  root: string,
  args: { values: Record<string, string | boolean>; problems: Problem[] },
  env: NodeJS.ProcessEnv,
): ForumImportRequest | { problems: Problem[] } {
  const problems = [...args.problems];
  const values = args.values as Record<string, string | undefined>;
  const problem = (field: string, message: string) => problems.push({ file: IMPORT_FORUM_COMMAND, field, message });
  const from = values.from;
  if (from === undefined) problem('--from', 'is required: ips (Invision Community) or discourse');
  else if (from !== 'ips' && from !== 'discourse') problem('--from', `'${from}' is not a forum software this imports: ips (Invision Community) or discourse`);
  let url: string | undefined;
  if (values.url === undefined) problem('--url', "is required: the forum's address, such as https://forum.example/");
  else {
    const checked = forumUrl(values.url);
    if ('problem' in checked) problem('--url', checked.problem);
    else url = checked.url;
  }
  let forums: string[] | undefined;
  if (values.forums !== undefined) {
    forums = values.forums.split(',').map((id) => id.trim());
    const bad = forums.filter((id) => !/^\d+$/.test(id));
    if (bad.length > 0 || forums.length === 0) problem('--forums', `'${values.forums}' is not a list of forum ids (whole numbers, comma-separated, such as 2,5)`);
  }
  const since = values.since;
  if (since !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(since) || parseContentDate(since) === undefined)) problem('--since', `'${since}' is not a real calendar date YYYY-MM-DD`);
  const timeoutMs = wholeNumber(problems, 'timeout-ms', values['timeout-ms'], 30_000, 100, 600_000);
  const retryDelayMs = wholeNumber(problems, 'retry-delay-ms', values['retry-delay-ms'], 1_000, 0, 60_000);
  const concurrency = wholeNumber(problems, 'concurrency', values.concurrency, 4, 1, 16);
  const key = from === 'ips' ? env.IPS_API_KEY : env.DISCOURSE_API_KEY;
  if (from === 'ips' && !key) problem('IPS_API_KEY', 'is not set: an Invision Community REST API key is needed (Admin CP → System → REST & OAuth → API keys); give it in this environment variable, never as an argument');
  if (from === 'discourse' && !key && env.DISCOURSE_API_USERNAME) problem('DISCOURSE_API_KEY', 'is not set, but DISCOURSE_API_USERNAME is: give both, or neither for the public JSON');
  if (problems.length > 0) return { problems };
  return {
    root,
    contentDir: resolve(root, values.content ?? 'content'),
    from: from as ForumSoftware,
    url: url!,
    ...(forums ? { forums } : {}),
    ...(since ? { since } : {}),
    dryRun: args.values['dry-run'] === true,
    includeHidden: args.values['include-hidden'] === true,
    timeoutMs,
    retryDelayMs,
    concurrency,
    ...(key ? { key } : {}),
    ...(from === 'discourse' && env.DISCOURSE_API_USERNAME ? { username: env.DISCOURSE_API_USERNAME } : {}),
  };
}
