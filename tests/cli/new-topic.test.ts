/**
 * `npm run new-topic`: writes a topic file the build accepts (today's UTC date, a transliterated
 * slug made unique with -2, -3 …, the right folder), never overwrites, and answers every bad
 * argument with one line and exit 1, writing nothing. Each test works on a copy of valid-small.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript, type ScriptResult } from '../helpers/cli.ts';
import { copyFixture } from '../build/fixture-copies.ts';
import { utcDay } from '../../src/content/dates.ts';

const scratch = mkdtempSync(join(tmpdir(), 'tagsite-new-topic-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// A git configuration of our own, so the author fallback does not depend on the machine's.
const gitConfig = join(scratch, 'gitconfig');
writeFileSync(gitConfig, '[user]\n\tname = Git Person\n');
const GIT_ENV = { GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1' };

let dir: string;
beforeEach(() => {
  dir = copyFixture('valid-small');
});

const newTopic = (args: string[], env: Record<string, string> = {}) => runScript('new-topic', [...args, '--content', dir], { ...GIT_ENV, ...env });

/** Every file under the content folder with its text: a refused run must leave all of it as it was. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
  );
}

/** A refused run: exit 1, one-line problems only (no stack trace), nothing written. Returns the problem lines. */
async function refused(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const before = snapshot();
  const result = await newTopic(args, env);
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toMatch(/Error:/);
  expect(snapshot()).toEqual(before);
  const lines = result.stderr.split('\n').filter((line) => line !== '' && !/^\d+ problems? found\.$/.test(line));
  expect(result.stderr).toContain(`${lines.length} problem${lines.length === 1 ? '' : 's'} found.`);
  return lines;
}

function createdPath(result: ScriptResult): string {
  expect(result.code, result.stderr).toBe(0);
  const match = /^created (\S+):/.exec(result.stdout);
  expect(match, result.stdout).not.toBeNull();
  return match![1]!;
}

describe('a new topic', () => {
  it('is written under its top-level forum, dated today (UTC), and the build accepts it', async () => {
    const before = utcDay(Date.now());
    const result = await newTopic(['Übersetzer: Translate selection', '--forum', 'scripting', '--tags', ' API , Web  Search', '--author', 'mira']);
    const after = utcDay(Date.now());
    const path = createdPath(result);
    expect(path).toBe(join(dir, 'topics', 'help', 'uebersetzer-translate-selection.md'));
    const text = readFileSync(path, 'utf8');
    const created = /^created: (.+)$/m.exec(text)![1];
    expect([before, after]).toContain(created);
    expect(text).toMatch(/^title: 'Übersetzer: Translate selection'$/m);
    expect(text).toMatch(/^author: mira$/m);
    expect(text).toMatch(/^forum: scripting$/m);
    expect(text).toMatch(/^tags: \[api, web search\]$/m);
    const validate = await runScript('validate', ['--content', dir]);
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toContain('content is valid: 8 topics');
  });

  it('files a category topic under the category and takes the author from git when not given', async () => {
    const path = createdPath(await newTopic(['Привет, мир', '--category', 'guides', '--tags', 'greetings']));
    expect(path).toBe(join(dir, 'topics', 'guides', 'privet-mir.md'));
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^author: Git Person$/m);
    expect(text).toMatch(/^category: guides$/m);
  });

  it('numbers the slug when taken anywhere in the content folder, and never touches the other file', async () => {
    // valid-small has guides/api-basics.md; the new one goes to help/.
    const existing = join(dir, 'topics', 'guides', 'api-basics.md');
    const old = readFileSync(existing, 'utf8');
    expect(createdPath(await newTopic(['API basics', '--forum', 'help', '--tags', 'api', '--author', 'a']))).toBe(join(dir, 'topics', 'help', 'api-basics-2.md'));
    expect(createdPath(await newTopic(['API basics!', '--forum', 'help', '--tags', 'api', '--author', 'a']))).toBe(join(dir, 'topics', 'help', 'api-basics-3.md'));
    expect(readFileSync(existing, 'utf8')).toBe(old);
    expect((await runScript('validate', ['--content', dir])).code).toBe(0);
  });

  it('gives a title without Latin letters the fallback slug', async () => {
    expect(createdPath(await newTopic(['日本語の入力', '--forum', 'help', '--tags', '日本語', '--author', 'haruka']))).toBe(join(dir, 'topics', 'help', 'topic.md'));
  });

  it('takes --slug and --title=… as given', async () => {
    const path = createdPath(await newTopic(['--title=--dashes first', '--slug', 'my-own-slug', '--forum', 'help', '--tags', 'x', '--author', 'a']));
    expect(path).toBe(join(dir, 'topics', 'help', 'my-own-slug.md'));
    expect(readFileSync(path, 'utf8')).toMatch(/^title: --dashes first$/m);
    expect((await runScript('validate', ['--content', dir])).code).toBe(0);
  });
});

describe('refusals', () => {
  const ok = ['--forum', 'help', '--tags', 'api', '--author', 'mira'];

  it('refuses to overwrite a slug that is taken', async () => {
    expect(await refused(['A title', '--slug', 'api-basics', ...ok])).toEqual([
      `new-topic: --slug: 'api-basics' is already used by ${join(dir, 'topics', 'guides', 'api-basics.md')}; refusing to overwrite`,
    ]);
  });

  it.each([
    [['--forum', 'help', '--tags', 'a', '--author', 'm'], 'new-topic: title: missing: give the title as the first argument, in quotes'],
    [['T', '--tags', 'a', '--author', 'm'], 'new-topic: --forum: missing: give --forum <id> (or --category <id>) from content-types.json'],
    [['T', '--forum', 'help', '--author', 'm'], 'new-topic: --tags: missing: give the tags comma-separated, e.g. --tags api,json'],
    [['T', '--forum', 'nope', '--tags', 'a', '--author', 'm'], "new-topic: --forum: 'nope' is not a forum id in content-types.json; valid: help, scripting, community"],
    [['T', '--category', 'nope', '--tags', 'a', '--author', 'm'], "new-topic: --category: 'nope' is not a category or feature category id in content-types.json; valid: guides, showcase"],
    [['T', '--forum', 'guides', '--tags', 'a', '--author', 'm'], "new-topic: --forum: 'guides' is not a forum id in content-types.json (it is a category: use category)"],
    [['T', '--category', 'help', '--tags', 'a', '--author', 'm'], "new-topic: --category: 'help' is not a category or feature category id in content-types.json (it is a forum: use forum)"],
    [['T', '--forum', 'help', '--category', 'guides', '--tags', 'a', '--author', 'm'], 'new-topic: --category: give either forum or category, not both'],
    [['T', '--forum', 'help', '--tags', 'a,,b', '--author', 'm'], 'new-topic: --tags: tag 2: a tag must not be empty'],
    [['T', '--forum', 'help', '--tags', 'Api, api', '--author', 'm'], "new-topic: --tags: tag 2: duplicate tag 'api' (after trimming and lower-casing)"],
    [['T', '--forum', 'help', '--tags', 'x'.repeat(51), '--author', 'm'], 'new-topic: --tags: tag 1: tag is 51 characters; at most 50 allowed'],
    [['T', '--slug', 'Not_Valid', '--forum', 'help', '--tags', 'a', '--author', 'm'], "new-topic: --slug: file name 'Not_Valid' is not a valid slug: use lower-case letters, digits and hyphens, starting with a letter or digit"],
    [['T', '--forum', 'help', '--tags', 'a', '--author', 'm', '--colour', 'red'], 'new-topic: --colour: unknown option; known: --title, --forum, --category, --tags, --author, --slug, --content'],
    [['Two', 'words', '--forum', 'help', '--tags', 'a', '--author', 'm'], 'new-topic: words: unexpected argument: put the title in quotes ("Like this title")'],
    [['T', '--forum'], 'new-topic: --forum: needs a value'],
    [['Line one\nline two', '--forum', 'help', '--tags', 'a', '--author', 'm'], 'new-topic: title: must be one line'],
  ])('%j → one line', async (args, line) => {
    expect(await refused(args)).toContain(line);
  });

  it('checks lengths by the schema, naming the argument', async () => {
    const [line] = await refused(['x'.repeat(201), '--forum', 'help', '--tags', 'a', '--author', 'm']);
    expect(line).toMatch(/^new-topic: title: .*200/);
    const [author] = await refused(['T', '--forum', 'help', '--tags', 'a', '--author', '']);
    expect(author).toMatch(/^new-topic: --author: /);
  });

  it('reports every problem at once', async () => {
    const lines = await refused(['T', 'extra', '--forum', 'nope', '--tags', 'a,,b', '--author', 'm', '--what']);
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => line.split(':')[1]!.trim())).toEqual(['--what', 'extra', '--forum', '--tags']);
  });

  it('asks for --author when git has no user.name to offer', async () => {
    const empty = join(scratch, 'empty-gitconfig');
    writeFileSync(empty, '');
    expect(await refused(['T', '--forum', 'help', '--tags', 'a'], { GIT_CONFIG_GLOBAL: empty })).toEqual([
      'new-topic: --author: missing: give --author <member name> (git has no user.name to use)',
    ]);
  });

  it('names a content folder without content-types.json', async () => {
    const result = await runScript('new-topic', ['T', ...ok, '--content', join(scratch, 'nowhere')], GIT_ENV);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(`${join(scratch, 'nowhere', 'content-types.json')}: (file): the file is missing: is --content the content folder?`);
    expect(existsSync(join(scratch, 'nowhere'))).toBe(false);
  });
});

describe('runs at once', () => {
  it('each writes its own file: the slug is chosen under the content folder\'s lock', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => newTopic(['Same title', '--forum', 'help', '--tags', 'api', '--author', 'a'])));
    const paths = results.map(createdPath);
    expect(new Set(paths).size).toBe(5);
    for (const path of paths) expect(existsSync(path)).toBe(true);
  }, 120_000);
});
