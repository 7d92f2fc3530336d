import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readContentTypes } from '../../src/content/content-types.ts';
import { readTopic } from '../../src/content/topics.ts';
import type { Problem } from '../../src/content/problems.ts';

const TYPES_FILE = 'content/content-types.json';
const typesJson = parseJsonFile(
  JSON.stringify({
    forums: [
      {
        id: 'help',
        name: 'Help',
        children: [{ id: 'scripting', name: 'Scripting', children: [{ id: 'shell', name: 'Shell', children: [{ id: 'zsh', name: 'Zsh' }] }] }],
      },
      { id: 'community', name: 'Community' },
    ],
    categories: [{ id: 'guides', name: 'Guides', kind: 'articles' }],
    featureCategories: [{ id: 'showcase', name: 'Showcase' }],
  }),
  TYPES_FILE,
) as JsonFile;
const { index: contentTypes, problems: typeProblems } = readContentTypes(typesJson, TYPES_FILE);
const context = { contentTypes, excerptLength: 200 };

const FILE = 'content/topics/help/my-topic.md';
const BASE = { title: 'A title', author: 'ana', created: '2024-01-10', forum: 'help' } as Record<string, string | undefined>;

/** A topic file from front-matter lines (`field: value`, written as given) and a body. */
function topicText(fields: Record<string, string | undefined>, body = 'Hello **world**.'): string {
  const lines = Object.entries(fields).filter(([, value]) => value !== undefined).map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join('\n')}\n---\n${body}\n`;
}

function read(fields: Record<string, string | undefined>, file = FILE) {
  return readTopic(file, topicText({ ...BASE, ...fields }), context);
}

/** The only problem of a result, which must name this file. */
function onlyProblem(result: { problems: Problem[] }): Problem {
  expect(result.problems).toHaveLength(1);
  expect(result.problems[0]!.file).toBe(FILE);
  return result.problems[0]!;
}

it('the content-types fixture is valid', () => {
  expect(typeProblems).toEqual([]);
});

describe('a valid topic', () => {
  it('fills in the defaults: no tags, 0 replies, 0 views, updated = created', () => {
    const { topic, problems } = read({});
    expect(problems).toEqual([]);
    expect(topic).toMatchObject({
      slug: 'my-topic',
      file: FILE,
      title: 'A title',
      author: 'ana',
      createdMs: Date.UTC(2024, 0, 10),
      updatedMs: Date.UTC(2024, 0, 10),
      contentType: 'help',
      contentGroup: 'forum',
      tags: [],
      replies: 0,
      views: 0,
      excerptText: 'Hello world.',
      excerptCut: false,
    });
    expect(topic!.html).toContain('<strong>world</strong>');
    expect(topic!.workflow).toBeUndefined();
  });

  it('keeps every field given', () => {
    const { topic, problems } = read({
      updated: '2024-02-01T08:00:00+01:00',
      tags: '[API, json]',
      replies: '3',
      views: '120',
      workflow: '{ file: Cleaner.flow, download: "https://example.com/c.flow", version: "1.2", description: Cleans things }',
    });
    expect(problems).toEqual([]);
    expect(topic).toMatchObject({
      updatedMs: Date.UTC(2024, 1, 1, 7),
      tags: ['api', 'json'],
      replies: 3,
      views: 120,
      workflow: { file: 'Cleaner.flow', download: 'https://example.com/c.flow', version: '1.2', description: 'Cleans things' },
    });
  });

  it('takes the slug from the file name, whatever the folder', () => {
    expect(readTopic('content/topics/a/b/c/deep-one-2.md', topicText(BASE), context).topic!.slug).toBe('deep-one-2');
  });
});

describe('required fields', () => {
  it.each(['title', 'author', 'created'])('%s is required', (field) => {
    const problem = onlyProblem(read({ [field]: undefined }));
    expect(problem).toMatchObject({ field, message: 'is required' });
  });

  it('reports every missing field at once', () => {
    const { problems, topic } = readTopic(FILE, topicText({ replies: '1' }), context);
    expect(topic).toBeUndefined();
    expect(problems.map((p) => p.field).sort()).toEqual(['author', 'created', 'forum', 'title']);
  });
});

describe('lengths', () => {
  it('title is 1–200 characters (counted as characters, not UTF-16 units)', () => {
    expect(read({ title: 'x'.repeat(200) }).problems).toEqual([]);
    expect(read({ title: '😀'.repeat(200) }).problems).toEqual([]);
    expect(onlyProblem(read({ title: 'x'.repeat(201) }))).toMatchObject({ field: 'title', message: expect.stringContaining('200') });
    expect(onlyProblem(read({ title: '""' }))).toMatchObject({ field: 'title', message: 'must not be empty' });
  });

  it('author is 1–80 characters', () => {
    expect(read({ author: 'a'.repeat(80) }).problems).toEqual([]);
    expect(onlyProblem(read({ author: 'a'.repeat(81) }))).toMatchObject({ field: 'author', message: expect.stringContaining('80') });
    expect(onlyProblem(read({ author: "''" }))).toMatchObject({ field: 'author' });
  });

  it('title and author must be text', () => {
    expect(onlyProblem(read({ title: '[a, b]' }))).toMatchObject({ field: 'title', message: expect.stringContaining('must be a string') });
    expect(onlyProblem(read({ author: '42' }))).toMatchObject({ field: 'author' });
  });
});

describe('dates', () => {
  it.each(['2024-01-10', '2024-01-10T12:00:00Z', '2024-01-10T12:00:00+02:00', '2024-01-10T12:00:00.5-07:00'])('created may be %s', (created) => {
    expect(read({ created }).problems).toEqual([]);
  });

  it.each(['2023-02-29', '2024-13-01', '10/01/2024', 'yesterday', '2024-01-10T25:00:00Z', '20240110'])('created %j is an error', (created) => {
    // 20240110 is a number to YAML: it is reported as not text.
    expect(onlyProblem(read({ created }))).toMatchObject({ field: 'created', message: expect.stringMatching(/date|string/) });
  });

  it('updated defaults to created, including its time', () => {
    const { topic } = read({ created: '2024-01-10T09:15:00Z' });
    expect(topic!.updatedMs).toBe(Date.UTC(2024, 0, 10, 9, 15));
    expect(topic!.updatedMs).toBe(topic!.createdMs);
  });

  it('updated may equal or follow created, never precede it', () => {
    expect(read({ updated: '2024-01-10' }).problems).toEqual([]);
    expect(read({ updated: '2024-01-11' }).problems).toEqual([]);
    const problem = onlyProblem(read({ updated: '2024-01-09' }));
    expect(problem.field).toBe('updated');
    expect(problem.message).toContain('earlier than created');
  });

  it('compares a day with a date-time as instants (a day is midnight UTC)', () => {
    expect(onlyProblem(read({ created: '2024-01-10T12:00:00Z', updated: '2024-01-10' })).field).toBe('updated');
    expect(read({ created: '2024-01-10T12:00:00+14:00', updated: '2024-01-10' }).problems).toEqual([]);
  });

  it('updated in a bad form is an error of updated', () => {
    expect(onlyProblem(read({ updated: '2024-02-30' }))).toMatchObject({ field: 'updated' });
  });
});

describe('forum or category', () => {
  it('a forum at any depth of the tree is fine', () => {
    for (const forum of ['help', 'scripting', 'shell', 'zsh', 'community']) {
      const { topic, problems } = read({ forum });
      expect(problems).toEqual([]);
      expect(topic).toMatchObject({ contentType: forum, contentGroup: 'forum' });
    }
  });

  it('a category or a feature category is fine as category', () => {
    for (const category of ['guides', 'showcase']) {
      const { topic, problems } = read({ forum: undefined, category });
      expect(problems).toEqual([]);
      expect(topic).toMatchObject({ contentType: category, contentGroup: 'category' });
    }
  });

  it('one of them is required', () => {
    const problem = onlyProblem(read({ forum: undefined }));
    expect(problem.field).toBe('forum');
    expect(problem.message).toContain('category');
  });

  it('both at once is an error', () => {
    expect(onlyProblem(read({ category: 'guides' })).message).toContain('not both');
  });

  it('an unknown id is an error naming the id', () => {
    expect(onlyProblem(read({ forum: 'nowhere' }))).toMatchObject({ field: 'forum', message: expect.stringContaining("'nowhere'") });
    expect(onlyProblem(read({ forum: undefined, category: 'nowhere' }))).toMatchObject({ field: 'category', message: expect.stringContaining("'nowhere'") });
  });

  it('a category id given as forum is an error, and the other way round', () => {
    expect(onlyProblem(read({ forum: 'guides' }))).toMatchObject({ field: 'forum', message: expect.stringContaining('use category') });
    expect(onlyProblem(read({ forum: 'showcase' }))).toMatchObject({ field: 'forum', message: expect.stringContaining('use category') });
    expect(onlyProblem(read({ forum: undefined, category: 'zsh' }))).toMatchObject({ field: 'category', message: expect.stringContaining('use forum') });
  });

  it('an id must be text', () => {
    expect(onlyProblem(read({ forum: '[help]' })).field).toBe('forum');
  });
});

describe('tags', () => {
  it('are normalised, in the topic’s own order', () => {
    expect(read({ tags: '["  Web   Search ", API, "C++", 日本語]' }).topic!.tags).toEqual(['web search', 'api', 'c++', '日本語']);
  });

  it('are 1–50 characters after normalising', () => {
    expect(read({ tags: `[${'a'.repeat(50)}, "  ${'B'.repeat(50)}  "]` }).problems).toEqual([]);
    expect(onlyProblem(read({ tags: `[ok, ${'a'.repeat(51)}]` }))).toMatchObject({ field: 'tags[1]', message: expect.stringContaining('51') });
    expect(onlyProblem(read({ tags: '[ok, "   "]' }))).toMatchObject({ field: 'tags[1]', message: expect.stringContaining('empty') });
  });

  it('duplicates after normalising are an error, each one reported', () => {
    const { problems } = read({ tags: '[API, json, "api ", "JSON", "web  search", "Web Search"]' });
    expect(problems.map((p) => p.field)).toEqual(['tags[2]', 'tags[3]', 'tags[5]']);
    expect(problems[0]!.message).toContain("'api'");
  });

  it('must be a list of text', () => {
    expect(onlyProblem(read({ tags: 'api' }))).toMatchObject({ field: 'tags', message: expect.stringContaining('list') });
    expect(onlyProblem(read({ tags: '[api, 7]' }))).toMatchObject({ field: 'tags[1]' });
  });
});

describe('replies and views', () => {
  it.each(['replies', 'views'])('%s is a whole number >= 0, default 0', (field) => {
    expect(read({ [field]: '0' }).topic![field as 'replies']).toBe(0);
    expect(read({ [field]: '12345' }).topic![field as 'replies']).toBe(12345);
    expect(onlyProblem(read({ [field]: '2.5' }))).toMatchObject({ field, message: expect.stringContaining('whole number') });
    expect(onlyProblem(read({ [field]: '-1' }))).toMatchObject({ field, message: expect.stringContaining('>= 0') });
    expect(onlyProblem(read({ [field]: '"3"' }))).toMatchObject({ field });
    expect(onlyProblem(read({ [field]: 'many' }))).toMatchObject({ field });
  });
});

describe('unknown fields', () => {
  it('are an error, with a hint for a near miss such as tag', () => {
    const problem = onlyProblem(read({ tag: '[api]' }));
    expect(problem.field).toBe('tag');
    expect(problem.message).toContain("did you mean 'tags'");
  });

  it('name the field and list the allowed ones', () => {
    const problem = onlyProblem(read({ colour: 'red' }));
    expect(problem.field).toBe('colour');
    expect(problem.message).toContain('unknown field');
    expect(problem.message).toContain('title');
  });
});

describe('workflow', () => {
  const wf = (fields: string) => read({ workflow: `{ ${fields} }` });
  const ok = 'file: A.flow, download: "https://example.com/a.flow"';

  // Real lists have items without the author's download: the backup download is still published.
  it('needs a file; the download is optional', () => {
    expect(wf(ok).problems).toEqual([]);
    expect(onlyProblem(wf('download: "https://example.com/a.flow"'))).toMatchObject({ field: 'workflow.file', message: 'is required' });
    expect(wf('file: A.flow').problems).toEqual([]);
  });

  it('download and release are http or https addresses; a screenshot is one, or a bare file name', () => {
    for (const bad of ['"javascript:alert(1)"', '"ftp://example.com/a"', 'not-a-url']) {
      expect(onlyProblem(wf(`file: A.flow, download: ${bad}`)).field).toBe('workflow.download');
      expect(onlyProblem(wf(`${ok}, release: ${bad}`)).field).toBe('workflow.release');
    }
    for (const bad of ['"javascript:alert(1)"', '"ftp://example.com/a"', '"dir/shot.png"', '".."']) {
      expect(onlyProblem(wf(`${ok}, screenshot: ${bad}`)).field).toBe('workflow.screenshot');
    }
    expect(wf(`${ok}, release: "http://example.com/r", screenshot: "HTTPS://example.com/s.png"`).problems).toEqual([]);
    expect(wf(`${ok}, screenshot: "Weather menu bar.png"`).problems).toEqual([]);
  });

  it('description is at most 100 characters', () => {
    expect(wf(`${ok}, description: ${'d'.repeat(100)}`).problems).toEqual([]);
    expect(onlyProblem(wf(`${ok}, description: ${'d'.repeat(101)}`))).toMatchObject({ field: 'workflow.description', message: expect.stringContaining('100') });
  });

  it('file is a file name, not a path, and not . or .. (an address cannot name those)', () => {
    expect(onlyProblem(wf('file: "dir/A.flow", download: "https://example.com/a"')).field).toBe('workflow.file');
    for (const dots of ['.', '..']) {
      expect(onlyProblem(wf(`file: "${dots}", download: "https://example.com/a"`))).toMatchObject({ field: 'workflow.file', message: expect.stringContaining('not . or ..') });
    }
    expect(read({ workflow: '{ file: "...", download: "https://example.com/a" }' }).problems).toEqual([]);
  });

  it('has no other fields and must be an object', () => {
    expect(onlyProblem(wf(`${ok}, author: ana`)).field).toBe('workflow.author');
    expect(onlyProblem(read({ workflow: 'yes' })).field).toBe('workflow');
  });
});

describe('the slug rule', () => {
  it.each(['My-Topic.md', 'my_topic.md', '-topic.md', 'topic.name.md', 'café.md'])('%s is not a valid slug', (name) => {
    const { problems, topic } = readTopic(`content/topics/${name}`, topicText(BASE), context);
    expect(topic).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: `content/topics/${name}`, field: '(slug)' });
  });

  it.each(['a.md', '0-day.md', 'x-1-y.md'])('%s is a valid slug', (name) => {
    expect(readTopic(`content/topics/${name}`, topicText(BASE), context).problems).toEqual([]);
  });
});

describe('front matter', () => {
  it('missing front matter is one problem on line 1', () => {
    const { problems } = readTopic(FILE, '# Just Markdown\n\nNo front matter.\n', context);
    expect(problems).toEqual([{ file: FILE, line: 1, field: '(front matter)', message: expect.stringContaining('---') }]);
  });

  it('front matter that is not a set of fields is a problem', () => {
    expect(readTopic(FILE, '---\n- a\n- b\n---\nbody\n', context).problems[0]).toMatchObject({ field: '(front matter)', line: 2 });
  });

  it('empty front matter reports every required field', () => {
    const { problems } = readTopic(FILE, '---\n---\nbody\n', context);
    expect(problems.map((p) => p.field).sort()).toEqual(['author', 'created', 'forum', 'title']);
  });

  it('an unclosed quote is reported on the line that opens it, not where YAML gives up', () => {
    for (const [quote, name] of [['"', 'double'], ["'", 'single']] as const) {
      const text = `---\ntitle: ${quote}Unclosed quote\nauthor: ana\ncreated: 2024-01-10\nforum: help\n---\nbody\n`;
      expect(readTopic(FILE, text, context).problems).toEqual([
        { file: FILE, line: 2, field: '(front matter)', message: `not valid YAML: the ${name} quote that opens this value is never closed (a quoted value ends with the same quote)` },
      ]);
    }
    // Quotes that close (escaped and doubled ones included) are not blamed for another mistake.
    const closed = `---\ntitle: 'It''s fine'\nauthor: "ana \\"the\\" dev"\n\ttags: [a]\ncreated: 2024-01-10\nforum: help\n---\nbody\n`;
    expect(readTopic(FILE, closed, context).problems).toEqual([
      { file: FILE, line: 4, field: '(front matter)', message: expect.not.stringContaining('never closed') },
    ]);
  });

  it('bad YAML is a problem on the line where it goes wrong', () => {
    const text = '---\ntitle: A title\nauthor: ana\n\ttags: [a]\ncreated: 2024-01-10\nforum: help\n---\nbody\n';
    expect(readTopic(FILE, text, context).problems).toEqual([
      { file: FILE, line: 4, field: '(front matter)', message: expect.stringContaining('not valid YAML') },
    ]);
    const duplicate = '---\ntitle: A title\nauthor: ana\ncreated: 2024-01-10\ntitle: Again\nforum: help\n---\nbody\n';
    expect(readTopic(FILE, duplicate, context).problems).toEqual([
      { file: FILE, line: 5, field: '(front matter)', message: expect.stringContaining('duplicated') },
    ]);
  });

  it('YAML dates stay text, so an impossible day is reported rather than rolled over', () => {
    expect(onlyProblem(read({ created: '2023-02-30' })).field).toBe('created');
  });

  it('accepts a byte-order mark and Windows line ends', () => {
    const text = `\uFEFF${topicText(BASE)}`.replace(/\n/g, '\r\n');
    expect(readTopic(FILE, text, context).problems).toEqual([]);
  });
});

describe('all problems at once, each on its own line', () => {
  const text = [
    '---', //               1
    '# a comment', //       2
    'title: ""', //         3
    'author: ana', //       4
    'created: 2024-01-10', // 5
    'updated: 2024-01-01', // 6
    'forum: guides', //     7
    'tags:', //             8
    '  - API', //           9
    '  - "  api"', //      10
    '  - 12', //           11
    'replies: 2.5', //     12
    'views: -3', //        13
    'tag: [x]', //         14
    'workflow:', //        15
    '  download: "ftp://example.com/a"', // 16
    '  description: ' + 'd'.repeat(101), // 17
    '---',
    'Body.',
  ].join('\n');
  const { problems, topic } = readTopic(FILE, text, context);
  const lineOf = (field: string) => problems.find((p) => p.field === field)?.line;

  it('returns every problem and no topic', () => {
    expect(topic).toBeUndefined();
    expect(problems.map((p) => p.field).sort()).toEqual(
      ['forum', 'replies', 'tag', 'tags[1]', 'tags[2]', 'title', 'updated', 'views', 'workflow.description', 'workflow.download', 'workflow.file'].sort(),
    );
    for (const problem of problems) expect(problem.file).toBe(FILE);
  });

  it('points each problem at the line of its field', () => {
    expect(lineOf('title')).toBe(3);
    expect(lineOf('updated')).toBe(6);
    expect(lineOf('forum')).toBe(7);
    expect(lineOf('tags[1]')).toBe(10);
    expect(lineOf('tags[2]')).toBe(11);
    expect(lineOf('replies')).toBe(12);
    expect(lineOf('views')).toBe(13);
    expect(lineOf('tag')).toBe(14);
    expect(lineOf('workflow.file')).toBe(15); // missing: the line of its parent
    expect(lineOf('workflow.download')).toBe(16);
    expect(lineOf('workflow.description')).toBe(17);
  });

  it('finds list items written at the same indentation as their key', () => {
    const flat = topicText({ ...BASE, tags: '\n- api\n- API' });
    expect(readTopic(FILE, flat, context).problems).toEqual([{ file: FILE, line: 8, field: 'tags[1]', message: expect.stringContaining('duplicate') }]);
  });
});

describe('topic dates are kept to the whole second', () => {
  it('drops milliseconds, so the search index (in seconds) and listings agree', () => {
    const { topic } = read({ ...BASE, created: '2024-01-10T12:00:00.900Z', updated: '2024-01-10T12:00:01.200Z' });
    expect(topic?.createdMs).toBe(Date.UTC(2024, 0, 10, 12, 0, 0));
    expect(topic?.updatedMs).toBe(Date.UTC(2024, 0, 10, 12, 0, 1));
  });
});

describe('a topic holds nothing of its file but its own values', () => {
  // V8 keeps a string cut from a longer one as a view of it: a title parsed out of the front matter
  // would keep the whole file alive for as long as a build keeps the topic.
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;

  it('keeps the titles, authors and tags of 100 files of 200 KB in a small part of their size', () => {
    const comment = ` # ${'notes for the editors, '.repeat(9000)}`;
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const files = Array.from({ length: 100 }, (_, i) => topicText({ ...BASE, title: `"A title long enough to be cut out of its file, number ${i}"`, author: 'a-member-with-a-long-name', tags: `[scripting-and-automation, an-other-long-tag-name]${comment}` }));
    const size = files.reduce((sum, text) => sum + text.length, 0);
    const kept = files.map((text) => {
      const { topic } = readTopic(FILE, text, context);
      return [topic!.title, topic!.author, topic!.tags];
    });
    files.length = 0;
    collectGarbage();
    expect(kept[99]).toEqual(['A title long enough to be cut out of its file, number 99', 'a-member-with-a-long-name', ['scripting-and-automation', 'an-other-long-tag-name']]);
    expect(size).toBeGreaterThan(20_000_000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(size / 5);
  });
});
