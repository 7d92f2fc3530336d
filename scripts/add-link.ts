/**
 * `npm run add-link -- --name … --description … --tags a,b --link URL --credit user@site
 * [--timestamp YYYY-MM-DD] [--content <dir>]`: appends one documentation link record to
 * links.json (src/cli/add-link.ts). Every problem is one line; exit 1 if any.
 */
import { ADD_LINK_COMMAND, ADD_LINK_OPTIONS, addLink } from '../src/cli/add-link.ts';
import { utcDay } from '../src/content/dates.ts';
import { parseArgs, printProblems, projectRoot } from '../src/cli/project.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('add-link');

const outcome = await addLink(projectRoot(), parseArgs(process.argv.slice(2), ADD_LINK_OPTIONS, ADD_LINK_COMMAND), utcDay(Date.now()));
if ('problems' in outcome) {
  printProblems(outcome.problems);
  if (outcome.advice) console.error(outcome.advice);
  process.exit(1);
}
console.log(outcome.added);
