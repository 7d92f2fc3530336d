/**
 * `npm run check-links [-- --domain example.com] [--json] [--lookup-url URL] [--timeout-ms N]
 * [--retry-delay-ms N] [--content <dir>]`: the lookup health check (SPEC 6).
 * Exit 0 when every domain is fully ok, 1 otherwise (or on a bad argument), 2 without LOOKUP_API_KEY.
 * The key is only read from the environment, and every line printed passes through redactKey.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isProblem, parseJsonFile } from '../src/content/json-file.ts';
import { readLinks } from '../src/content/links.ts';
import { formatProblem, type Problem } from '../src/content/problems.ts';
import { checkReport, isDomainName, judgeReply, linkDomains, lookupRequestUrl, redactKey, redactReport, reportTable } from '../src/cli/lookup.ts';
import { askLookup, mapWithLimit } from '../src/cli/lookup-client.ts';
import { contentDir, parseArgs, projectOptions, projectRoot } from '../src/cli/project.ts';

const COMMAND = 'check-links';
/** At most this many requests at once: the lookup service is a shared, rate-limited API. */
const CONCURRENCY = 4;
const RETRIES = 2;

const key = process.env.LOOKUP_API_KEY ?? '';
const out = (text: string) => process.stdout.write(redactKey(text, key));
const err = (text: string) => process.stderr.write(redactKey(text, key));

function fail(problems: Problem[], code = 1): never {
  for (const problem of problems) err(`${formatProblem(problem)}\n`);
  process.exit(code);
}

function wholeNumber(values: Record<string, string | boolean>, name: string, fallback: number, min: number, problems: Problem[]): number {
  const text = values[name] as string | undefined;
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > 600_000) {
    problems.push({ file: COMMAND, field: `--${name}`, message: `must be a whole number of milliseconds from ${min} to 600000, not ${JSON.stringify(text)}` });
  }
  return n;
}

/** The lookup address: --lookup-url, else LOOKUP_URL, else the `lookup.url` option. */
async function lookupUrl(root: string, flag: string | undefined): Promise<{ url: string; source: Problem }> {
  if (flag !== undefined) return { url: flag, source: { file: COMMAND, field: '--lookup-url', message: '' } };
  if (process.env.LOOKUP_URL) return { url: process.env.LOOKUP_URL, source: { file: COMMAND, field: 'LOOKUP_URL', message: '' } };
  const { options, problems } = await projectOptions(root);
  if (problems.length > 0) fail(problems);
  return { url: options.lookup.url, source: { file: 'astro.config.mjs', field: 'tagsite.lookup.url', message: '' } };
}

/** The domains to check: --domain, else each distinct domain of links.json. */
function domainsToCheck(root: string, values: Record<string, string | boolean>): string[] {
  const domain = values.domain as string | undefined;
  if (domain !== undefined) {
    if (!isDomainName(domain)) fail([{ file: COMMAND, field: '--domain', message: `${JSON.stringify(domain)} is not a domain name (such as example.com)` }]);
    return [domain.toLowerCase()];
  }
  const path = join(contentDir(root, values.content as string | undefined), 'links.json');
  const file = relative(root, path).startsWith('..') ? path : relative(root, path);
  if (!existsSync(path)) fail([{ file, field: '(file)', message: 'the file is missing (or give --domain)' }]);
  const json = parseJsonFile(readFileSync(path, 'utf8'), file);
  if (isProblem(json)) fail([json]);
  const { links, problems } = readLinks(json, file);
  if (problems.length > 0) fail(problems);
  return linkDomains(links);
}

async function main(): Promise<number> {
  const root = projectRoot();
  const { values, problems } = parseArgs(
    process.argv.slice(2),
    { domain: 'string', json: 'boolean', 'lookup-url': 'string', 'timeout-ms': 'string', 'retry-delay-ms': 'string', content: 'string' },
    COMMAND,
  );
  const timeoutMs = wholeNumber(values, 'timeout-ms', 10_000, 1, problems);
  const backoffMs = wholeNumber(values, 'retry-delay-ms', 500, 0, problems);
  if (problems.length > 0) fail(problems);

  if (!key.trim()) {
    err(`${COMMAND}: LOOKUP_API_KEY: is not set. The lookup API key is read only from this environment variable (never from a file): LOOKUP_API_KEY=… npm run check-links\n`);
    return 2;
  }

  const { url: base, source } = await lookupUrl(root, values['lookup-url'] as string | undefined);
  if (!/^https?:\/\/[^/?#]/i.test(base) || !URL.canParse(base)) {
    fail([{ ...source, message: `${JSON.stringify(base)} is not an http or https address` }]);
  }
  const domains = domainsToCheck(root, values);

  const progress = process.stderr.isTTY === true;
  let done = 0;
  const showProgress = () => progress && err(`\rchecking ${domains.length} domain${domains.length === 1 ? '' : 's'}: ${done} done\x1b[K`);
  showProgress();
  const checks = await mapWithLimit(domains, CONCURRENCY, async (domain) => {
    const reply = await askLookup(lookupRequestUrl(base, domain, key), { timeoutMs, retries: RETRIES, backoffMs });
    done++;
    showProgress();
    return judgeReply(domain, reply);
  });
  if (progress) err('\r\x1b[K');

  const report = redactReport(checkReport(base, checks), key);
  out(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportTable(report));
  return report.ok ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  // Not a user mistake: say what happened in one line, still without the key.
  err(`${COMMAND}: unexpected failure: ${(error as Error)?.message ?? String(error)}\n`);
  process.exitCode = 1;
}
