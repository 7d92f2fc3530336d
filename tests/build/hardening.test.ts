/**
 * Issue 17: whatever validates, builds (tag and member names of any valid characters, long ones
 * included), and `npm run validate` rejects exactly what `npm run build` stops on. A few real
 * builds only: the names are many to a build, and the mutations are a handful, seeded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { runScript } from '../helpers/cli.ts';
import { copyFixture, editJson, snapshotTree, tempConfig, writeTopic } from './fixture-copies.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { memberPath, tagPath } from '../../src/model/urls.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function freshCopy(): string {
  const dir = copyFixture('valid-small');
  made.push(dirname(dir));
  return dir;
}

function freshOut(): string {
  const parent = mkdtempSync(join(tmpdir(), 'tagsite-hardening-out-'));
  made.push(parent);
  return join(parent, 'dist');
}

// Characters of every kind a valid name may hold: emoji (4 bytes), combining marks, right-to-left
// letters, CJK, punctuation escaped in URLs.
const pieces = ['😀', '🧪', '👩‍💻', 'e\u0301', 'ا', 'ש', '日', 'ß', '–', '+', '#', '.', '/', '%', '?', 'a', '7', ' '];
const name = (min: number, max: number) =>
  fc.array(fc.constantFrom(...pieces), { minLength: min, maxLength: max }).map((parts) => parts.join(''));

describe('whatever validates, builds', () => {
  it('tags and member names of any valid characters (up to 50 four-byte characters) build, and every link finds its page', async () => {
    const generated = fc.sample(name(1, 40), { numRuns: 40, seed: 17 });
    const tags = [...new Set(['😀'.repeat(50), '–'.repeat(43), `${'😀'.repeat(31)}😁`, ...generated].map(normaliseTag))]
      .filter((tag) => tag !== '' && [...tag].length <= 50)
      .slice(0, 40);
    const members = ['😀'.repeat(80), 'ש'.repeat(80), ...fc.sample(name(1, 30), { numRuns: 6, seed: 7 }).map((text) => text.trim()).filter(Boolean)];
    const dir = freshCopy();
    // 20 tags a topic (limits.tagsPerTopic), one author each.
    for (let i = 0; i * 20 < tags.length; i++) {
      writeTopic(dir, `help/names-${i}.md`, {
        title: `"Names ${i}"`,
        author: JSON.stringify(members[i % members.length]),
        created: '2024-05-01',
        forum: 'help',
        tags: JSON.stringify(tags.slice(i * 20, i * 20 + 20)),
      });
    }
    editJson(dir, 'members.json', (list) => void list.push(...members.map((member) => ({ name: member, joined: '2020-01-01', group: 'Members' }))));
    const validate = await runScript('validate', ['--content', dir]);
    expect(validate.code, validate.stderr).toBe(0);
    const outDir = freshOut();
    const build = await runScript('build', ['--content', dir, '--out', outDir]);
    expect(build.code, build.stderr).toBe(0);
    const fileOf = (path: string) => join(outDir, decodeURIComponent(path), 'index.html');
    for (const tag of tags) expect(existsSync(fileOf(tagPath(tag))), tag).toBe(true);
    for (const member of members) expect(existsSync(fileOf(memberPath(member))), member).toBe(true);
    // The links the pages print lead to those files.
    const page = readFileSync(fileOf('/topics/names-0/'), 'utf8');
    const hrefs = [...page.matchAll(/href="(\/tags\/[^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(existsSync(href.endsWith('.xml') ? join(outDir, decodeURIComponent(href)) : fileOf(href)), href).toBe(true);
  }, 600_000);
});

/** Ways to change a valid corpus: some break it, some do not. */
const mutations: Array<{ name: string; apply: (dir: string) => void }> = [
  { name: 'a valid new topic with a long emoji tag', apply: (dir) => writeTopic(dir, 'help/extra.md', { title: 'Extra', author: 'kenji', created: '2024-02-02', forum: 'help', tags: `["${'🧪'.repeat(50)}"]` }) },
  { name: 'a duplicate JSON key', apply: (dir) => writeFileSync(join(dir, 'links.json'), readFileSync(join(dir, 'links.json'), 'utf8').replace('"name":', '"name": "x", "name":')) },
  { name: 'a symlink outside content/', apply: (dir) => symlinkSync(tmpdir(), join(dir, 'topics', 'outside')) },
  { name: 'year 0000 in members.json', apply: (dir) => editJson(dir, 'members.json', (m) => void (m[0].joined = '0000-01-01')) },
  { name: 'a NUL byte in a title', apply: (dir) => writeTopic(dir, 'help/nul-title.md', { title: '"a\\0b"', author: 'kenji', created: '2024-02-02', forum: 'help' }) },
  { name: '21 tags', apply: (dir) => writeTopic(dir, 'help/many.md', { title: 'Many', author: 'kenji', created: '2024-02-02', forum: 'help', tags: `[${Array.from({ length: 21 }, (_, i) => `t${i}`).join(', ')}]` }) },
  { name: 'a member name of 80 emoji', apply: (dir) => editJson(dir, 'members.json', (m) => void m.push({ name: '😀'.repeat(80), joined: '2020-01-01', group: 'x' })) },
  { name: 'a file named com1.md', apply: (dir) => writeTopic(dir, 'help/com1.md', { title: 'C', author: 'kenji', created: '2024-02-02', forum: 'help' }) },
];

describe('validate == build', () => {
  // A handful, chosen at random (seeded): each one validate run and one build.
  const chosen = fc.sample(fc.shuffledSubarray(mutations, { minLength: 4, maxLength: 4 }), { numRuns: 1, seed: Number(process.env.TAGSITE_MUTATION_SEED ?? 2026) })[0]!;
  it.each(chosen.map((m) => [m.name, m] as const))('%s: validate rejects it exactly when the build stops on it, and a stopped build leaves dist/ as it was', async (_name, mutation) => {
    const dir = freshCopy();
    mutation.apply(dir);
    const outDir = freshOut();
    const validate = await runScript('validate', ['--content', dir]);
    writeFileSync(join(dirname(outDir), 'marker'), '');
    const before = existsSync(outDir) ? snapshotTree(outDir) : undefined;
    const build = await runScript('build', ['--content', dir, '--out', outDir]);
    expect(validate.code === 0, `validate: ${validate.stderr}\nbuild: ${build.stderr}`).toBe(build.code === 0);
    for (const output of [validate.stderr, build.stderr]) expect(output).not.toMatch(/^\s+at /m);
    if (build.code !== 0) {
      expect(existsSync(outDir) ? snapshotTree(outDir) : undefined).toEqual(before);
      // The same problem lines, once each.
      const lines = (text: string) => text.split('\n').filter((line) => /^\S+?(:\d+)?: \S.*?: /.test(line));
      expect(lines(build.stderr).sort()).toEqual(lines(validate.stderr).sort());
    }
  }, 300_000);
});

it('a missing content folder is one line for validate and build, and the output is untouched', async () => {
  const missing = join(tmpdir(), 'tagsite-no-such-content-folder');
  const outDir = freshOut();
  for (const script of ['validate', 'build']) {
    const result = await runScript(script, ['--content', missing, '--out', outDir].slice(0, script === 'build' ? 4 : 2));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${missing}: (folder): the content folder ${missing} does not exist`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }
  expect(existsSync(outDir)).toBe(false);
}, 300_000);

it('a syntax error in the config is one line with its file and line for validate and build', async () => {
  const config = tempConfig('{ pageSize: 1,, }');
  try {
    const outDir = freshOut();
    for (const args of [[], ['--out', outDir]]) {
      const result = await runScript(args.length ? 'build' : 'validate', args, config.env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^${config.path.replace(/[.]/g, '\\.')}:6: \\(file\\): not valid JavaScript: Unexpected token`, 'm'));
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr.trim().split('\n').filter((line) => line.trim() !== '')).toHaveLength(2); // the line and the count
    }
    expect(existsSync(outDir)).toBe(false);
  } finally {
    config.remove();
  }
}, 300_000);
