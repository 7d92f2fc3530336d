import { describe, expect, it } from 'vitest';
import { ContentProblemsError, fieldPath, formatProblem } from '../../src/content/problems.ts';
import { pointerToField } from '../../src/content/schema-validation.ts';

describe('formatProblem', () => {
  it('writes `<file>:<line>: <field>: <message>`', () => {
    expect(formatProblem({ file: 'content/links.json', line: 12, field: '[3].description', message: 'must be at most 100 characters' })).toBe(
      'content/links.json:12: [3].description: must be at most 100 characters',
    );
  });

  it('leaves the line out when it is not known', () => {
    expect(formatProblem({ file: 'astro.config.mjs', field: 'tagsite.pageSize', message: 'must be >= 1, not 0' })).toBe(
      'astro.config.mjs: tagsite.pageSize: must be >= 1, not 0',
    );
  });

  it('is one line', () => {
    expect(formatProblem({ file: 'a.md', line: 1, field: 'title', message: 'is required' })).not.toContain('\n');
  });
});

describe('fieldPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(fieldPath('', 'tags')).toBe('tags');
    expect(fieldPath('tags', 2)).toBe('tags[2]');
    expect(fieldPath('workflow', 'file')).toBe('workflow.file');
    expect(fieldPath('', 3)).toBe('[3]');
    expect(fieldPath(fieldPath('', 3), 'tags')).toBe('[3].tags');
  });
});

describe('pointerToField', () => {
  it('turns a JSON pointer into the field path users read', () => {
    expect(pointerToField('/tags/2')).toBe('tags[2]');
    expect(pointerToField('/3/description')).toBe('[3].description');
    expect(pointerToField('/forums/0/children/1/id')).toBe('forums[0].children[1].id');
    expect(pointerToField('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(pointerToField('')).toBe('(file)');
  });

  it('puts a root in front (site options are `tagsite.…`)', () => {
    expect(pointerToField('/workflows/cacheSeconds', 'tagsite')).toBe('tagsite.workflows.cacheSeconds');
    expect(pointerToField('', 'tagsite')).toBe('tagsite');
  });
});

describe('ContentProblemsError', () => {
  it('carries every problem and lists each as its one line', () => {
    const problems = [
      { file: 'a.md', line: 2, field: 'title', message: 'is required' },
      { file: 'b.md', field: '(slug)', message: 'bad' },
    ];
    const error = new ContentProblemsError(problems);
    expect(error.problems).toBe(problems);
    expect(error.message.split('\n')).toEqual(['2 problems in the content:', 'a.md:2: title: is required', 'b.md: (slug): bad']);
    expect(new ContentProblemsError([problems[0]!]).message).toMatch(/^1 problem in/);
  });
});
