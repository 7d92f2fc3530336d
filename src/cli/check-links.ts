/**
 * `check-links`: the lookup health check (SPEC 6) of one domain or of every domain of links.json.
 * The key comes only from the caller (the environment) and goes only into the request address
 * (lookupRequestUrl); what is printed is built from the domain, the status and reply text that
 * does not repeat the key, never edited afterwards.
 */
import { join, relative } from 'node:path';
import { isProblem, readJsonFile } from '../content/json-file.ts';
import { readLinks } from '../content/links.ts';
import { formatProblem, type Problem } from '../content/problems.ts';
import { checkReport, isDomainName, judgeReply, linkDomains, lookupRequestUrl, reportTable } from './lookup.ts';
import { askLookup, mapWithLimit } from './lookup-client.ts';
import { contentDir, projectOptions } from './project.ts';

export const CHECK_LINKS_COMMAND = 'check-links';

/** The command's options, for parseArgs. */
export const CHECK_LINKS_OPTIONS = {
  domain: 'string', json: 'boolean', 'lookup-url': 'string', 'timeout-ms': 'string', 'retry-delay-ms': 'string', content: 'string',
} as const;

/** At most this many requests at once: the lookup service is a shared, rate-limited API. */
const CONCURRENCY = 4;
const RETRIES = 2;

type Values = Record<string, string | boolean>;

/** Where the command writes: stdout, stderr, and whether stderr is a terminal. */
export interface CheckLinksIo {
  out: (text: string) => void;
  err: (text: string) => void;
  progress: boolean;
}

/** What the command reads from its environment. */
export interface CheckLinksEnvironment {
  /** LOOKUP_API_KEY. */
  key: string;
  /** LOOKUP_URL. */
  lookupUrl?: string | undefined;
}

/** Problems that end the run (exit 1), each printed as one line. */
class Stop extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super('stop');
    this.problems = problems;
  }
}

function wholeNumber(values: Values, name: string, fallback: number, min: number, problems: Problem[]): number {
  const text = values[name] as string | undefined;
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > 600_000) {
    problems.push({ file: CHECK_LINKS_COMMAND, field: `--${name}`, message: `must be a whole number of milliseconds from ${min} to 600000, not ${JSON.stringify(text)}` });
  }
  return n;
}

/** The lookup address: --lookup-url, else LOOKUP_URL, else the `lookup.url` option; and where it came from. */
async function lookupUrl(root: string, flag: string | undefined, fromEnvironment: string | undefined): Promise<{ url: string; source: Problem }> {
  if (flag !== undefined) return { url: flag, source: { file: CHECK_LINKS_COMMAND, field: '--lookup-url', message: '' } };
  if (fromEnvironment) return { url: fromEnvironment, source: { file: CHECK_LINKS_COMMAND, field: 'LOOKUP_URL', message: '' } };
  const { options, problems } = await projectOptions(root);
  if (problems.length > 0) throw new Stop(problems);
  return { url: options.lookup.url, source: { file: 'astro.config.mjs', field: 'tagsite.lookup.url', message: '' } };
}

/** The domains to check: --domain, else each distinct domain of links.json. */
function domainsToCheck(root: string, values: Values): string[] {
  const domain = values.domain as string | undefined;
  if (domain !== undefined) {
    if (!isDomainName(domain)) throw new Stop([{ file: CHECK_LINKS_COMMAND, field: '--domain', message: `${JSON.stringify(domain)} is not a domain name (such as example.com)` }]);
    return [domain.toLowerCase()];
  }
  const path = join(contentDir(root, values.content as string | undefined), 'links.json');
  const file = relative(root, path).startsWith('..') ? path : relative(root, path);
  const json = readJsonFile(path, file, { problem: 'the file is missing (or give --domain)' });
  if (isProblem(json)) throw new Stop([json]);
  const { links, problems } = readLinks(json, file);
  if (problems.length > 0) throw new Stop(problems);
  return linkDomains(links);
}

async function run(root: string, args: { values: Values; problems: Problem[] }, env: CheckLinksEnvironment, io: CheckLinksIo): Promise<number> {
  const { values } = args;
  const problems = [...args.problems];
  const timeoutMs = wholeNumber(values, 'timeout-ms', 10_000, 1, problems);
  const backoffMs = wholeNumber(values, 'retry-delay-ms', 500, 0, problems);
  if (problems.length > 0) throw new Stop(problems);

  if (!env.key.trim()) {
    io.err(`${CHECK_LINKS_COMMAND}: LOOKUP_API_KEY: is not set. The lookup API key is read only from this environment variable (never from a file): LOOKUP_API_KEY=… npm run check-links\n`);
    return 2;
  }

  const { url: base, source } = await lookupUrl(root, values['lookup-url'] as string | undefined, env.lookupUrl);
  if (!/^https?:\/\/[^/?#]/i.test(base) || !URL.canParse(base)) {
    throw new Stop([{ ...source, message: `${JSON.stringify(base)} is not an http or https address` }]);
  }
  const domains = domainsToCheck(root, values);

  let done = 0;
  const showProgress = () => io.progress && io.err(`\rchecking ${domains.length} domain${domains.length === 1 ? '' : 's'}: ${done} done\x1b[K`);
  showProgress();
  const checks = await mapWithLimit(domains, CONCURRENCY, async (domain) => {
    const reply = await askLookup(lookupRequestUrl(base, domain, env.key), { timeoutMs, retries: RETRIES, backoffMs });
    done++;
    showProgress();
    return judgeReply(domain, reply, env.key);
  });
  if (io.progress) io.err('\r\x1b[K');

  const report = checkReport(base, checks);
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportTable(report));
  return report.ok ? 0 : 1;
}

/**
 * Runs the check and returns the exit code: 0 when every domain is fully ok, 1 otherwise (or on a
 * bad argument, one line each), 2 without a key.
 */
export async function checkLinks(root: string, args: { values: Values; problems: Problem[] }, env: CheckLinksEnvironment, io: CheckLinksIo): Promise<number> {
  try {
    return await run(root, args, env, io);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    for (const problem of error.problems) io.err(`${formatProblem(problem)}\n`);
    return 1;
  }
}
