/**
 * SPEC 7: every broken input gets one line `<file>[:<line>]: <field>: <message>`, all problems at
 * once, a non-zero exit and no stack trace; a failed build leaves an earlier output folder as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runScript, type ScriptResult } from '../helpers/cli.ts';
import { buildSite } from '../helpers/build.ts';
import { contentCases, optionCases } from './bad-input-cases.ts';
import { copyFixture, editJson, fixturesDir, PROBLEM_LINE, problemLines, problemPath, snapshotTree, tempConfig, writeTopic } from './fixture-copies.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dirname(dir), { recursive: true, force: true });
});

function brokenCopy(breakContent: (dir: string) => void): string {
  const dir = copyFixture('valid-small');
  made.push(dir);
  breakContent(dir);
  return dir;
}

/** Every problem line of a failed run, checked against SPEC 7's format; never a stack trace. */
function problemsOf(result: ScriptResult): string[] {
  expect(result.code, result.stdout + result.stderr).not.toBe(0);
  expect(result.code).not.toBeNull();
  const output = `${result.stderr}\n${result.stdout}`;
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/\b(?:TypeError|ReferenceError|SyntaxError|Error):/);
  const lines = problemLines(result.stderr);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line, 'one problem per line in the form <file>[:<line>]: <field>: <message>').toMatch(PROBLEM_LINE);
  return lines;
}

/** The line naming `file` and `field` exactly (the line number, if any, in between). */
function lineFor(lines: string[], file: string, field: string): string | undefined {
  return lines.find((line) => {
    const match = PROBLEM_LINE.exec(line);
    return match?.groups!.file === file && match.groups!.field === field;
  });
}

it('the catalogue is big enough and every case is distinct', () => {
  expect(contentCases.length + optionCases.length).toBeGreaterThanOrEqual(32);
  expect(new Set([...contentCases, ...optionCases].map((c) => c.name)).size).toBe(contentCases.length + optionCases.length);
});

it('valid-small itself is valid (so each case below breaks exactly one thing)', async () => {
  const result = await runScript('validate', ['--content', join(fixturesDir, 'valid-small')]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/content is valid: 7 topics, 5 content types, 2 members, 2 link records/);
});

// Each case is its own copy and its own process: they can run side by side.
describe.concurrent('npm run validate names the file and the field of each broken input', () => {
  it.each(contentCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const dir = brokenCopy(c.breakContent);
    const lines = problemsOf(await runScript('validate', ['--content', dir]));
    const file = problemPath(dir, c.file);
    const line = lineFor(lines, file, c.field);
    expect(line, `a line for ${file}: ${c.field} in:\n${lines.join('\n')}`).toBeDefined();
    const match = PROBLEM_LINE.exec(line!)!.groups!;
    expect(match.message).toMatch(c.message);
    if (c.withLine) expect(Number(match.line)).toBeGreaterThan(0);
    // One broken thing makes one problem: a broken content-types.json does not make its topics look broken too.
    expect(lines, 'nothing else is reported').toEqual([line]);
  });
});

describe.concurrent('bad site options in the config file are named by file and option', () => {
  it.each(optionCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const config = tempConfig(c.options);
    try {
      const lines = problemsOf(await runScript('validate', ['--content', join(fixturesDir, 'valid-small')], config.env));
      const line = lineFor(lines, config.path, c.field);
      expect(line, `a line for ${config.path}: ${c.field} in:\n${lines.join('\n')}`).toBeDefined();
      expect(PROBLEM_LINE.exec(line!)!.groups!.message).toMatch(c.message);
      expect(lines).toEqual([line]);
    } finally {
      config.remove();
    }
  });
});

it('a mistyped command-line option is one line naming the command and the option', async () => {
  const lines = problemsOf(await runScript('validate', ['--contnet=content']));
  expect(lines).toEqual(['validate: --contnet: unknown option; known: --content']);
});

it('reports every problem of several files in one run, without a stack trace', async () => {
  const dir = brokenCopy((dir) => {
    writeTopic(dir, 'help/first.md', { title: '""', author: 'mira', created: '2024-01-01', forum: 'help', replies: '2.5' });
    writeTopic(dir, 'guides/second.md', { title: 'Second', author: 'mira', created: '2024-02-30', category: 'nowhere', tag: '[x]' });
    editJson(dir, 'links.json', (links) => void (links[1].credit = 'nobody'));
    editJson(dir, 'members.json', (members) => void (members[0].joined = 'soon'));
    editJson(dir, 'content-types.json', (types) => {
      types.featureCategories.push({ id: 'help', name: 'Help again' });
      types.categories[0].kind = 'videos';
    });
  });
  const config = tempConfig('{ pageSize: 0 }');
  try {
    const lines = problemsOf(await runScript('validate', ['--content', dir], config.env));
    const expected: Array<[string, string]> = [
      [config.path, 'tagsite.pageSize'],
      [problemPath(dir, 'topics/help/first.md'), 'title'],
      [problemPath(dir, 'topics/help/first.md'), 'replies'],
      [problemPath(dir, 'topics/guides/second.md'), 'created'],
      [problemPath(dir, 'topics/guides/second.md'), 'category'],
      [problemPath(dir, 'topics/guides/second.md'), 'tag'],
      [problemPath(dir, 'links.json'), '[1].credit'],
      [problemPath(dir, 'members.json'), '[0].joined'],
      [problemPath(dir, 'content-types.json'), 'featureCategories[1].id'],
      [problemPath(dir, 'content-types.json'), 'categories[0].kind'],
    ];
    for (const [file, field] of expected) expect(lineFor(lines, file, field), `${file}: ${field} in:\n${lines.join('\n')}`).toBeDefined();
    expect(lines).toHaveLength(expected.length);
  } finally {
    config.remove();
  }
});

describe('a failed build leaves the existing output folder untouched', () => {
  let outDir: string;
  let before: Map<string, string>;

  beforeAll(async () => {
    ({ outDir } = await buildSite(join(fixturesDir, 'valid-small')));
    made.push(outDir);
    before = snapshotTree(outDir);
    expect(before.size).toBeGreaterThan(10);
  });

  const expectUntouched = () => {
    expect(snapshotTree(outDir)).toEqual(before);
    // No half-built folder left beside it either.
    expect(readdirSync(dirname(outDir)).filter((name) => name !== 'dist')).toEqual([]);
  };

  it('with broken content', async () => {
    const dir = brokenCopy((dir) => {
      writeTopic(dir, 'help/late.md', { title: 'Late', author: 'mira', created: '2024-03-01', updated: '2024-02-01', forum: 'help' });
      editJson(dir, 'links.json', (links) => void (links[0].link = 'javascript:alert(1)'));
    });
    const lines = problemsOf(await runScript('build', ['--content', dir, '--out', outDir]));
    expect(lineFor(lines, problemPath(dir, 'topics/help/late.md'), 'updated')).toBeDefined();
    expect(lineFor(lines, problemPath(dir, 'links.json'), '[0].link')).toBeDefined();
    expectUntouched();
  });

  it('with a bad option', async () => {
    const config = tempConfig("{ tagsShown: 'two' }");
    try {
      const lines = problemsOf(await runScript('build', ['--content', join(fixturesDir, 'valid-small'), '--out', outDir], config.env));
      expect(lineFor(lines, config.path, 'tagsite.tagsShown')).toBeDefined();
      expectUntouched();
    } finally {
      config.remove();
    }
  });

  it('and a good build replaces it', async () => {
    // The content is the last good build's: the output stands as it is, unless --clean.
    const same = await runScript('build', ['--content', join(fixturesDir, 'valid-small'), '--out', outDir]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^nothing changed since the last build/m);
    expectUntouched();
    const result = await runScript('build', ['--content', join(fixturesDir, 'valid-small'), '--out', outDir, '--clean']);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(outDir, 'tags', 'api', 'index.html'))).toBe(true);
    expect(snapshotTree(outDir)).not.toEqual(before);
  });
});
