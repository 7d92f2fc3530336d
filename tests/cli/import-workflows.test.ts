// import-workflows (SPEC 5.1): dry run, a second run, escapes, files a person wrote, bad arguments,
// and what validate then says about members.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot, runScript } from '../helpers/cli.ts';
import { loadContent } from '../../src/content/load.ts';
import { formatProblem } from '../../src/content/problems.ts';

const fixture = join(projectRoot, 'tests/fixtures/workflow-import');

function fresh(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'tagsite-import-cli-')), 'content');
  cpSync(join(fixture, 'content'), dir, { recursive: true });
  return dir;
}

/** Every file of a folder with its bytes: what a run changed. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) files[entry] = readFileSync(path, 'utf8');
  }
  return files;
}

const list = join(fixture, 'hyphenated-list.json');
const run = (content: string, ...flags: string[]) => runScript('import-workflows', [list, '--content', content, '--date', '2025-01-02', ...flags]);

describe('import-workflows', () => {
  it('--dry-run reports and writes nothing', async () => {
    const dir = fresh();
    const before = snapshot(dir);
    const result = await run(dir, '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("repaired 5 PHP-style \\' escapes");
    expect(result.stdout).toContain('(dry run: nothing written)');
    expect(snapshot(dir)).toEqual(before);
  });

  it('imports valid content, reports every skip and change on its own line, and a second run changes nothing', async () => {
    const dir = fresh();
    const handWritten = readFileSync(join(dir, 'topics/hand-written.md'), 'utf8');
    const first = await run(dir);
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines).toContain('tests/fixtures/workflow-import/hyphenated-list.json:5: [3]: skipped: not a workflow item (an object)');
    expect(lines.some((line) => /:3: \[1\]\.workflow-file: "Tide Clock": skipped: .*hand-written\.md already shares/.test(line))).toBe(true);
    expect(lines.some((line) => /:4: \[2\]: "Back\\\\slash Keeper": skipped: no author name/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('[4].workflow-author-name: "Empty Desktop": author name cut to 80 characters'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^2 imported, 3 skipped, 0 already imported; 6 values changed/);
    expect(readFileSync(join(dir, 'topics/hand-written.md'), 'utf8')).toBe(handWritten);
    const { problems } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([]);

    const after = snapshot(dir);
    const second = await run(dir);
    expect(second.code).toBe(0);
    expect(second.stdout.trim().split('\n').at(-1)).toMatch(/^0 imported, 3 skipped, 2 already imported; 0 values changed.*wrote 0 topics, 0 members, 0 forums/);
    expect(snapshot(dir)).toEqual(after);
  });

  it('two runs at once import each item once', async () => {
    const dir = fresh();
    const [a, b] = await Promise.all([run(dir), run(dir)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const topics = readdirSync(join(dir, 'topics/workflows'));
    expect(topics).toHaveLength(2);
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('bad arguments: one line each, nothing written', async () => {
    const dir = fresh();
    const result = await runScript('import-workflows', ['--content', dir, '--date', '2025-02-30', '--forum', 'Not An Id', '--colour', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('import-workflows: <list.json>: is required');
    expect(result.stderr).toContain("import-workflows: --date: '2025-02-30' is not a real calendar date YYYY-MM-DD");
    expect(result.stderr).toContain("import-workflows: --forum: 'Not An Id' is not a forum id");
    expect(result.stderr).toContain('import-workflows: --colour: unknown option');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const broken = join(dir, '..', 'broken.json');
    writeFileSync(broken, '[{"workflow-name": "x",]');
    const unreadable = await runScript('import-workflows', [broken, '--content', dir]);
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toMatch(/broken\.json: \(file\): not valid JSON: /);
  });

  it('validate: a member website that cannot be published is a members.json problem with its line', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'members.json'), '[\n  { "name": "Odile Brassard", "joined": "2020-05-01", "group": "Members",\n    "website": "http://" }\n]\n');
    const { problems } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([
      'members.json:3: [0].website: "http://" cannot be published: give an http or https address with a host, such as https://example.org/, or leave the field out',
    ]);
  });
});
