/** `npm run validate [-- --content <dir>]`: checks the options and all content; prints every problem; exit 1 if any. */
import { loadContent } from '../src/content/load.ts';
import { siteProblems } from '../src/integration/options.ts';
import { contentDir, parseArgs, printProblems, projectOptions, projectRoot } from '../src/cli/project.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('validate');

const root = projectRoot();
const args = parseArgs(process.argv.slice(2), { content: 'string' }, 'validate');
if (args.problems.length > 0) {
  printProblems(args.problems);
  process.exit(1);
}
const { options, problems: optionProblems, config } = await projectOptions(root);
const { content, problems } = loadContent({
  root,
  contentDir: contentDir(root, args.values.content as string | undefined),
  excerptLength: options.excerptLength,
  limits: options.limits,
});
// A config that could not be read has no `site` to judge.
const configRead = !optionProblems.some((problem) => problem.field === '(file)');
const site = !configRead ? [] : siteProblems(config.site as string | undefined, content.topics.some((topic) => topic.workflow));
const all = [...optionProblems, ...site, ...problems];
if (all.length > 0) {
  printProblems(all);
  process.exit(1);
}
console.log(
  `content is valid: ${content.topics.length} topics, ${content.contentTypes.list.length} content types, ` +
    `${content.members.length} members, ${content.links.length} link records`,
);
