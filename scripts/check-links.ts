/**
 * `npm run check-links [-- --domain example.com] [--json] [--lookup-url URL] [--timeout-ms N]
 * [--retry-delay-ms N] [--content <dir>]`: the lookup health check (SPEC 6, src/cli/check-links.ts).
 * Exit 0 when every domain is fully ok, 1 otherwise (or on a bad argument), 2 without LOOKUP_API_KEY.
 * The key is only read from the environment and only enters the request address.
 */
import { CHECK_LINKS_COMMAND, CHECK_LINKS_OPTIONS, checkLinks } from '../src/cli/check-links.ts';
import { parseArgs, projectRoot } from '../src/cli/project.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('check-links');

const key = process.env.LOOKUP_API_KEY ?? '';
const out = (text: string) => void process.stdout.write(text);
const err = (text: string) => void process.stderr.write(text);

try {
  const args = parseArgs(process.argv.slice(2), CHECK_LINKS_OPTIONS, CHECK_LINKS_COMMAND);
  process.exitCode = await checkLinks(projectRoot(), args, { key, lookupUrl: process.env.LOOKUP_URL }, { out, err, progress: process.stderr.isTTY === true });
} catch (error) {
  // Not a user mistake: one line naming the kind of failure (its message could quote the request, key and all).
  err(`${CHECK_LINKS_COMMAND}: unexpected failure (${error instanceof Error ? error.name : typeof error})\n`);
  process.exitCode = 1;
}
