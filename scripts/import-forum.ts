/**
 * `npm run import-forum -- --from ips|discourse --url <forum> [--forums 1,2] [--since YYYY-MM-DD]
 * [--content <dir>] [--dry-run] [--include-hidden] [--timeout-ms 30000] [--retry-delay-ms 1000]
 * [--concurrency 4]`: imports a forum (src/import/import-forum.ts) and prints its report, one line
 * per topic skipped or value changed, then what it did. Exit 1 on a bad argument, or when a request
 * failed for good (the next run goes on from there).
 */
import { formatProblem } from '../src/content/problems.ts';
import { parseArgs, printProblems, projectOptions, projectRoot } from '../src/cli/project.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';
import { IMPORT_FORUM_COMMAND, IMPORT_FORUM_OPTIONS, forumImportArguments } from '../src/import/arguments.ts';
import { importForum } from '../src/import/import-forum.ts';
import { redact } from '../src/import/http.ts';
import { summary } from '../src/import/summary.ts';

exitWithUsageOnHelp(IMPORT_FORUM_COMMAND);

const root = projectRoot();
const request = forumImportArguments(root, parseArgs(process.argv.slice(2), IMPORT_FORUM_OPTIONS, IMPORT_FORUM_COMMAND), process.env);
if ('problems' in request) {
  printProblems(request.problems);
  process.exit(1);
}
const { options, problems } = await projectOptions(root);
if (problems.length > 0) {
  printProblems(problems);
  process.exit(1);
}
const started = performance.now();
// What no rule foresaw (a full disk, a folder that cannot be written) is still one line, and never names the key.
const outcome = await importForum(request, { limits: options.limits, excerptLength: options.excerptLength }).catch((error: unknown) => {
  const message = redact(String((error as Error)?.message ?? error).split('\n')[0]!, [request.key ?? ''].filter(Boolean));
  printProblems([{ file: IMPORT_FORUM_COMMAND, field: '(error)', message: `${message}; what was written before it is kept, and a re-run goes on from there` }]);
  process.exit(1);
});
if ('problems' in outcome) {
  printProblems(outcome.problems);
  process.exit(1);
}
for (const line of outcome.report) console.log(formatProblem(line));
console.log(summary(outcome, request.dryRun, (performance.now() - started) / 1000));
process.exit(outcome.complete ? 0 : 1);
