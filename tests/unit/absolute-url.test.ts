import { describe, expect, it } from 'vitest';
import { absoluteUrl, intersectionPath, tagPath, topicPath } from '../../src/model/urls.ts';

/** What the URL parser makes of a site path after a root: absoluteUrl's answer by definition. */
const parsed = (root: string, path: string) => new URL(path.replace(/^\/+/, ''), root.endsWith('/') ? root : `${root}/`).href;

describe('absoluteUrl', () => {
  const roots = ['https://flowsmiths.example/', 'https://flowsmiths.example/community/', 'http://127.0.0.1:4321/', 'https://flowsmiths.example/community', 'HTTPS://Flowsmiths.EXAMPLE/', 'https://flowsmiths.example:443/', 'https://flowsmiths.example/a%20b/', 'https://flowsmiths.example/?q=1', 'file:///srv/site/'];
  const paths = [
    '/', '', '/topics/merge-csv-files/', topicPath('zip-a-folder-4x2'), tagPath('macOS Shortcuts'), tagPath('c++', 3), intersectionPath('shell', 'café'), '/sitemap-0.xml',
    // What the parser changes: spaces, non-ASCII, quotes, `..` and `.` steps (also encoded), a query, a fragment, a backslash, a scheme-like first step.
    '/tags/a b/', '/tags/naïve/', '/tags/"x"/', '/a/../b/', '/a/./b/', '/a/%2e%2E/b/', '/a/.%2e/b', '/search/?tags=a,b', '/page/#top', '/a\\b/', '/javascript:alert(1)/', 'mailto:x@y', '//evil.example/x',
    // What it keeps: dots inside a step, odd percent signs, sub-delimiters.
    '/a.b/c..d/.e/', '/a%zz/b%2/', "/x/!$&'()*+,;=@~_-/",
  ];

  it('gives what the URL parser gives, for every root and path', () => {
    for (const root of roots) for (const path of paths) expect(absoluteUrl(root, path), `${root} + ${path}`).toBe(parsed(root, path));
  });

  it('joins a plain path to a plain root as it is', () => {
    expect(absoluteUrl('https://flowsmiths.example/community/', '/tags/shell/2/')).toBe('https://flowsmiths.example/community/tags/shell/2/');
    expect(absoluteUrl('https://flowsmiths.example', 'rss.xml')).toBe('https://flowsmiths.example/rss.xml');
  });
});
