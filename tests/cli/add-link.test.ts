/**
 * `npm run add-link` (SPEC 2.4, 7): appends one valid record at the end, keeps every byte of the
 * records already there, refuses duplicates and every broken argument with one line each, and an
 * interrupted run leaves the old file. Each test works on a temporary copy of content/links.json.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, runScript, type ScriptResult } from '../helpers/cli.ts';
import { isProblem, parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readLinks } from '../../src/content/links.ts';

const sampleLinks = join(projectRoot, 'content', 'links.json');
const sampleText = readFileSync(sampleLinks, 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'tagsite-add-link-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(scratch, 'content-'));
  file = join(dir, 'links.json');
  copyFileSync(sampleLinks, file);
});

const good = {
  name: 'Tidewater <API>',
  description: 'Reference for the Tidewater tide-table API & its "JSON" endpoints.',
  tags: 'api, tides',
  link: 'https://tidewater.example/docs/api',
  credit: 'sam@flowsmiths',
};

function argsOf(values: Record<string, string | undefined>): string[] {
  return Object.entries(values).flatMap(([name, value]) => (value === undefined ? [] : [`--${name}`, value]));
}

function addLink(values: Record<string, string | undefined>, extra: string[] = [], env: Record<string, string> = {}): Promise<ScriptResult> {
  return runScript('add-link', ['--content', dir, ...argsOf(values), ...extra], env);
}

/** A refused run: exit 1, only one-line problems (no stack trace), and the file exactly as it was. */
function expectRefused(result: ScriptResult, before: string): string[] {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(readFileSync(file, 'utf8')).toBe(before);
  return result.stderr.split('\n').filter((line) => /^add-link: |links\.json/.test(line));
}

describe('appending a record', () => {
  it('adds it at the end with the fields in file order, and leaves the old records byte for byte', async () => {
    const result = await addLink({ ...good, timestamp: '2025-02-28' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Counted as the file's problem lines count records ([13] is the fourteenth).
    expect(result.stdout).toMatch(/added "Tidewater <API>" to \S*links\.json as \[13\]/);
    const text = readFileSync(file, 'utf8');
    const lastOld = sampleText.lastIndexOf('}') + 1;
    expect(text.slice(0, lastOld)).toBe(sampleText.slice(0, lastOld));
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const records = JSON.parse(text);
    expect(records).toHaveLength(JSON.parse(sampleText).length + 1);
    expect(JSON.stringify(records.at(-1))).toBe(
      JSON.stringify({ name: good.name, description: good.description, tags: ['api', 'tides'], link: good.link, timestamp: '2025-02-28', credit: good.credit }),
    );
    // The new file is valid content.
    const json = parseJsonFile(text, 'links.json');
    expect(isProblem(json)).toBe(false);
    expect(readLinks(json as JsonFile, 'links.json').problems).toEqual([]);
    expect(readdirSync(dir)).toEqual(['links.json']);
  });

  it('keeps a hand-formatted file as it is and inserts before the closing bracket', async () => {
    const records = JSON.parse(sampleText).slice(0, 2);
    const handMade = `[\n${records.map((r: unknown) => `    ${JSON.stringify(r)}`).join(',\n')}\n]\n`;
    writeFileSync(file, handMade);
    const result = await addLink({ ...good, timestamp: '2025-03-01' });
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const lastOld = handMade.lastIndexOf('}') + 1;
    expect(text.slice(0, lastOld)).toBe(handMade.slice(0, lastOld));
    expect(text.endsWith('}\n]\n')).toBe(true);
    expect(JSON.parse(text).map((r: { link: string }) => r.link)).toEqual([...records.map((r: { link: string }) => r.link), good.link]);
  });

  it('dates the record today (UTC) when --timestamp is not given', async () => {
    const before = new Date().toISOString().slice(0, 10);
    const result = await addLink(good);
    const after = new Date().toISOString().slice(0, 10);
    expect(result.code, result.stderr).toBe(0);
    expect([before, after]).toContain(JSON.parse(readFileSync(file, 'utf8')).at(-1).timestamp);
  });

  it('creates links.json when there is none yet', async () => {
    rmSync(file);
    const result = await addLink({ ...good, timestamp: '2025-01-01' });
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toHaveLength(1);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });
});

describe('refusing', () => {
  it('a second record with the same link', async () => {
    const existing = JSON.parse(sampleText)[2].link as string;
    const lines = expectRefused(await addLink({ ...good, link: existing }), sampleText);
    expect(lines).toEqual([`add-link: --link: duplicate link ${existing} (already the link of [2])`]);
  });

  const cases: Array<[string, Record<string, string | undefined>, string[], RegExp]> = [
    ['a missing name', { name: undefined }, [], /^add-link: --name: is required$/],
    ['an empty name', { name: '' }, [], /^add-link: --name: must not be empty$/],
    ['an empty description', { description: '' }, [], /^add-link: --description: must not be empty$/],
    ['a description over 100 characters', { description: 'x'.repeat(101) }, [], /^add-link: --description: must be at most 100 characters \(it has 101\)$/],
    ['a missing --tags', { tags: undefined }, [], /^add-link: --tags: is required$/],
    ['an upper-case tag', { tags: 'api,JSON' }, [], /^add-link: --tags: tag 2: "JSON" must be lower case with single inner spaces \(write "json"\)$/],
    ['a tag with doubled inner spaces', { tags: 'rest  api' }, [], /^add-link: --tags: tag 1: "rest {2}api" must be lower case/],
    ['an empty tag', { tags: 'api,,json' }, [], /^add-link: --tags: tag 2: must not be empty$/],
    ['a tag over 50 characters', { tags: 'x'.repeat(51) }, [], /^add-link: --tags: tag 1: must be at most 50 characters/],
    ['a link that is not http(s)', { link: 'ftp://files.example/docs' }, [], /^add-link: --link: "ftp:\/\/files\.example\/docs" is not valid/],
    ['a link that is not a URL', { link: 'docs.example/api' }, [], /^add-link: --link: "docs\.example\/api" is not valid: Direct http or https address/],
    ['a javascript: link', { link: 'javascript:alert(1)' }, [], /^add-link: --link: "javascript:alert\(1\)" is not valid/],
    ['a missing link', { link: undefined }, [], /^add-link: --link: is required$/],
    ['a day that does not exist', { timestamp: '2023-02-29' }, [], /^add-link: --timestamp: must be a real calendar date YYYY-MM-DD, not "2023-02-29"$/],
    ['a date in another format', { timestamp: '01/02/2024' }, [], /^add-link: --timestamp: must be a real calendar date YYYY-MM-DD/],
    ['a credit without @site', { credit: 'sam' }, [], /^add-link: --credit: "sam" is not valid: Contributor handle/],
    ['a credit with two @', { credit: 'sam@a@b' }, [], /^add-link: --credit: "sam@a@b" is not valid/],
    ['a missing credit', { credit: undefined }, [], /^add-link: --credit: is required$/],
    ['an unknown option', {}, ['--tag=api'], /^add-link: --tag: unknown option; known: --name, --description, --tags/],
    ['an option without its value', {}, ['--timestamp'], /^add-link: --timestamp: needs a value$/],
    ['a stray word', {}, ['oops'], /^add-link: oops: unexpected argument/],
  ];
  it.each(cases)('%s', async (_name, change, extra, line) => {
    const lines = expectRefused(await addLink({ ...good, ...change }, extra), sampleText);
    expect(lines.length, lines.join('\n')).toBe(1);
    expect(lines[0]).toMatch(line);
  });

  it('reports every bad argument at once', async () => {
    const lines = expectRefused(await addLink({ ...good, name: '', credit: 'nobody', timestamp: '2024-13-01' }, ['--colour=red']), sampleText);
    expect(lines.map((l) => l.split(':')[1]!.trim()).sort()).toEqual(['--colour', '--credit', '--name', '--timestamp']);
  });

  it('reports every problem of one argument at once: an empty tag and the tags not in lower case', async () => {
    const lines = expectRefused(await addLink({ ...good, tags: 'API,,Web Search' }), sampleText);
    expect(lines.sort()).toEqual([
      'add-link: --tags: tag 1: "API" must be lower case with single inner spaces (write "api")',
      'add-link: --tags: tag 2: must not be empty',
      'add-link: --tags: tag 3: "Web Search" must be lower case with single inner spaces (write "web search")',
    ]);
  });

  it('anything while links.json itself is broken, naming its line', async () => {
    const broken = sampleText.replace('"jq"', '"jq",,');
    writeFileSync(file, broken);
    const result = await addLink(good);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/links\.json:\d+: \(file\): not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});

describe('an interrupted run', () => {
  it('killed after writing the temporary file but before the rename leaves links.json as it was', async () => {
    // Preloaded into the add-link process: the rename kills the process, as a crash or power cut would.
    const hook = join(scratch, 'crash-before-rename.mjs');
    writeFileSync(
      hook,
      "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\n" +
        "fs.renameSync = () => process.kill(process.pid, 'SIGKILL');\nsyncBuiltinESMExports();\n",
    );
    const result = await addLink({ ...good, timestamp: '2025-02-28' }, [], { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}` });
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain('added');
    expect(readFileSync(file, 'utf8')).toBe(sampleText);
    // The new text had been written in full, to the temporary file only.
    // (The lock it held is left too: its process is gone, so the next run takes it over.)
    const temps = readdirSync(dir).filter((name) => name !== 'links.json' && name !== '.tagsite-content.lock');
    expect(temps).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, temps[0]!), 'utf8')).at(-1).link).toBe(good.link);

    // The next run is not disturbed by the leftover.
    const again = await addLink({ ...good, timestamp: '2025-02-28' });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).at(-1).link).toBe(good.link);
  });

  it('a content folder that does not exist is a one-line error, not a stack trace', async () => {
    const missing = join(dir, 'no', 'such', 'folder');
    const result = await runScript('add-link', ['--content', missing, ...argsOf(good)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/folder: \(folder\): the content folder \S+ does not exist/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(missing)).toBe(false);
    mkdirSync(missing, { recursive: true });
  });
});

it('never touches the project\'s own content/links.json', () => {
  expect(readFileSync(sampleLinks, 'utf8')).toBe(sampleText);
});

describe('runs at once (SPEC 7: two runs at once never lose a record)', () => {
  it('each adds its record: they take turns under the content folder\'s lock, reading the file anew', async () => {
    const runs = Array.from({ length: 8 }, (_, i) => addLink({ ...good, name: `Tool ${i}`, link: `https://tool${i}.example/docs` }));
    const results = await Promise.all(runs);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const records = JSON.parse(readFileSync(file, 'utf8')) as Array<{ link: string }>;
    const links = records.map((record) => record.link);
    for (let i = 0; i < 8; i++) expect(links).toContain(`https://tool${i}.example/docs`);
    expect(records).toHaveLength(JSON.parse(sampleText).length + 8);
    // Each run said which record it added: [13] to [20], each once.
    const numbers = results.map((result) => Number(/as \[(\d+)\]/.exec(result.stdout)![1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => 13 + i));
    expect(existsSync(join(dir, '.tagsite-content.lock'))).toBe(false);
  }, 120_000);

  it('a lock left by a run that is gone is taken over', async () => {
    writeFileSync(join(dir, '.tagsite-content.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, since: Date.now() }));
    const result = await addLink({ ...good, timestamp: '2025-02-28' });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).at(-1).link).toBe(good.link);
  });
});
