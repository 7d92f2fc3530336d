/** Issue 17: a data file's own rules run on every well-formed record, even when other records break the schema. */
import { describe, expect, it } from 'vitest';
import { isProblem, parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readLinks } from '../../src/content/links.ts';
import { readMembers } from '../../src/content/members.ts';

const parsed = (text: string): JsonFile => {
  const json = parseJsonFile(text, 'f.json');
  if (isProblem(json)) throw new Error(json.message);
  return json;
};
const link = (fields: Record<string, unknown>) => ({ name: 'T', description: 'D', tags: ['api'], link: 'https://a.example/x', timestamp: '2024-01-01', credit: 'a@b', ...fields });

describe('nothing hides behind a schema error', () => {
  it('links.json: the lower-case and duplicate-link checks run beside a record with a schema error', () => {
    const records = [link({}), link({ credit: 'nobody' }), link({ tags: ['Web Search'], link: 'https://b.example/' }), link({})];
    const fields = readLinks(parsed(JSON.stringify(records, null, 2)), 'links.json').problems.map((problem) => problem.field);
    expect(fields.sort()).toEqual(['[1].credit', '[2].tags[0]', '[3].link']);
  });

  it('members.json: the duplicate-name check runs beside a record with a schema error', () => {
    const members = [{ name: 'mira', joined: '2020-01-01', group: 'g' }, { name: 'kenji', joined: 'soon', group: 'g' }, { name: 'MIRA', joined: '2020-01-01', group: 'g' }];
    const fields = readMembers(parsed(JSON.stringify(members, null, 2)), 'members.json').problems.map((problem) => problem.field);
    expect(fields.sort()).toEqual(['[1].joined', '[2].name']);
  });
});
