import { describe, expect, it } from 'vitest';
import { isProblem, parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';

const FILE = 'content/links.json';

const TEXT = `{
  "forums": [
    {
      "id": "help",
      "name": "Help",
      "children": [
        { "id": "shell", "name": "Shell" },
        {
          "id": "a/b",
          "name": "Slash"
        }
      ]
    }
  ],
  "odd~key": 1
}
`;

describe('parseJsonFile', () => {
  const json = parseJsonFile(TEXT, FILE) as JsonFile;

  it('gives the data of valid JSON', () => {
    expect(isProblem(json)).toBe(false);
    expect(json.data).toEqual(JSON.parse(TEXT));
  });

  it('finds the line of a field by its JSON pointer (the line of its key)', () => {
    expect(json.lineOf('')).toBe(1);
    expect(json.lineOf('/forums')).toBe(2);
    expect(json.lineOf('/forums/0')).toBe(3);
    expect(json.lineOf('/forums/0/name')).toBe(5);
    expect(json.lineOf('/forums/0/children/0')).toBe(7);
    expect(json.lineOf('/forums/0/children/0/name')).toBe(7);
    expect(json.lineOf('/forums/0/children/1/name')).toBe(10);
    expect(json.lineOf('/odd~0key')).toBe(15);
    expect(json.lineOf('/forums/0/children/1/id')).toBe(9);
  });

  it('gives a missing field the line of its nearest existing parent', () => {
    expect(json.lineOf('/forums/0/children/1/kind')).toBe(8);
    expect(json.lineOf('/forums/5/id')).toBe(2);
    expect(json.lineOf('/nothing/here')).toBe(1);
  });

  it('reads a byte-order mark as no part of the JSON', () => {
    const withBom = parseJsonFile(`\uFEFF${TEXT}`, FILE) as JsonFile;
    expect(isProblem(withBom)).toBe(false);
    expect(withBom.data).toEqual(JSON.parse(TEXT));
    expect(withBom.lineOf('/forums/0/name')).toBe(5);
  });

  it.each([
    ['a missing comma', '[\n  {"a": 1}\n  {"b": 2}\n]', 3],
    ['a trailing comma', '[\n  1,\n  2,\n]', 4],
    ['a comment', '{\n  // note\n  "a": 1\n}', 2],
    ['a single-quoted string', "{\n\n  'a': 1\n}", 3],
    ['an unclosed list', '[\n  1,\n  2\n', 4],
    ['text after the value', '[1]\n[2]', 2],
  ])('%s is a problem with its line', (_name, text, line) => {
    const problem = parseJsonFile(text, FILE);
    expect(isProblem(problem)).toBe(true);
    expect(problem).toEqual({ file: FILE, line, field: '(file)', message: expect.stringContaining('not valid JSON') });
  });

  it('an empty file is a problem, never a crash', () => {
    for (const text of ['', '   \n', '\uFEFF']) {
      expect(parseJsonFile(text, FILE)).toMatchObject({ file: FILE, field: '(file)' });
    }
  });
});

describe('isProblem', () => {
  it('tells a problem from parsed data', () => {
    expect(isProblem({ file: 'f', field: 'x', message: 'm' })).toBe(true);
    expect(isProblem({ data: [], lineOf: () => 1 })).toBe(false);
    expect(isProblem(null)).toBe(false);
    expect(isProblem('problem')).toBe(false);
  });
});
