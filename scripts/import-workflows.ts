/**
 * `npm run import-workflows -- <list.json> [--content <dir>] [--forum <id>] [--date YYYY-MM-DD]
 * [--dry-run]`: imports a workflow list (src/cli/import-workflows.ts) and prints its report, one
 * line per item skipped or value changed. Exit 1 on a bad argument or a list that cannot be read.
 */
import { resolve } from 'node:path';
import { IMPORT_WORKFLOWS_COMMAND, IMPORT_WORKFLOWS_OPTIONS, importArguments, importWorkflows, summary } from '../src/cli/import-workflows.ts';
import { formatProblem } from '../src/content/problems.ts';
import { parseArgs, printProblems, projectRoot } from '../src/cli/project.ts';
import { utcDay } from '../src/content/dates.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('import-workflows');

const root = projectRoot();
const argv = process.argv.slice(2);
// The list file comes first; everything after it is options.
const list = argv[0] !== undefined && !argv[0].startsWith('--') ? argv[0] : undefined;
const args = parseArgs(list === undefined ? argv : argv.slice(1), IMPORT_WORKFLOWS_OPTIONS, IMPORT_WORKFLOWS_COMMAND);
const request = importArguments(root, list === undefined ? undefined : resolve(root, list), args, utcDay(Date.now()));
if ('problems' in request) {
  printProblems(request.problems);
  process.exit(1);
}
const outcome = await importWorkflows(request);
if ('problems' in outcome) {
  printProblems(outcome.problems);
  process.exit(1);
}
for (const line of outcome.report) console.log(formatProblem(line));
console.log(summary(outcome, request.dryRun));
