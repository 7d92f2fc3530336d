/** One thing wrong with an input: where it is and what is wrong. Errors stay values until the edge prints them. */
export interface Problem {
  /** Path of the file, relative to the project root, as the user would type it. */
  file: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** Field path inside the file, such as `tags[2]` or `[3].description`; `(file)` for the file as a whole. */
  field: string;
  /** What is wrong, in the user's words. */
  message: string;
}

/** Formats a problem as the one line of SPEC 7: `<file>[:<line>]: <field path>: <what is wrong>`. */
export function formatProblem(problem: Problem): string {
  const where = problem.line ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${problem.field}: ${problem.message}`;
}

/**
 * Thrown only at edges (the build, the pages in `astro dev`) to carry every problem at once. A
 * user's mistake, not a bug: its stack is only its message, since Astro prints the stack it is given.
 */
export class ContentProblemsError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? '' : 's'} in the content:\n` +
        problems.map(formatProblem).join('\n'),
    );
    this.name = 'ContentProblemsError';
    this.problems = problems;
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Joins a field path and a key: `tags` + 2 → `tags[2]`, `workflow` + `file` → `workflow.file`. */
export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}
