import { describe, expect, it } from 'vitest';
import { parseJsonFile, type JsonFile } from '../../src/content/json-file.ts';
import { readContentTypes } from '../../src/content/content-types.ts';

const FILE = 'content/content-types.json';

/** Reads content-types.json written out as a person would (two-space JSON), so lines are real. */
function read(data: unknown) {
  const text = JSON.stringify(data, null, 2);
  return { text, ...readContentTypes(parseJsonFile(text, FILE) as JsonFile, FILE) };
}

/** The 1-based line of the first line of `text` containing `needle` (from the `from`th match). */
function lineContaining(text: string, needle: string, from = 0): number {
  const lines = text.split('\n');
  const found = lines.map((line, i) => (line.includes(needle) ? i + 1 : 0)).filter(Boolean);
  return found[from]!;
}

const VALID = {
  forums: [
    {
      id: 'help',
      name: 'Help',
      children: [
        { id: 'scripting', name: 'Scripting', children: [{ id: 'shell', name: 'Shell', children: [{ id: 'zsh', name: 'Zsh' }] }] },
        { id: 'install', name: 'Installation' },
      ],
    },
    { id: 'community', name: 'Community' },
  ],
  categories: [
    { id: 'guides', name: 'Guides', kind: 'articles' },
    { id: 'wiki', name: 'Wiki', kind: 'pages' },
  ],
  featureCategories: [{ id: 'showcase', name: 'Showcase' }],
};

describe('a valid content-types.json', () => {
  const { index, problems } = read(VALID);

  it('has no problems', () => {
    expect(problems).toEqual([]);
  });

  it('flattens the three groups, forums in tree order', () => {
    expect(index.list.map((type) => [type.id, type.group])).toEqual([
      ['help', 'forum'],
      ['scripting', 'forum'],
      ['shell', 'forum'],
      ['zsh', 'forum'],
      ['install', 'forum'],
      ['community', 'forum'],
      ['guides', 'category'],
      ['wiki', 'category'],
      ['showcase', 'featureCategory'],
    ]);
    expect(index.byId.get('wiki')).toMatchObject({ name: 'Wiki', kind: 'pages' });
  });

  it('knows each forum’s path from the top of the tree', () => {
    expect(index.byId.get('zsh')!.path).toEqual(['help', 'scripting', 'shell', 'zsh']);
    expect(index.byId.get('community')!.path).toEqual(['community']);
    expect(index.byId.get('guides')!.path).toEqual(['guides']);
  });

  it('knows every forum’s sub-forums at any depth, itself included', () => {
    expect(index.subtree.get('help')!.sort()).toEqual(['help', 'install', 'scripting', 'shell', 'zsh']);
    expect(index.subtree.get('scripting')!.sort()).toEqual(['scripting', 'shell', 'zsh']);
    expect(index.subtree.get('zsh')).toEqual(['zsh']);
    expect(index.subtree.has('guides')).toBe(false);
  });

  it('needs only forums', () => {
    const only = read({ forums: [{ id: 'a', name: 'A' }] });
    expect(only.problems).toEqual([]);
    expect(only.index.list).toHaveLength(1);
  });
});

describe('ids are unique across all three groups', () => {
  it('a category reusing a forum id is an error at the category, on its line', () => {
    const data = structuredClone(VALID);
    data.categories[1]!.id = 'shell';
    const { problems, text } = read(data);
    expect(problems).toEqual([
      { file: FILE, line: lineContaining(text, '"shell"', 1), field: 'categories[1].id', message: expect.stringContaining("duplicate id 'shell'") },
    ]);
    expect(problems[0]!.message).toContain('forums[0].children[0].children[0].id');
  });

  it('a feature category reusing a category id, and a sub-forum reusing a forum id', () => {
    const data = structuredClone(VALID);
    data.featureCategories[0]!.id = 'guides';
    data.forums[0]!.children![1]!.id = 'community';
    const fields = read(data).problems.map((p) => p.field).sort();
    // The tree is walked depth first: the sub-forum comes before the top-level `community`.
    expect(fields).toEqual(['featureCategories[0].id', 'forums[1].id']);
  });
});

describe('schema rules, with lines', () => {
  it('forums is required', () => {
    expect(read({ categories: [] }).problems).toEqual([{ file: FILE, line: 1, field: 'forums', message: 'is required' }]);
  });

  it('an id is lower-case letters, digits and hyphens', () => {
    const data = structuredClone(VALID);
    data.forums[0]!.children![0]!.id = 'Bad Id';
    const { problems, text } = read(data);
    expect(problems).toEqual([{ file: FILE, line: lineContaining(text, 'Bad Id'), field: 'forums[0].children[0].id', message: expect.stringContaining('"Bad Id"') }]);
  });

  it('a category kind is one of the five kinds', () => {
    const data = structuredClone(VALID);
    data.categories[0]!.kind = 'blog';
    const { problems, text } = read(data);
    expect(problems).toEqual([{ file: FILE, line: lineContaining(text, '"blog"'), field: 'categories[0].kind', message: expect.stringContaining('"articles"') }]);
  });

  it('names are required and non-empty; unknown fields are errors; all reported at once', () => {
    const { problems } = read({
      forums: [{ id: 'a', name: '' }, { id: 'b' }],
      categories: [{ id: 'c', name: 'C' }],
      featureCategories: [{ id: 'd', name: 'D', kind: 'media' }],
      extra: true,
    });
    expect(problems.map((p) => p.field).sort()).toEqual(
      ['categories[0].kind', 'extra', 'featureCategories[0].kind', 'forums[0].name', 'forums[1].name'].sort(),
    );
    expect(problems.every((p) => p.file === FILE && typeof p.line === 'number')).toBe(true);
  });

  it('a file that is not an object is one problem', () => {
    expect(read([]).problems).toEqual([{ file: FILE, line: 1, field: '(file)', message: expect.stringContaining('must be an object') }]);
  });
});
