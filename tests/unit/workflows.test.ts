// The workflow list file (SPEC 5): topic → item mapping, defaults, backup download addresses,
// the schema check of good and bad lists, duplicate workflow files and the list addresses.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load.ts';
import type { Topic } from '../../src/content/topics.ts';
import {
  backupDownloadUrl,
  duplicateWorkflowFileProblems,
  publishedListPaths,
  renderWorkflowList,
  siteAddress,
  WORKFLOW_KEYS,
  workflowAddressProblems,
  workflowItem,
  workflowList,
  workflowListProblems,
  workflowName,
  type WorkflowListContext,
} from '../../src/outputs/workflow-list.ts';
import { readWorkflowItem, safeHttpUrl } from '../../src/model/workflow-list.ts';
import { siteRootUrl, topicUrl } from '../../src/model/urls.ts';
import { workflowHeaderRules } from '../../src/outputs/headers.ts';
import { formatProblem } from '../../src/content/problems.ts';
import { projectRoot } from '../helpers/cli.ts';

const fixture = join(projectRoot, 'tests/fixtures/workflows');

function load(dir = fixture) {
  return loadContent({ root: projectRoot, contentDir: dir, excerptLength: 200 });
}

function contextFor(content: ReturnType<typeof load>['content'], siteRoot = 'https://site.example/'): WorkflowListContext {
  return { siteRoot, members: content.members, contentTypes: content.contentTypes.byId };
}

const bySlug = (topics: Topic[], slug: string) => topics.find((topic) => topic.slug === slug)!;

describe('the item of a topic', () => {
  const { content, problems } = load();

  it('the fixture content is valid', () => {
    expect(problems.map(formatProblem)).toEqual([]);
  });

  it('maps every front-matter field to its hyphenated key', () => {
    const item = workflowItem(bySlug(content.topics, 'clipboard-cleaner'), contextFor(content));
    expect(item).toEqual({
      'workflow-name': 'Clipboard Cleaner',
      'workflow-version': '1.2.0',
      'workflow-description-small': 'Cleans copied text and URLs automatically whenever the clipboard changes.',
      'workflow-type': 'Share Your Workflows',
      'workflow-language': 'English',
      'workflow-release-page': 'https://downloads.example/clipboard-cleaner/releases',
      'workflow-download-link': 'https://downloads.example/clipboard-cleaner/Clipboard%20Cleaner.flowsmith',
      'workflow-author-name': 'Mira',
      // The topic says `Mira`, members.json `mira`: member names compare case-insensitively.
      'workflow-author-site': 'https://mira.example',
      'workflow-file': 'Clipboard Cleaner.flowsmith',
      'workflow-screenshot': 'https://downloads.example/clipboard-cleaner/screenshot.png',
    });
    expect(Object.keys(item)).toEqual([...WORKFLOW_KEYS]);
  });

  it('gives "" for every value not given, and the topic URL as the release page', () => {
    const item = workflowItem(bySlug(content.topics, 'report-builder'), contextFor(content, 'https://site.example/community/'));
    expect(item['workflow-version']).toBe('');
    expect(item['workflow-description-small']).toBe('');
    expect(item['workflow-language']).toBe('');
    expect(item['workflow-screenshot']).toBe('');
    // kenji is a listed member without a website.
    expect(item['workflow-author-site']).toBe('');
    expect(item['workflow-release-page']).toBe('https://site.example/community/topics/report-builder/');
    expect(Object.keys(item)).toHaveLength(11);
    expect(Object.values(item).every((value) => typeof value === 'string')).toBe(true);
  });

  it('an author who is not a listed member has no site; a category names the type', () => {
    const item = workflowItem(bySlug(content.topics, 'ubersetzer'), contextFor(content));
    expect(item['workflow-author-name']).toBe('felix');
    expect(item['workflow-author-site']).toBe('');
    expect(item['workflow-type']).toBe('Showcase');
  });

  it('the type falls back to the id when the content type has no name on record', () => {
    const item = workflowItem(bySlug(content.topics, 'ubersetzer'), { ...contextFor(content), contentTypes: new Map() });
    expect(item['workflow-type']).toBe('showcase');
  });

  it('the list has one item per topic with a workflow, in the order given', () => {
    const list = workflowList(content.topics, contextFor(content));
    const withWorkflow = content.topics.filter((topic) => topic.workflow);
    expect(list.map((item) => item['workflow-file'])).toEqual(withWorkflow.map((topic) => topic.workflow!.file));
    expect(list).toHaveLength(5);
    expect(workflowListProblems(list)).toEqual([]);
  });
});

describe('names and URLs', () => {
  it('the name is the file name without its extension', () => {
    expect(workflowName('Clipboard Cleaner.flowsmith', 'Title')).toBe('Clipboard Cleaner');
    expect(workflowName('archive.tar.gz', 'Title')).toBe('archive.tar');
    expect(workflowName('NoExtension', 'Title')).toBe('NoExtension');
    expect(workflowName('.flowsmith', 'The title')).toBe('The title');
  });

  it('topic URLs are absolute and honour the base', () => {
    expect(siteRootUrl('https://site.example', '/')).toBe('https://site.example/');
    expect(siteRootUrl('https://site.example', '/community')).toBe('https://site.example/community/');
    expect(siteRootUrl(undefined, '/')).toBeUndefined();
    expect(topicUrl('https://site.example/community/', 'a-topic')).toBe('https://site.example/community/topics/a-topic/');
    expect(topicUrl('https://site.example/community', 'a-topic')).toBe('https://site.example/community/topics/a-topic/');
  });

  it('option addresses: site paths get the base, URLs stay', () => {
    expect(siteAddress('/', '/api/workflows.json')).toBe('/api/workflows.json');
    expect(siteAddress('/community/', '/api/workflows.json')).toBe('/community/api/workflows.json');
    expect(siteAddress('/community', '/downloads/')).toBe('/community/downloads/');
    expect(siteAddress('/community/', 'https://mirror.example/w/')).toBe('https://mirror.example/w/');
  });

  it('only http(s) addresses are links', () => {
    expect(safeHttpUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl(' JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('data:text/html,<script>')).toBeUndefined();
    expect(safeHttpUrl('')).toBeUndefined();
    expect(safeHttpUrl('/downloads/x', 'https://site.example/')).toBe('https://site.example/downloads/x');
  });
});

describe('backup download addresses', () => {
  const base = 'https://mirror.example/workflows/';

  it.each([
    ['Clipboard Cleaner.flowsmith', 'Clipboard%20Cleaner.flowsmith'],
    ['Report #1? 100% done.flowsmith', 'Report%20%231%3F%20100%25%20done.flowsmith'],
    ['Übersetzer.flowsmith', '%C3%9Cbersetzer.flowsmith'],
    ['スクショOCR.flowsmith', '%E3%82%B9%E3%82%AF%E3%82%B7%E3%83%A7OCR.flowsmith'],
  ])('%s', (file, encoded) => {
    const url = backupDownloadUrl(base, file);
    expect(url).toBe(base + encoded);
    // What a browser or server sees: one path segment that decodes back to the file name.
    const parsed = new URL(url);
    expect(parsed.search).toBe('');
    expect(parsed.hash).toBe('');
    expect(decodeURIComponent(parsed.pathname.slice('/workflows/'.length))).toBe(file);
  });

  it('any file name the schemas allow survives the round trip', () => {
    const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas/topic.schema.json'), 'utf8'));
    const allowed = new RegExp(schema.properties.workflow.properties.file.pattern as string, 'u');
    // `.` and `..` are not allowed: an address cannot name them (URLs drop dot segments, even as %2E).
    expect(allowed.test('.') || allowed.test('..')).toBe(false);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1 }), fc.constantFrom('...', '.a', 'a.', '.. ')).filter((s) => allowed.test(s)), (file) => {
        const url = new URL(backupDownloadUrl(base, file));
        expect(url.search + url.hash).toBe('');
        expect(decodeURIComponent(url.pathname.slice('/workflows/'.length))).toBe(file);
      }),
    );
  });
});

describe('the schema check of a list', () => {
  const good = {
    'workflow-name': 'A',
    'workflow-version': '',
    'workflow-description-small': '',
    'workflow-type': 'Showcase',
    'workflow-language': '',
    'workflow-release-page': 'https://site.example/topics/a/',
    'workflow-download-link': 'https://files.example/a.flowsmith',
    'workflow-author-name': 'mira',
    'workflow-author-site': '',
    'workflow-file': 'a.flowsmith',
    'workflow-screenshot': '',
  };

  it('accepts a good list and an empty one', () => {
    expect(workflowListProblems([good, { ...good, 'workflow-file': 'b.flowsmith' }])).toEqual([]);
    expect(workflowListProblems([])).toEqual([]);
  });

  it('reports each bad item field, naming the topic file the item came from', () => {
    const { 'workflow-language': _dropped, ...missing } = good;
    const bad = [
      { ...good, 'workflow-release-page': 'ftp://site.example/a' },
      missing,
      { ...good, 'workflow-version': 1 },
      { ...good, 'workflow-stars': '5' },
      { ...good, 'workflow-screenshot': 'javascript:alert(1)', 'workflow-description-small': 'x'.repeat(101) },
    ];
    const lines = workflowListProblems(bad, ['content/topics/a.md', 'content/topics/b.md']).map(formatProblem);
    expect(lines).toContain(`content/topics/a.md: workflow list[0].workflow-release-page: "ftp://site.example/a" is not valid: ${'Release page, an absolute http or https URL with a host'}: \`workflow.release\` when given, else the topic's own absolute URL on the site (Astro \`site\` + \`base\`).`);
    expect(lines).toContain('content/topics/b.md: workflow list[1].workflow-language: is required');
    expect(lines).toContain('workflow list: workflow list[2].workflow-version: must be a string, not number 1');
    expect(lines.some((line) => line.startsWith('workflow list: workflow list[3].workflow-stars: unknown field'))).toBe(true);
    expect(lines.some((line) => line.startsWith('workflow list: workflow list[4].workflow-screenshot: "javascript:alert(1)" is not valid'))).toBe(true);
    expect(lines).toContain('workflow list: workflow list[4].workflow-description-small: must be at most 100 characters (it has 101)');
  });

  it('rejects a list that is not an array', () => {
    expect(workflowListProblems({ items: [] }).map(formatProblem)).toEqual(['workflow list: workflow list: must be a list, not an object']);
  });
});

describe('rendering the published list', () => {
  const { content } = load();
  const context = { members: content.members, contentTypes: content.contentTypes.byId };

  it('is the same text every time, one item a line, valid JSON', () => {
    const first = renderWorkflowList(content.topics, { ...context, siteRoot: 'https://site.example/' });
    const second = renderWorkflowList(content.topics, { ...context, siteRoot: 'https://site.example/' });
    expect(first.problems).toEqual([]);
    expect(first.text).toBe(second.text);
    expect(first.text.split('\n')).toHaveLength(5 + 3);
    expect(JSON.parse(first.text)).toEqual(workflowList(content.topics, { ...context, siteRoot: 'https://site.example/' }));
  });

  it('without Astro `site` the list cannot have absolute URLs: a clear problem', () => {
    const { problems } = renderWorkflowList(content.topics, { ...context, siteRoot: undefined });
    expect(problems.map(formatProblem)).toEqual([
      "astro.config.mjs: site: is required to publish the workflow list: its release pages are absolute URLs (set site: 'https://your.domain')",
    ]);
  });

  it('a topic whose workflow breaks the list stops it, naming the topic', () => {
    const topics = content.topics.map((topic) =>
      topic.slug === 'weather-menubar' ? { ...topic, workflow: { ...topic.workflow!, screenshot: 'javascript:alert(1)' } } : topic,
    );
    const { text, problems } = renderWorkflowList(topics, { ...context, siteRoot: 'https://site.example/' });
    expect(text).toBe('');
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^tests\/fixtures\/workflows\/topics\/weather-menubar\.md: workflow list\[\d\]\.workflow-screenshot: "javascript:alert\(1\)" is not valid/),
    ]);
  });
});

describe('duplicate workflow files', () => {
  it('two topics with one workflow file: a problem naming both files', () => {
    const problems = duplicateWorkflowFileProblems([
      { file: 'content/topics/a.md', name: 'X.flowsmith' },
      { file: 'content/topics/c.md', name: 'x.flowsmith' },
      { file: 'content/topics/d.md', name: 'X.flowsmith' },
    ]);
    expect(problems.map(formatProblem)).toEqual([
      "content/topics/d.md: workflow.file: 'X.flowsmith' is also the workflow file of content/topics/a.md; workflow file names must be unique (the backup download address is made from the name)",
    ]);
  });

  it('loadContent reports it, so `npm run validate` does', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tagsite-wf-')), 'content');
    cpSync(fixture, dir, { recursive: true });
    writeFileSync(
      join(dir, 'topics', 'cleaner-copy.md'),
      '---\ntitle: Copy\nauthor: kenji\ncreated: 2025-01-01\nforum: help\nworkflow:\n  file: Clipboard Cleaner.flowsmith\n  download: https://x.example/c\n---\nA copy.\n',
    );
    const { problems } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([
      "topics/clipboard-cleaner.md:11: workflow.file: 'Clipboard Cleaner.flowsmith' is also the workflow file of topics/cleaner-copy.md; workflow file names must be unique (the backup download address is made from the name)",
    ]);
  });
});

describe('list addresses and HTTP caching', () => {
  it('site paths must name a file; other addresses must be http(s)', () => {
    expect(workflowAddressProblems({ primaryUrl: '/api/workflows.json', backupUrl: 'https://mirror.example/w.json' })).toEqual([]);
    const lines = workflowAddressProblems({ primaryUrl: '/api/', backupUrl: 'ftp://mirror.example/w.json' }).map(formatProblem);
    expect(lines).toEqual([
      "astro.config.mjs: tagsite.workflows.primaryUrl: '/api/' is not a file path on the site: use letters, digits, '.', '_', '~' and '-' between slashes, such as /api/workflows.json",
      "astro.config.mjs: tagsite.workflows.backupUrl: 'ftp://mirror.example/w.json' must be a path on the site (such as /api/workflows.json) or an http or https URL",
    ]);
    expect(workflowAddressProblems({ primaryUrl: '/api/[x].json', backupUrl: '/../w.json' })).toHaveLength(2);
  });

  it('publishes at each site path once', () => {
    expect(publishedListPaths({ primaryUrl: '/api/workflows.json', backupUrl: 'api/backup.json' })).toEqual(['/api/workflows.json', '/api/backup.json']);
    expect(publishedListPaths({ primaryUrl: 'https://cdn.example/w.json', backupUrl: '/w.json' })).toEqual(['/w.json']);
    expect(publishedListPaths({ primaryUrl: '/w.json', backupUrl: '/w.json' })).toEqual(['/w.json']);
  });

  it('_headers gives both paths, with the base, the cache lifetime; rules already written are kept', () => {
    const rules = workflowHeaderRules(['/api/workflows.json', '/api/workflows-backup.json'], '/community/', 360);
    expect(rules).toContain('/community/api/workflows.json\n  Cache-Control: public, max-age=360\n');
    expect(rules).toContain('/community/api/workflows-backup.json\n  Cache-Control: public, max-age=360\n');
    const existing = '/community/api/workflows.json\n  Cache-Control: public, max-age=60\n';
    const added = workflowHeaderRules(['/api/workflows.json', '/api/workflows-backup.json'], '/community/', 360, existing);
    expect(added).not.toContain('/community/api/workflows.json\n');
    expect(added).toContain('/community/api/workflows-backup.json\n  Cache-Control: public, max-age=360\n');
  });
});

describe('reading an untrusted item (the client)', () => {
  it('keeps the eleven keys as strings and drops what is not an item', () => {
    const item = readWorkflowItem({ 'workflow-name': 'A', 'workflow-version': 2, 'workflow-extra': 'x', 'workflow-file': 'a' });
    expect(item).toEqual(Object.fromEntries(WORKFLOW_KEYS.map((key) => [key, key === 'workflow-name' ? 'A' : key === 'workflow-file' ? 'a' : ''])));
    expect(readWorkflowItem(null)).toBeUndefined();
    expect(readWorkflowItem(['workflow-name'])).toBeUndefined();
    expect(readWorkflowItem({ 'workflow-name': '' })).toBeUndefined();
  });
});
