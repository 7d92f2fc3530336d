import { describe, expect, it } from 'vitest';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { newLinkProblems, readLinks, type LinkRecord } from '../../src/content/links.ts';

const FILE = 'content/links.json';

function read(data: unknown) {
  const text = JSON.stringify(data, null, 2);
  return { text, ...readLinks(parseJsonFile(text, FILE) as JsonFile, FILE) };
}

/** 1-based line of the nth line containing `needle`. */
const lineContaining = (text: string, needle: string, nth = 0) =>
  text.split('\n').map((line, i) => (line.includes(needle) ? i + 1 : 0)).filter(Boolean)[nth]!;

const record: LinkRecord = {
  name: 'curl',
  description: 'Command-line options of curl',
  tags: ['http', 'command line'],
  link: 'https://curl.se/docs/manpage.html',
  timestamp: '2024-05-06',
  credit: 'ana@forum.example',
};
const other: LinkRecord = { ...record, name: 'jq', link: 'https://jqlang.org/manual/', tags: ['json'] };

/** The fields named by the problems of a file holding `record` changed by `change`. */
const fieldsWith = (change: Partial<Record<keyof LinkRecord | string, unknown>>) =>
  read([other, { ...record, ...change }]).problems.map((p) => p.field);

describe('links.json', () => {
  it('reads valid records in file order', () => {
    const { links, problems } = read([record, other]);
    expect(problems).toEqual([]);
    expect(links).toEqual([record, other]);
  });

  it('must be a list', () => {
    expect(read({ links: [record] }).problems).toEqual([{ file: FILE, line: 1, field: '(file)', message: expect.stringContaining('a list') }]);
  });

  it.each(['name', 'description', 'tags', 'link', 'timestamp', 'credit'])('%s is required', (field) => {
    const broken: Record<string, unknown> = { ...record };
    delete broken[field];
    expect(read([broken]).problems).toEqual([{ file: FILE, line: expect.any(Number), field: `[0].${field}`, message: 'is required' }]);
  });

  it('name is non-empty', () => {
    expect(fieldsWith({ name: '' })).toEqual(['[1].name']);
  });

  it('description is 1–100 characters', () => {
    expect(fieldsWith({ description: 'd'.repeat(100) })).toEqual([]);
    expect(fieldsWith({ description: 'd'.repeat(101) })).toEqual(['[1].description']);
    expect(fieldsWith({ description: '' })).toEqual(['[1].description']);
    const { problems, text } = read([{ ...record, description: 'd'.repeat(101) }]);
    expect(problems[0]).toMatchObject({ line: lineContaining(text, 'ddd'), message: expect.stringContaining('100') });
  });

  it('tags are non-empty and already normalised (lower case, single spaces, trimmed)', () => {
    expect(fieldsWith({ tags: [] })).toEqual([]);
    expect(fieldsWith({ tags: [''] })).toEqual(['[1].tags[0]']);
    for (const tag of ['API', 'Json', ' api', 'api ', 'web  search', 'web\tsearch']) {
      const { problems, text } = read([{ ...record, tags: ['ok', tag] }]);
      expect(problems).toEqual([{ file: FILE, line: lineContaining(text, JSON.stringify(tag)), field: '[0].tags[1]', message: expect.stringContaining('lower case') }]);
    }
    expect(read([{ ...record, tags: ['API'] }]).problems[0]!.message).toContain('"api"');
  });

  it('link is a direct http or https address', () => {
    for (const link of ['javascript:alert(1)', 'ftp://example.com/x', 'example.com/docs', 'https://', 'https:///path', '/docs']) {
      expect(fieldsWith({ link })).toEqual(['[1].link']);
    }
    expect(fieldsWith({ link: 'HTTP://example.com/docs?x=1#y' })).toEqual([]);
  });

  it('timestamp is a real calendar day YYYY-MM-DD', () => {
    for (const timestamp of ['2023-02-30', '2023-02-29', '2024-04-31', '2024-5-6', '2024-05-06T10:00:00Z', 'today']) {
      expect(fieldsWith({ timestamp })).toEqual(['[1].timestamp']);
    }
    expect(fieldsWith({ timestamp: '2024-02-29' })).toEqual([]);
  });

  it('credit is <username>@<site>', () => {
    for (const credit of ['ana', '@forum.example', 'ana@', 'a@b@c', 'ana @forum.example']) {
      expect(fieldsWith({ credit })).toEqual(['[1].credit']);
    }
    expect(fieldsWith({ credit: 'ana.b-c@forum.example.org' })).toEqual([]);
  });

  it('no other fields', () => {
    expect(fieldsWith({ url: 'https://x.example' })).toEqual(['[1].url']);
  });

  it('one record per link: a repeated link is an error at the later record, on its line', () => {
    const { problems, text } = read([record, other, { ...record, name: 'curl again' }]);
    expect(problems).toEqual([
      { file: FILE, line: lineContaining(text, record.link, 1), field: '[2].link', message: expect.stringContaining('[0]') },
    ]);
  });

  it('reports every problem of every record at once', () => {
    const { problems } = read([
      { ...record, description: '', credit: 'nobody' },
      { ...other, tags: ['JSON'], timestamp: '2023-02-30' },
      { ...other, link: 'javascript:alert(1)' },
    ]);
    expect(problems.map((p) => p.field).sort()).toEqual(['[0].credit', '[0].description', '[1].timestamp', '[2].link'].sort());
  });

  it('reports the normalisation and duplicate rules together once the schema is met', () => {
    const { problems } = read([record, { ...other, tags: ['JSON', 'Web Search'] }, { ...other, name: 'jq 2' }]);
    expect(problems.map((p) => p.field)).toEqual(['[1].tags[0]', '[1].tags[1]', '[2].link']);
  });
});

describe('newLinkProblems (add-link)', () => {
  const existing = [record, other];

  it('accepts a valid new record', () => {
    expect(newLinkProblems({ ...record, name: 'HTTPie', link: 'https://httpie.io/docs/cli' }, existing, FILE)).toEqual([]);
  });

  it('names the fields of the new record at its future index', () => {
    const problems = newLinkProblems({ ...record, link: 'https://new.example/', description: 'd'.repeat(101), credit: 'x' }, existing, FILE);
    expect(problems.map((p) => p.field).sort()).toEqual(['[2].credit', '[2].description']);
    expect(problems.every((p) => p.file === FILE)).toBe(true);
  });

  it('rejects a link that is already recorded, and tags that are not normalised', () => {
    expect(newLinkProblems({ ...record, name: 'curl 2' }, existing, FILE)).toEqual([
      { file: FILE, line: undefined, field: '[2].link', message: expect.stringContaining('[0]') },
    ]);
    expect(newLinkProblems({ ...record, link: 'https://new.example/', tags: ['HTTP'] }, existing, FILE).map((p) => p.field)).toEqual(['[2].tags[0]']);
  });

  it('rejects something that is not a record', () => {
    expect(newLinkProblems('curl', existing, FILE).map((p) => p.field)).toEqual(['[2]']);
  });
});
