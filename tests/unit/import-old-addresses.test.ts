// import-forum and old addresses: forum addresses as site paths (aliases), links of first posts to
// imported topics rewritten to their new pages, and the tags' old addresses added to tags.json.
import { describe, expect, it } from 'vitest';
import { aliasesOf, forumSitePath, importedTopicIndex, rewriteOldLinks } from '../../src/import/old-links.ts';
import { addTagAliases, importedTagAliases } from '../../src/import/tag-aliases.ts';
import { ipsTopicUrls } from '../../src/import/ips.ts';
import { emptyState } from '../../src/import/state.ts';

const BASE = 'https://forum.example/community/';

describe('old addresses of an import', () => {
  it('are site paths relative to the forum’s address, or none outside it', () => {
    expect(forumSitePath('https://forum.example/community/topic/5-x/', BASE)).toBe('/topic/5-x/');
    expect(forumSitePath('https://forum.example/community/index.php?/topic/5-x/', BASE)).toBe('/index.php?/topic/5-x/');
    expect(forumSitePath('https://forum.example/community', BASE)).toBe('/');
    expect(forumSitePath('https://forum.example/other/topic/5-x/', BASE)).toBeUndefined();
    expect(forumSitePath('https://elsewhere.example/community/topic/5-x/', BASE)).toBeUndefined();
    expect(aliasesOf(['https://forum.example/community/u/Zoë', 'https://forum.example/community/', undefined, 'https://x.example/t/1'], BASE)).toEqual(['/u/Zo%C3%AB']);
    expect(ipsTopicUrls('https://forum.example/community/index.php?/topic/5-x/', BASE)).toEqual(['https://forum.example/community/topic/5-x/', 'https://forum.example/community/index.php?/topic/5-x/']);
  });

  it('links to imported topics lead to their pages, by any slug, post number or form of their address', () => {
    const state = emptyState('discourse', BASE);
    state.topics['12'] = { file: 'topics/help/fix-the-printer.md', hash: '', stamp: '', url: `${BASE}t/fix-the-printer/12`, author: 'a' };
    const unrecorded = new Map([[`${BASE}t/scanner-woes/40`, 'topics/help/scanner-woes.md']]);
    const index = importedTopicIndex(state, BASE, unrecorded);
    const markdown = [
      `[a](${BASE}t/fix-the-printer/12) [b](${BASE}t/old-title/12/3) [c](${BASE}t/12)`,
      `<${BASE}t/scanner-woes/40> [d](${BASE}t/unknown/99) [e](https://other.example/t/x/12) ![img](${BASE}uploads/12.png)`,
    ].join('\n');
    expect(rewriteOldLinks(markdown, BASE, index)).toBe(
      [
        '[a](/topics/fix-the-printer/) [b](/topics/fix-the-printer/) [c](/topics/fix-the-printer/)',
        `[/topics/scanner-woes/](/topics/scanner-woes/) [d](${BASE}t/unknown/99) [e](https://other.example/t/x/12) ![img](${BASE}uploads/12.png)`,
      ].join('\n'),
    );
  });

  it('tags keep their synonyms and descriptions; an old address that is the tag’s page here is left out', () => {
    const state = emptyState('ips', BASE);
    state.tags = { JSON: `${BASE}tags/JSON/`, json: `${BASE}tags/json/`, 'Web API': `${BASE}tags/Web%20API/`, js: `${BASE}tags/js/`, [`${'x'.repeat(60)}`]: `${BASE}tags/x/` };
    const wanted = importedTagAliases(state);
    expect([...wanted]).toEqual([['json', ['/tags/JSON/']], ['web api', ['/tags/Web%20API/']]]);
    const text = '{\n  "JavaScript": { "synonyms": ["js"], "description": "The language." },\n  "json": { "aliases": ["/tag/json"] }\n}\n';
    const out = addTagAliases(text, new Map([['js', 'javascript']]), new Map([...wanted, ['js', ['/tag/js']]]));
    expect(JSON.parse(out)).toEqual({
      JavaScript: { synonyms: ['js'], description: 'The language.', aliases: ['/tag/js'] },
      json: { aliases: ['/tag/json', '/tags/JSON/'] },
      'web api': { aliases: ['/tags/Web%20API/'] },
    });
    expect(addTagAliases(out, new Map([['js', 'javascript']]), wanted)).toBe(out);
  });
});
