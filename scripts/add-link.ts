/**
 * `npm run add-link -- --name … --description … --tags a,b --link URL --credit user@site
 * [--timestamp YYYY-MM-DD] [--content <dir>]`: checks one documentation link record by the rules
 * of links.json (SPEC 2.4) and appends it at the end of the file, leaving the records already there
 * byte for byte as they were. The file is replaced atomically: an interrupted run leaves the old
 * file. Every problem is one line; exit 1 if any.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isProblem, parseJsonFile } from '../src/content/json-file.ts';
import { newLinkProblems, readLinks, type LinkRecord } from '../src/content/links.ts';
import { appendRecordText, argumentProblem, linkRecordFromArguments } from '../src/model/link-records.ts';
import { writeFileAtomic } from '../src/cli/atomic-file.ts';
import { utcDay } from '../src/content/dates.ts';
import { contentDir, parseArgs, printProblems, projectRoot } from '../src/cli/project.ts';

const COMMAND = 'add-link';
const root = projectRoot();
const args = parseArgs(
  process.argv.slice(2),
  { name: 'string', description: 'string', tags: 'string', link: 'string', credit: 'string', timestamp: 'string', content: 'string' },
  COMMAND,
);

const path = join(contentDir(root, args.values.content as string | undefined), 'links.json');
const file = relative(root, path).startsWith('..') ? path : relative(root, path);

// The records already there must be valid: a new record is never appended to a broken file.
const exists = existsSync(path);
const text = exists ? readFileSync(path, 'utf8') : '[]\n';
const json = parseJsonFile(text, file);
const fileProblems = isProblem(json) ? [json] : readLinks(json, file).problems;
if (fileProblems.length > 0) {
  printProblems(fileProblems);
  console.error(`${file} has problems: fix them before adding a record.`);
  process.exit(1);
}
const existing = (json as { data: LinkRecord[] }).data;

const record = linkRecordFromArguments(args.values, utcDay(Date.now()));
// Every problem at once: the arguments not understood, then what is wrong with the record.
const problems = [...args.problems, ...newLinkProblems(record, existing, file).map((problem) => argumentProblem(problem, COMMAND))];
if (problems.length > 0) {
  printProblems(problems);
  process.exit(1);
}

const updated = appendRecordText(text, existing, record as unknown as LinkRecord);
// The new text must read back as the old records plus this one, or nothing is written.
const readBack = updated === undefined ? undefined : parseJsonFile(updated, file);
if (!readBack || isProblem(readBack) || JSON.stringify(readBack.data) !== JSON.stringify([...existing, record])) {
  printProblems([{ file, field: '(file)', message: 'could not append to this file safely; it was left unchanged' }]);
  process.exit(1);
}
try {
  writeFileAtomic(path, updated!);
} catch (error) {
  printProblems([{ file, field: '(file)', message: `could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it was left unchanged` }]);
  process.exit(1);
}
console.log(`added ${JSON.stringify(record.name)} as record ${existing.length + 1} of ${file}${exists ? '' : ' (new file)'}`);
