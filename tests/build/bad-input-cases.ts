/** The catalogue of broken inputs (SPEC 7): each case breaks one thing in a copy of valid-small. */
import { copyFileSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editJson, writeTopic, type FrontMatter } from './fixture-copies.ts';

export interface ContentCase {
  name: string;
  /** Breaks one thing in a copy of valid-small. */
  breakContent: (contentDir: string) => void;
  /** The file the problem line must name, relative to the content folder. */
  file: string;
  /** The field path the problem line must name. */
  field: string;
  /** What the message must say. */
  message: RegExp;
  /** Whether the line must carry a line number. */
  withLine?: boolean;
}

const TOPIC = 'topics/help/broken-topic.md';
const validTopic: FrontMatter = {
  title: '"A broken topic"',
  author: 'mira',
  created: '2024-01-01',
  forum: 'help',
  tags: '[api, json]',
};

/** A topic that is valid except for the fields given (raw YAML; undefined removes a field). */
const topicWith = (fields: FrontMatter, path = 'help/broken-topic.md') => (dir: string) =>
  writeTopic(dir, path, { ...validTopic, ...fields });

const workflow = (download: string | undefined) =>
  `\n  file: Cleaner.flowsmith\n${download === undefined ? '' : `  download: ${download}\n`}  version: 1.0.0`;

export const contentCases: ContentCase[] = [
  // Topics (SPEC 2.1)
  { name: 'bad YAML', breakContent: topicWith({ tags: '[api, json' }), file: TOPIC, field: '(front matter)', message: /not valid YAML/, withLine: true },
  {
    name: 'no front matter at all',
    breakContent: (dir) => writeFileSync(join(dir, TOPIC), 'Just a post, no front matter.\n'),
    file: TOPIC,
    field: '(front matter)',
    message: /must start with front matter/,
  },
  { name: 'missing title', breakContent: topicWith({ title: undefined }), file: TOPIC, field: 'title', message: /is required/ },
  { name: 'empty title', breakContent: topicWith({ title: '""' }), file: TOPIC, field: 'title', message: /must not be empty/, withLine: true },
  { name: 'title of 201 characters', breakContent: topicWith({ title: 'x'.repeat(201) }), file: TOPIC, field: 'title', message: /at most 200 characters \(it has 201\)/, withLine: true },
  { name: 'missing author', breakContent: topicWith({ author: undefined }), file: TOPIC, field: 'author', message: /is required/ },
  { name: 'created not a date', breakContent: topicWith({ created: 'last tuesday' }), file: TOPIC, field: 'created', message: /must be a date.*"last tuesday"/, withLine: true },
  { name: 'created 2023-02-30', breakContent: topicWith({ created: '2023-02-30' }), file: TOPIC, field: 'created', message: /2023-02-30/, withLine: true },
  { name: 'created as a number', breakContent: topicWith({ created: '20240101' }), file: TOPIC, field: 'created', message: /must be a string/, withLine: true },
  { name: 'updated before created', breakContent: topicWith({ updated: '2023-12-31' }), file: TOPIC, field: 'updated', message: /earlier than created/, withLine: true },
  { name: 'unknown forum id', breakContent: topicWith({ forum: 'nowhere' }), file: TOPIC, field: 'forum', message: /'nowhere' is not a forum id/, withLine: true },
  { name: 'a category id given as forum', breakContent: topicWith({ forum: 'guides' }), file: TOPIC, field: 'forum', message: /it is a category: use category/, withLine: true },
  { name: 'a forum id given as category', breakContent: topicWith({ forum: undefined, category: 'scripting' }), file: TOPIC, field: 'category', message: /it is a forum: use forum/, withLine: true },
  { name: 'both forum and category', breakContent: topicWith({ category: 'guides' }), file: TOPIC, field: 'category', message: /either forum or category, not both/ },
  { name: 'neither forum nor category', breakContent: topicWith({ forum: undefined }), file: TOPIC, field: 'forum', message: /is required \(or category\)/ },
  { name: 'a 51-character tag', breakContent: topicWith({ tags: `[api, ${'t'.repeat(51)}]` }), file: TOPIC, field: 'tags[1]', message: /51 characters; at most 50/, withLine: true },
  { name: 'an empty tag', breakContent: topicWith({ tags: '[api, "   "]' }), file: TOPIC, field: 'tags[1]', message: /must not be empty/, withLine: true },
  { name: 'duplicate tags after normalisation', breakContent: topicWith({ tags: '[API, " api "]' }), file: TOPIC, field: 'tags[1]', message: /duplicate tag 'api'/, withLine: true },
  { name: 'tags not a list', breakContent: topicWith({ tags: 'api' }), file: TOPIC, field: 'tags', message: /must be a list/, withLine: true },
  { name: 'replies: 2.5', breakContent: topicWith({ replies: '2.5' }), file: TOPIC, field: 'replies', message: /whole number, not the number 2.5/, withLine: true },
  { name: 'negative views', breakContent: topicWith({ views: '-4' }), file: TOPIC, field: 'views', message: />= 0, not -4/, withLine: true },
  { name: 'unknown field tag: (typo of tags)', breakContent: topicWith({ tags: undefined, tag: '[api]' }), file: TOPIC, field: 'tag', message: /unknown field \(did you mean 'tags'\?\)/, withLine: true },
  {
    name: 'a bad slug (Bad_Slug.md)',
    breakContent: (dir) => renameSync(join(dir, 'topics/help/cpp-templates.md'), join(dir, 'topics/help/Bad_Slug.md')),
    file: 'topics/help/Bad_Slug.md',
    field: '(slug)',
    message: /'Bad_Slug' is not a valid slug/,
  },
  {
    name: 'a duplicate slug in another folder',
    breakContent: (dir) => copyFileSync(join(dir, 'topics/guides/api-basics.md'), join(dir, 'topics/help/api-basics.md')),
    file: 'topics/help/api-basics.md',
    field: '(slug)',
    message: /duplicate slug 'api-basics': .*topics\/guides\/api-basics\.md/,
  },
  {
    name: 'an .mdx topic',
    breakContent: (dir) => renameSync(join(dir, 'topics/help/cpp-templates.md'), join(dir, 'topics/help/cpp-templates.mdx')),
    file: 'topics/help/cpp-templates.mdx',
    field: '(file)',
    message: /rename to \.md/,
  },
  // A download is optional (real lists have items without one); a screenshot is a URL or a bare file name.
  { name: 'workflow screenshot with a path', breakContent: topicWith({ workflow: `${workflow(undefined)}\n  screenshot: "shots/cleaner.png"` }), file: TOPIC, field: 'workflow.screenshot', message: /shots\/cleaner\.png/, withLine: true },
  { name: 'workflow download javascript:', breakContent: topicWith({ workflow: workflow('"javascript:alert(1)"') }), file: TOPIC, field: 'workflow.download', message: /javascript:alert\(1\)/, withLine: true },
  {
    name: 'workflow description of 101 characters',
    breakContent: topicWith({ workflow: `${workflow('https://files.example/c.flowsmith')}\n  description: ${'d'.repeat(101)}` }),
    file: TOPIC,
    field: 'workflow.description',
    message: /at most 100 characters/,
    withLine: true,
  },

  // content-types.json (SPEC 2.2)
  {
    name: 'content-types.json not valid JSON',
    breakContent: (dir) => writeFileSync(join(dir, 'content-types.json'), '{ "forums": [ { "id": "help", } ] }\n'),
    file: 'content-types.json',
    field: '(file)',
    message: /not valid JSON/,
    withLine: true,
  },
  {
    name: 'a duplicate id across groups',
    breakContent: (dir) => editJson(dir, 'content-types.json', (types) => void types.featureCategories.push({ id: 'guides', name: 'Guides again' })),
    file: 'content-types.json',
    field: 'featureCategories[1].id',
    message: /duplicate id 'guides' \(already used at categories\[0\]\.id\)/,
    withLine: true,
  },
  {
    name: 'a category with a bad kind',
    breakContent: (dir) => editJson(dir, 'content-types.json', (types) => void (types.categories[0].kind = 'videos')),
    file: 'content-types.json',
    field: 'categories[0].kind',
    message: /must be one of .*"articles".*not "videos"/,
    withLine: true,
  },
  {
    name: 'a sub-forum without a name',
    breakContent: (dir) => editJson(dir, 'content-types.json', (types) => void delete types.forums[0].children[0].name),
    file: 'content-types.json',
    field: 'forums[0].children[0].name',
    message: /is required/,
    withLine: true,
  },

  // links.json (SPEC 2.4)
  {
    name: 'links.json not an array',
    breakContent: (dir) => editJson(dir, 'links.json', (links) => ({ links })),
    file: 'links.json',
    field: '(file)',
    message: /must be a list/,
  },
  { name: 'a 101-character description', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].description = 'd'.repeat(101))), file: 'links.json', field: '[0].description', message: /at most 100 characters/, withLine: true },
  { name: 'an upper-case link tag', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[1].tags[0] = 'Web Search')), file: 'links.json', field: '[1].tags[0]', message: /lower case.*"web search"/, withLine: true },
  { name: 'an empty link tag', breakContent: (dir) => editJson(dir, 'links.json', (l) => void l[0].tags.push('')), file: 'links.json', field: '[0].tags[2]', message: /must not be empty/, withLine: true },
  { name: 'timestamp 2023-02-30', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].timestamp = '2023-02-30')), file: 'links.json', field: '[0].timestamp', message: /real calendar date/, withLine: true },
  { name: 'credit without @', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[1].credit = 'kenji')), file: 'links.json', field: '[1].credit', message: /"kenji" is not valid/, withLine: true },
  { name: 'a javascript: link', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].link = 'javascript:alert(1)')), file: 'links.json', field: '[0].link', message: /javascript:alert\(1\)/, withLine: true },
  { name: 'an unknown link field', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].url = 'https://x.example')), file: 'links.json', field: '[0].url', message: /unknown field/, withLine: true },
  { name: 'a link record without name', breakContent: (dir) => editJson(dir, 'links.json', (l) => void delete l[1].name), file: 'links.json', field: '[1].name', message: /is required/, withLine: true },

  // members.json (SPEC 2.3)
  { name: 'a duplicate member name', breakContent: (dir) => editJson(dir, 'members.json', (m) => void (m[1].name = 'mira')), file: 'members.json', field: '[1].name', message: /duplicate member name 'mira'/, withLine: true },
  { name: 'member joined not a date', breakContent: (dir) => editJson(dir, 'members.json', (m) => void (m[0].joined = 'spring 2019')), file: 'members.json', field: '[0].joined', message: /calendar date.*"spring 2019"/, withLine: true },
  { name: 'member website not a URL', breakContent: (dir) => editJson(dir, 'members.json', (m) => void (m[0].website = 'mira dot example')), file: 'members.json', field: '[0].website', message: /mira dot example/, withLine: true },
  { name: 'members.json not valid JSON', breakContent: (dir) => writeFileSync(join(dir, 'members.json'), '[ { "name": "mira" '), file: 'members.json', field: '(file)', message: /not valid JSON/, withLine: true },

  // Limits and hostile bytes (SPEC 7, issue 17): each one line, never a stack.
  { name: '21 tags (limits.tagsPerTopic)', breakContent: topicWith({ tags: `[${Array.from({ length: 21 }, (_, i) => `t${i}`).join(', ')}]` }), file: TOPIC, field: 'tags', message: /has 21 tags; at most 20 allowed \(limits\.tagsPerTopic/, withLine: true },
  {
    name: 'a topic file over 256 KiB (limits.topicFileBytes)',
    breakContent: (dir) => writeTopic(dir, 'help/broken-topic.md', validTopic, 'word '.repeat(60_000)),
    file: TOPIC, field: '(file)', message: /is 300\d+ bytes; at most 262144 allowed \(limits\.topicFileBytes/,
  },
  {
    name: 'a data file over 4 MiB (limits.dataFileBytes)',
    breakContent: (dir) => writeFileSync(join(dir, 'links.json'), `[]${' '.repeat(4_200_000)}`),
    file: 'links.json', field: '(file)', message: /bytes; at most 4194304 allowed \(limits\.dataFileBytes/,
  },
  {
    name: '10,001 members (limits.dataFileRecords)',
    breakContent: (dir) => writeFileSync(join(dir, 'members.json'), JSON.stringify(Array.from({ length: 10_001 }, (_, i) => ({ name: `m${i}`, joined: '2020-01-01', group: 'g' })))),
    file: 'members.json', field: '(file)', message: /more than 10000 records \(limits\.dataFileRecords/, withLine: true,
  },
  { name: 'a data file nested 5,000 deep', breakContent: (dir) => writeFileSync(join(dir, 'links.json'), `${'['.repeat(5000)}${']'.repeat(5000)}`), file: 'links.json', field: '(file)', message: /nest more than 32 levels deep \(limits\.nestingDepth/, withLine: true },
  {
    name: 'forums nested 5,000 deep (children)',
    breakContent: (dir) => {
      // Written as text: JSON.stringify itself cannot go this deep.
      const deep = `${'{"id": "f", "name": "F", "children": ['.repeat(5000)}${']}'.repeat(5000)}`;
      writeFileSync(join(dir, 'content-types.json'), `{ "forums": [${deep}], "categories": [], "featureCategories": [] }`);
    },
    file: 'content-types.json', field: '(file)', message: /nest more than 32 levels deep/, withLine: true,
  },
  { name: 'front matter nested 5,000 deep', breakContent: topicWith({ tags: `${'['.repeat(5000)}${']'.repeat(5000)}` }), file: TOPIC, field: '(front matter)', message: /not valid YAML: nesting exceeded maxDepth \(32\)/, withLine: true },
  {
    name: 'invalid UTF-8 in a topic',
    breakContent: (dir) => {
      writeTopic(dir, 'help/broken-topic.md', validTopic, 'caf\u00e9\n');
      const file = join(dir, 'topics', TOPIC.slice('topics/'.length));
      writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0x63, 0xff, 0x0a])]));
    },
    file: TOPIC, field: '(file)', message: /is not valid UTF-8 \(byte offset \d+\)/, withLine: true,
  },
  { name: 'invalid UTF-8 in members.json', breakContent: (dir) => writeFileSync(join(dir, 'members.json'), Buffer.from('[{"name": "mir\xc3\x28a"}]', 'latin1')), file: 'members.json', field: '(file)', message: /is not valid UTF-8 \(byte offset 14\)/, withLine: true },
  { name: 'a NUL byte in a topic', breakContent: (dir) => writeTopic(dir, 'help/broken-topic.md', validTopic, 'before\u0000after\n'), file: TOPIC, field: '(file)', message: /control character U\+0000/, withLine: true },
  { name: 'an escaped control character in YAML', breakContent: topicWith({ title: '"bell \\a here"' }), file: TOPIC, field: 'title', message: /control character U\+0007/, withLine: true },
  { name: 'an escaped control character in JSON', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].description = 'bell \u0007 here')), file: 'links.json', field: '[0].description', message: /control character U\+0007/, withLine: true },
  { name: 'a duplicate JSON key', breakContent: (dir) => writeFileSync(join(dir, 'members.json'), '[\n  { "name": "mira", "joined": "2019-04-02", "group": "Staff",\n    "name": "kenji" }\n]\n'), file: 'members.json', field: '[0].name', message: /the key "name" appears twice in one object \(first on line 2\)/, withLine: true },
  { name: 'an integer beyond 2^53 in YAML', breakContent: topicWith({ views: '99999999999999999999' }), file: TOPIC, field: 'views', message: /too large: whole numbers go up to 9007199254740991/, withLine: true },
  { name: 'an integer beyond 2^53 in JSON', breakContent: (dir) => writeFileSync(join(dir, 'members.json'), '[{ "name": "mira", "joined": "2019-04-02", "group": 99999999999999999999 }]'), file: 'members.json', field: '[0].group', message: /99999999999999999999 is too large/, withLine: true },
  { name: 'year 0000', breakContent: topicWith({ created: '0000-01-01' }), file: TOPIC, field: 'created', message: /with a year from 1000 to 9999/, withLine: true },
  { name: 'year 0999 in links.json', breakContent: (dir) => editJson(dir, 'links.json', (l) => void (l[0].timestamp = '0999-12-31')), file: 'links.json', field: '[0].timestamp', message: /with a year from 1000 to 9999/, withLine: true },
  { name: 'a topic named con.md', breakContent: (dir) => renameSync(join(dir, 'topics/help/pointers-in-c.md'), join(dir, 'topics/help/con.md')), file: 'topics/help/con.md', field: '(file)', message: /cannot be checked out on Windows \(CON is a reserved device name/ },
  { name: 'a folder named aux', breakContent: (dir) => renameSync(join(dir, 'topics/help'), join(dir, 'topics/aux')), file: 'topics/aux', field: '(file)', message: /AUX is a reserved device name/ },
  { name: 'a file named nul.md', breakContent: topicWith({}, 'help/nul.md'), file: 'topics/help/nul.md', field: '(file)', message: /NUL is a reserved device name/ },
  { name: 'a symlinked folder leading outside content/', breakContent: (dir) => symlinkSync(mkdtempSync(join(tmpdir(), 'tagsite-outside-')), join(dir, 'topics', 'elsewhere')), file: 'topics/elsewhere', field: '(file)', message: /symbolic link to a path outside the content folder/ },
  { name: 'a dangling symlinked topic', breakContent: (dir) => symlinkSync(join(dir, 'nowhere.md'), join(dir, 'topics', 'help', 'gone.md')), file: 'topics/help/gone.md', field: '(file)', message: /symbolic link to a path that does not exist/ },
  { name: 'a symlink loop', breakContent: (dir) => symlinkSync(join(dir, 'topics'), join(dir, 'topics', 'help', 'again')), file: 'topics/help/again', field: '(file)', message: /symbolic link that loops/ },
  { name: 'a symlink that points at itself', breakContent: (dir) => symlinkSync(join(dir, 'topics', 'help', 'self.md'), join(dir, 'topics', 'help', 'self.md')), file: 'topics/help/self.md', field: '(file)', message: /symbolic link that loops/ },
];

export interface OptionCase {
  name: string;
  /** JavaScript text of the tagsite({...}) argument. */
  options: string;
  field: string;
  message: RegExp;
}

export const optionCases: OptionCase[] = [
  { name: 'excerptLength: "long"', options: "{ excerptLength: 'long' }", field: 'tagsite.excerptLength', message: /whole number, not the text "long"/ },
  { name: 'an unknown option', options: "{ colour: 'red' }", field: 'tagsite.colour', message: /unknown field/ },
  { name: 'a mistyped option (pagesize)', options: '{ pagesize: 10 }', field: 'tagsite.pagesize', message: /did you mean 'pageSize'/ },
  { name: 'pageSize: 0', options: '{ pageSize: 0 }', field: 'tagsite.pageSize', message: />= 1, not 0/ },
  { name: 'a nested option of the wrong type', options: "{ workflows: { cacheSeconds: '6 minutes' } }", field: 'tagsite.workflows.cacheSeconds', message: /whole number/ },
  { name: 'a lookup url that is not http', options: "{ lookup: { url: 'ftp://lookup.example' } }", field: 'tagsite.lookup.url', message: /ftp:\/\/lookup\.example/ },
];
