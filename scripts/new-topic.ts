/**
 * `npm run new-topic -- "Title" --forum <id> --tags a,b [--author name] [--category id] [--slug s]
 * [--content <dir>]`: writes a new topic file dated today (src/cli/new-topic.ts). Every problem is
 * one line; exit 1 if any.
 */
import { newTopic, newTopicArguments } from '../src/cli/new-topic.ts';
import { utcDay } from '../src/content/dates.ts';
import { printProblems, projectRoot } from '../src/cli/project.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('new-topic');

const outcome = await newTopic(projectRoot(), newTopicArguments(process.argv.slice(2)), utcDay(Date.now()));
if ('problems' in outcome) {
  printProblems(outcome.problems);
  process.exit(1);
}
console.log(outcome.created);
