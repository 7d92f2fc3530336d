/**
 * GitHub Actions annotations from problem lines: `<file>[:<line>]: <field>: <msg>` (SPEC 7) becomes
 * `::error file=<file>,line=<line>,title=<field>::<msg>`, which GitHub shows on the pull request's
 * changed file, at that line.
 */

// A problem line: the file has no `: ` in it, the optional line is digits, the field path runs to the
// next `: ` (field paths such as `[3].credit` or `tags[2]` never hold one), the message is the rest.
const PROBLEM_LINE = /^(?<file>[^\s:][^:]*?)(?::(?<line>\d+))?: (?<field>[^:]+?): (?<message>.+)$/s;

// Workflow commands read `%`, CR and LF specially everywhere, and `:` and `,` inside properties.
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One output line as an annotation when it is a problem line; undefined for any other line. */
export function annotationOf(line: string): string | undefined {
  const match = PROBLEM_LINE.exec(line);
  if (!match?.groups) return undefined;
  const { file, line: lineNumber, field, message } = match.groups as { file: string; line?: string; field: string; message: string };
  const properties = [`file=${escapeProperty(file)}`, ...(lineNumber ? [`line=${lineNumber}`] : []), `title=${escapeProperty(field)}`];
  return `::error ${properties.join(',')}::${escapeData(message)}`;
}

/** A command's whole output with each problem line turned into an annotation and other lines kept. */
export function annotate(output: string): string {
  return output
    .split(/\r?\n/)
    .map((line) => annotationOf(line) ?? line)
    .join('\n');
}
