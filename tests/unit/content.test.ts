import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../../src/content/load.ts';
import { formatProblem } from '../../src/content/problems.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the sample content in content/', () => {
  const { content, problems } = loadContent({ root: ROOT, contentDir: join(ROOT, 'content'), excerptLength: 200 });

  it('has no problems', () => {
    expect(problems.map(formatProblem)).toEqual([]);
  });

  it('has 46 topics, 17 of them tagged api', () => {
    expect(content.topics).toHaveLength(46);
    expect(content.topics.filter((topic) => topic.tags.includes('api'))).toHaveLength(17);
  });

  it('gives every topic a distinct slug, normalised tags and an excerpt of at most 200 characters', () => {
    expect(new Set(content.topics.map((topic) => topic.slug)).size).toBe(46);
    for (const topic of content.topics) {
      expect(topic.file.startsWith('content/topics/')).toBe(true);
      expect(topic.excerptText.length).toBeGreaterThan(0);
      expect([...topic.excerptText].length).toBeLessThanOrEqual(200);
      expect(content.contentTypes.byId.has(topic.contentType)).toBe(true);
    }
  });

  it('reads the members and the link records', () => {
    expect(content.members.length).toBeGreaterThan(0);
    expect(content.links.length).toBeGreaterThan(0);
  });
});

/** Writes a content folder (paths relative to it) inside a fresh project folder. */
function project(files: Record<string, string>): { root: string; contentDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'tagsite-unit-'));
  const contentDir = join(root, 'content');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(contentDir, path)), { recursive: true });
    writeFileSync(join(contentDir, path), text);
  }
  return { root, contentDir };
}

const TYPES = JSON.stringify({ forums: [{ id: 'help', name: 'Help' }] });
const topicText = (title: string, extra = '') => `---\ntitle: ${title}\nauthor: ana\ncreated: 2024-01-01\nforum: help\n${extra}---\nBody of ${title}.\n`;

describe('loadContent rules across files', () => {
  it('slugs are unique across folders', () => {
    const { root, contentDir } = project({
      'content-types.json': TYPES,
      'topics/a/same-name.md': topicText('First'),
      'topics/b/same-name.md': topicText('Second'),
    });
    const { content, problems } = loadContent({ root, contentDir, excerptLength: 200 });
    expect(problems).toEqual([
      { file: 'content/topics/b/same-name.md', field: '(slug)', message: expect.stringContaining('content/topics/a/same-name.md') },
    ]);
    expect(content.topics.map((topic) => topic.title)).toEqual(['First']);
  });

  it('topics are .md files only (MDX is for the site’s own pages)', () => {
    const { root, contentDir } = project({
      'content-types.json': TYPES,
      'topics/ok.md': topicText('Fine'),
      'topics/page.mdx': topicText('Code'),
      'topics/notes.txt': 'hello',
      'topics/.DS_Store': 'ignored',
    });
    const { problems } = loadContent({ root, contentDir, excerptLength: 200 });
    expect(problems).toEqual([
      { file: 'content/topics/notes.txt', field: '(file)', message: expect.stringContaining('.md') },
      { file: 'content/topics/page.mdx', field: '(file)', message: expect.stringContaining('rename to .md') },
    ]);
  });

  it('content-types.json is required; members.json and links.json are optional', () => {
    const { root, contentDir } = project({ 'topics/ok.md': topicText('Fine') });
    const { problems } = loadContent({ root, contentDir, excerptLength: 200 });
    expect(problems).toContainEqual({ file: 'content/content-types.json', field: '(file)', message: 'the file is missing' });
    expect(problems.some((p) => p.file.endsWith('members.json') || p.file.endsWith('links.json'))).toBe(false);
  });

  it('reports every problem of every file at once, by file and line', () => {
    const { root, contentDir } = project({
      'content-types.json': TYPES,
      'members.json': '[\n  {"name": "ana", "joined": "2023-02-30", "group": "Members"}\n]',
      'links.json': '{ not json',
      'topics/z-last.md': topicText('Z', 'replies: -1\n'),
      'topics/a-first.md': topicText('A', 'tag: [x]\nviews: 1.5\n'),
    });
    const { problems } = loadContent({ root, contentDir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^content\/links\.json:1: \(file\): not valid JSON/),
      expect.stringMatching(/^content\/members\.json:2: \[0\]\.joined: /),
      expect.stringMatching(/^content\/topics\/a-first\.md:6: tag: unknown field/),
      expect.stringMatching(/^content\/topics\/a-first\.md:7: views: /),
      expect.stringMatching(/^content\/topics\/z-last\.md:6: replies: /),
    ]);
  });
});
