/** What `npm run <command> -- --help` prints: each command's usage, in one place. */

const USAGE: Record<string, string> = {
  build: `npm run build [-- --content <dir>] [--out <dir>] [--clean]
  Validates the options and all content, then builds the site (default content/ → dist/), beside the
  output folder, swapped in only when complete. --clean renders every page again.`,
  validate: `npm run validate [-- --content <dir>]
  Validates the options and all content; prints every problem, one line each; exit 1 if any.`,
  'add-link': `npm run add-link -- --name <name> --description <text> --tags a,b --link <url> --credit <user@site> [--timestamp YYYY-MM-DD] [--content <dir>]
  Checks one documentation link record by the rules of links.json and appends it at the end.`,
  'new-topic': `npm run new-topic -- "Title" --forum <id> --tags a,b [--author <name>] [--category <id>] [--slug <slug>] [--content <dir>]
  Writes a new topic file, dated today, checked by the build's rules.`,
  'check-links': `LOOKUP_API_KEY=… npm run check-links [-- --domain example.com] [--json] [--lookup-url URL] [--timeout-ms 10000] [--retry-delay-ms 500]
  Checks each domain of the link records through the DNS lookup API; exit 0 only when all are fine.`,
  'import-workflows': `npm run import-workflows -- <list.json> [--content <dir>] [--forum <id>] [--date YYYY-MM-DD] [--dry-run]
  Turns a workflow list (either key style) into topics and members; reports every item skipped or value changed.`,
  'import-forum': `IPS_API_KEY=… npm run import-forum -- --from ips --url <community> [--forums 1,2] [--since YYYY-MM-DD] [--content <dir>] [--dry-run] [--include-hidden]
npm run import-forum -- --from discourse --url <forum> [same options]   (optional DISCOURSE_API_KEY, DISCOURSE_API_USERNAME)
  [--timeout-ms 30000] [--retry-delay-ms 1000] [--concurrency 4]
  Imports a forum's forums, topics (first posts as Markdown) and members into the content folder; a later
  run with the same --url imports only what changed. Reports every topic skipped and value changed.`,
  bench: `npm run bench [-- --sizes 1000,10000,100000] [--queries 50] [--seed s] [--full-build-max 100000] [--rebuild-runs 3] [--step-timeout 600] [--keep] [--no-pagefind]
npm run bench -- --generate 10000 --out <dir> [--seed s] [--end YYYY-MM-DD]
  The build and browser-search benchmark on generated content, or only a generated content folder.`,
  types: `npm run types
  Regenerates src/content/schema-types.ts from the JSON Schemas in schemas/.`,
};

/** The usage of a command. */
export function usage(command: string): string {
  return USAGE[command] ?? `npm run ${command}`;
}

/** With --help (or -h) among the arguments: prints the command's usage and ends the process, exit 0. */
export function exitWithUsageOnHelp(command: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.some((arg) => arg === '--help' || arg === '-h')) return;
  console.log(usage(command));
  process.exit(0);
}
