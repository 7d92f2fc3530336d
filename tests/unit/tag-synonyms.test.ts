// tags.json: the rules of synonyms (one tag each, no chain, no cycle, never a tag of its own) as
// SPEC 7 problems, all at once; canonical tags replacing synonyms in topics when content is loaded.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/content/limits.ts';
import { parseJsonFile, isProblem } from '../../src/content/json-file.ts';
import { readTags } from '../../src/content/tags.ts';
import { canonicalTags, tagProblem } from '../../src/model/tags.ts';
import { formatProblem } from '../../src/content/problems.ts';
import { loadContent } from '../../src/content/load.ts';
import { projectRoot } from '../helpers/cli.ts';

/** The problem lines tags.json written as `text` gives, and what it defines. */
function read(text: string) {
  const json = parseJsonFile(text, 'content/tags.json');
  if (isProblem(json)) throw new Error(formatProblem(json));
  const { tags, problems } = readTags(json, 'content/tags.json');
  return { tags, lines: problems.map(formatProblem) };
}

describe('tags.json', () => {
  it('reads synonyms (normalised like topics’ tags) and descriptions', () => {
    const { tags, lines } = read(JSON.stringify({ JavaScript: { synonyms: [' JS ', 'ECMA  Script'], description: ' The language. ' }, json: {} }));
    expect(lines).toEqual([]);
    expect([...tags.canonicalOf]).toEqual([['js', 'javascript'], ['ecma script', 'javascript']]);
    expect([...tags.descriptions]).toEqual([['javascript', 'The language.']]);
  });

  it('reports every broken rule at once, one SPEC 7 line each, with its line', () => {
    const text = `{
  "javascript": { "synonyms": ["js", "ecmascript"] },
  "typescript": { "synonyms": ["JS"] },
  "shell": { "synonyms": ["bash"] },
  "bash": { "synonyms": ["sh"] },
  "yes": { "synonyms": ["no"] },
  "no": { "synonyms": ["yes"] },
  "css": { "synonyms": ["css", "style", "style"] },
  "web": { "synonyms": ["json"] },
  "json": { "description": "" },
  "": {},
  "Web ": {},
  "api": { "synonyms": "rest", "colour": "red" }
}`;
    expect(read(text).lines).toEqual([
      'content/tags.json:10: json.description: must not be empty',
      "content/tags.json:13: api.colour: unknown field; allowed: synonyms, description, aliases",
      'content/tags.json:13: api.synonyms: must be a list, not the text "rest"',
      'content/tags.json:11: "": a tag must not be empty',
      'content/tags.json:12: "Web ": the tag \'web\' has two entries (also "web", the same after trimming and lower-casing): merge them',
      "content/tags.json:3: typescript.synonyms[0]: 'js' is already a synonym of 'javascript': a synonym belongs to one tag only",
      "content/tags.json:4: shell.synonyms[0]: a chain of synonyms: 'bash' is a synonym of 'shell' and has synonyms of its own ('sh'): list those under 'shell' and remove the entry 'bash'",
      "content/tags.json:6: yes.synonyms[0]: a cycle of synonyms: 'yes' → 'no' → 'yes': choose one of them as the tag and list the others as its synonyms",
      'content/tags.json:8: css.synonyms[0]: "css" is the tag itself: remove it from its synonyms',
      "content/tags.json:8: css.synonyms[2]: 'style' is listed twice: keep one",
      "content/tags.json:9: web.synonyms[0]: 'json' is also a tag of its own (an entry of this file): a tag is either canonical or a synonym; remove its entry (its description can move to 'web') or this synonym",
    ]);
  });

  it('finds a longer cycle, reported once', () => {
    const { lines } = read(JSON.stringify({ a: { synonyms: ['b'] }, b: { synonyms: ['c'] }, c: { synonyms: ['a'] } }));
    expect(lines).toEqual(["content/tags.json:1: a.synonyms[0]: a cycle of synonyms: 'a' → 'b' → 'c' → 'a': choose one of them as the tag and list the others as its synonyms"]);
  });

  it('a synonym breaks the same rules as a topic’s tag', () => {
    const { lines } = read(JSON.stringify({ api: { synonyms: ['a,b', 'x'.repeat(51), '  '] } }));
    expect(lines).toEqual([
      "content/tags.json:1: api.synonyms[0]: tag 'a,b' contains a comma, which separates tags in a search; use another character",
      'content/tags.json:1: api.synonyms[1]: tag is 51 characters; at most 50 allowed',
      'content/tags.json:1: api.synonyms[2]: a tag must not be empty',
    ]);
    expect(tagProblem('ok tag')).toBeUndefined();
  });

  it('is not a list', () => {
    expect(read('[]').lines).toEqual(['content/tags.json:1: (file): must be an object, not a list']);
  });
});

describe('canonical tags', () => {
  const canonicalOf = new Map([['js', 'javascript'], ['ecmascript', 'javascript']]);

  it('replace synonyms in the topic’s own order, each tag once', () => {
    expect(canonicalTags(['json', 'js', 'web'], canonicalOf)).toEqual(['json', 'javascript', 'web']);
    expect(canonicalTags(['js', 'json', 'javascript', 'ecmascript'], canonicalOf)).toEqual(['javascript', 'json']);
    expect(canonicalTags([], canonicalOf)).toEqual([]);
  });

  it('are what every topic carries once content is loaded (validate and build read it so)', () => {
    const contentDir = join(projectRoot, 'tests/fixtures/tag-synonyms');
    const { content, problems } = loadContent({ root: projectRoot, contentDir, excerptLength: 200 });
    expect(problems).toEqual([]);
    const tagsOf = new Map(content.topics.map((topic) => [topic.slug, topic.tags]));
    expect(tagsOf.get('parse-json-in-js')).toEqual(['javascript', 'json']);
    expect(tagsOf.get('both-spellings')).toEqual(['javascript', 'json']);
    expect(tagsOf.get('pretty-print-json')).toEqual(['javascript', 'json']);
    expect(tagsOf.get('webhook-listener')).toEqual(['api', 'web']);
    const all = new Set(content.topics.flatMap((topic) => topic.tags));
    for (const synonym of ['js', 'ecmascript', 'www']) expect(all.has(synonym)).toBe(false);
    expect(content.tags.descriptions.get('json')).toBe('Reading, writing and querying JSON data.');
  });

  it('read tags.json within the data file limits, like every data file', () => {
    const contentDir = join(mkdtempSync(join(tmpdir(), 'tagsite-tags-limits-')), 'content');
    cpSync(join(projectRoot, 'tests/fixtures/tag-synonyms'), contentDir, { recursive: true });
    writeFileSync(join(contentDir, 'tags.json'), JSON.stringify({ a: {}, b: {}, c: {} }));
    const { problems } = loadContent({ root: contentDir, contentDir, excerptLength: 200, limits: { ...DEFAULT_LIMITS, dataFileRecords: 2 } });
    expect(problems.map(formatProblem)).toEqual(['tags.json:1: (file): has more than 2 records (limits.dataFileRecords in the site options)']);
  });
});
