import { describe, expect, it } from 'vitest';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readMembers } from '../../src/content/members.ts';

const FILE = 'content/members.json';

function read(data: unknown) {
  const text = JSON.stringify(data, null, 2);
  return { text, ...readMembers(parseJsonFile(text, FILE) as JsonFile, FILE) };
}

/** 1-based line of the nth line containing `needle`. */
const lineContaining = (text: string, needle: string, nth = 0) =>
  text.split('\n').map((line, i) => (line.includes(needle) ? i + 1 : 0)).filter(Boolean)[nth]!;

const ana = { name: 'Ana', joined: '2021-03-04', group: 'Moderators', twitter: 'ana', website: 'https://ana.example', jabber: 'ana@jabber.example', location: 'Porto', interests: 'shell, APIs' };
const ben = { name: 'ben', joined: '2022-12-31', group: 'Members' };

describe('members.json', () => {
  it('reads valid members, every optional field included', () => {
    const { members, problems } = read([ana, ben]);
    expect(problems).toEqual([]);
    expect(members).toEqual([ana, ben]);
  });

  it('an empty list is fine', () => {
    expect(read([]).problems).toEqual([]);
  });

  it.each(['name', 'joined', 'group'])('%s is required', (field) => {
    const member: Record<string, unknown> = { ...ben };
    delete member[field];
    expect(read([ana, member]).problems).toEqual([{ file: FILE, line: expect.any(Number), field: `[1].${field}`, message: 'is required' }]);
  });

  it('joined is a real calendar day YYYY-MM-DD', () => {
    for (const joined of ['2023-02-29', '2023-02-30', '2023-13-01', '03/04/2021', '2021-03-04T10:00:00Z']) {
      const { problems, text } = read([ana, { ...ben, joined }]);
      expect(problems).toEqual([{ file: FILE, line: lineContaining(text, joined), field: '[1].joined', message: expect.stringContaining('YYYY-MM-DD') }]);
    }
    expect(read([{ ...ben, joined: '2024-02-29' }]).problems).toEqual([]);
  });

  it('website is an http or https address', () => {
    for (const website of ['javascript:alert(1)', 'ftp://ana.example', 'ana.example']) {
      expect(read([{ ...ana, website }]).problems.map((p) => p.field)).toEqual(['[0].website']);
    }
    expect(read([{ ...ana, website: 'http://ana.example/me' }]).problems).toEqual([]);
  });

  it('names are 1–80 characters', () => {
    expect(read([{ ...ben, name: 'n'.repeat(80) }]).problems).toEqual([]);
    expect(read([{ ...ben, name: 'n'.repeat(81) }]).problems.map((p) => p.field)).toEqual(['[0].name']);
    expect(read([{ ...ben, name: '' }]).problems.map((p) => p.field)).toEqual(['[0].name']);
  });

  it('names are unique, compared without case, reported at the later one on its line', () => {
    const { problems, text } = read([ana, ben, { ...ben, name: 'ANA' }, { ...ben, name: 'Ben' }]);
    expect(problems).toEqual([
      { file: FILE, line: lineContaining(text, '"ANA"'), field: '[2].name', message: expect.stringContaining("duplicate member name 'ANA'") },
      { file: FILE, line: lineContaining(text, '"Ben"'), field: '[3].name', message: expect.stringContaining('[1]') },
    ]);
  });

  it('unknown fields are errors, and every problem is reported at once', () => {
    const { problems } = read([{ ...ana, email: 'a@b.example' }, { ...ben, group: '', joined: 'soon' }, 'not a member']);
    expect(problems.map((p) => p.field).sort()).toEqual(['[0].email', '[1].group', '[1].joined', '[2]'].sort());
  });

  it('a file that is not a list is one problem', () => {
    expect(read({ name: 'Ana' }).problems).toEqual([{ file: FILE, line: 1, field: '(file)', message: expect.stringContaining('a list') }]);
  });
});
