/** The validate workflow's formatter: problem lines become GitHub `::error` annotations, other lines pass through. */
import { describe, expect, it } from 'vitest';
import { annotate, annotationOf } from '../../src/cli/github-annotations.ts';
import { formatProblem, type Problem } from '../../src/content/problems.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript } from '../helpers/cli.ts';
import { copyFixture } from '../build/fixture-copies.ts';

describe('annotationOf', () => {
  it('gives file, line and field of a problem line', () => {
    expect(annotationOf('content/topics/help/json-path.md:4: created: must be a date YYYY-MM-DD, not "2023-02-30"'))
      .toBe('::error file=content/topics/help/json-path.md,line=4,title=created::must be a date YYYY-MM-DD, not "2023-02-30"');
  });

  it('leaves the line out when the problem has none, and keeps `: ` inside the message', () => {
    expect(annotationOf('content/links.json: [3].credit: "mira" is not valid: Contributor handle, `<username>@<site>`.'))
      .toBe('::error file=content/links.json,title=[3].credit::"mira" is not valid: Contributor handle, `<username>@<site>`.');
  });

  it('escapes what workflow commands read specially: % CR LF in the message, also : and , in properties', () => {
    expect(annotationOf('content/a,b.md:2: tags[0]: 100% wrong\r')).toBe('::error file=content/a%2Cb.md,line=2,title=tags[0]::100%25 wrong%0D');
    expect(annotationOf('content/members.json:7: (file): x')).toBe('::error file=content/members.json,line=7,title=(file)::x');
  });

  it('reads back every problem formatProblem writes', () => {
    const problems: Problem[] = [
      { file: 'content/topics/guides/x.md', line: 12, field: 'workflow.download', message: 'must be an http or https URL' },
      { file: 'astro.config.mjs', field: 'site', message: 'is required: set site: \'https://x\'' },
      { file: 'content/topics/a b/with space.md', line: 1, field: '(front matter)', message: 'not valid YAML: bad indentation' },
    ];
    for (const problem of problems) {
      const annotation = annotationOf(formatProblem(problem))!;
      const match = /^::error file=([^,]*),(?:line=(\d+),)?title=([^:]*)::(.*)$/.exec(annotation)!;
      expect(match, annotation).not.toBeNull();
      expect(match[1]!.replace(/%3A/g, ':').replace(/%2C/g, ',')).toBe(problem.file);
      expect(match[2] === undefined ? undefined : Number(match[2])).toBe(problem.line);
      expect(match[3]).toBe(problem.field);
      expect(match[4]).toBe(problem.message);
    }
  });

  it.each(['content is valid: 46 topics, 12 content types', '3 problems found.', '', 'The build stopped before writing anything; the output folder is unchanged.'])(
    'is undefined for %j',
    (line) => expect(annotationOf(line)).toBeUndefined(),
  );
});

describe('the formatter script on real validate output', () => {
  it('annotates every problem of a broken content folder, with lines, and keeps the other lines', async () => {
    const dir = copyFixture('valid-small');
    const topic = join(dir, 'topics', 'guides', 'api-basics.md');
    writeFileSync(topic, readFileSync(topic, 'utf8').replace(/^created: .*$/m, 'created: 2023-02-30').replace(/^tags:/m, 'tag:'));
    const validate = await runScript('validate', ['--content', dir]);
    expect(validate.code).toBe(1);
    const output = `${validate.stdout}${validate.stderr}`;
    const formatted = await runScript('github-annotations', [], {}, output);
    expect(formatted.code).toBe(0);
    expect(formatted.stdout).toBe(annotate(output));
    const lines = formatted.stdout.split('\n');
    const annotations = lines.filter((line) => line.startsWith('::error '));
    expect(annotations).toHaveLength(2);
    // Files are named as validate names them: relative to the project root, as GitHub wants.
    for (const annotation of annotations) expect(annotation).toMatch(/^::error file=[^,]*\/topics\/guides\/api-basics\.md,line=\d+,title=(created|tag)::\S/);
    expect(lines).toContain('2 problems found.');
    expect(lines.length).toBe(output.split('\n').length);
  });
});
