// What makes `npm run build` keep the last output (src/build/unchanged.ts): the same code, config,
// settings and Node, the same content files and the output as that build left it.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderFiles } from '../../src/build/folder-files.ts';
import { buildInputs, contentListing, stampBuild, unchangedOutput } from '../../src/build/unchanged.ts';

const root = mkdtempSync(join(tmpdir(), 'tagsite-unchanged-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(): { content: string; out: string } {
  for (const [file, text] of [
    ['src/pages/index.astro', '<p>Hello</p>'],
    ['public/robots.txt', 'User-agent: *'],
    ['schemas/topic.schema.json', '{}'],
    ['package-lock.json', '{"lockfileVersion":3}'],
    ['package.json', '{"name":"site"}'],
    ['astro.config.mjs', 'export default {};'],
    ['content/topics/a.md', '---\ntitle: A\n---\nBody.'],
    ['dist/index.html', '<p>Built</p>'],
  ] as const) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return { content: join(root, 'content'), out: join(root, 'dist') };
}

describe('a build with nothing changed', () => {
  const { content, out } = project();
  const env = { TAGSITE_SITE: 'https://example.test', HOME: '/home/a' };
  const stamp = () => stampBuild(root, content, out, buildInputs(root, undefined, env), contentListing(content), out, folderFiles(out));
  const kept = (environment: NodeJS.ProcessEnv = env) => unchangedOutput(root, content, out, buildInputs(root, undefined, environment), contentListing(content));

  it('keeps the output when code, settings, content and output are as the last build left them', () => {
    expect(kept(), 'no build stamped yet').toBeUndefined();
    stamp();
    expect(kept()).toBe(out);
    expect(kept({ ...env, HOME: '/home/b', SHLVL: '3' }), 'variables no build reads').toBe(out);
  });

  it('builds when a setting in the environment, the code, the config or the lock file changed', () => {
    expect(kept({ ...env, TAGSITE_SITE: 'https://other.test' })).toBeUndefined();
    expect(kept({ ...env, TAGSITE_BASE: '/sub' })).toBeUndefined();
    expect(kept({ ...env, NETLIFY: 'true', URL: 'https://x.netlify.app' })).toBeUndefined();
    for (const file of ['src/pages/index.astro', 'public/robots.txt', 'astro.config.mjs', 'package-lock.json', 'package.json']) {
      stamp();
      writeFileSync(join(root, file), `${file} changed`);
      expect(kept(), file).toBeUndefined();
    }
  });

  it('builds when a content file is added, removed or touched, or a file of the output changed', () => {
    stamp();
    writeFileSync(join(content, 'topics/b.md'), '---\ntitle: B\n---\nBody.');
    expect(kept(), 'added').toBeUndefined();
    stamp();
    rmSync(join(content, 'topics/b.md'));
    expect(kept(), 'removed').toBeUndefined();
    stamp();
    utimesSync(join(content, 'topics/a.md'), new Date(), new Date(Date.now() + 5_000));
    expect(kept(), 'touched').toBeUndefined();
    stamp();
    writeFileSync(join(out, 'index.html'), '<p>Edited by hand, a different size</p>');
    expect(kept(), 'output edited').toBeUndefined();
    stamp();
    rmSync(join(out, 'index.html'));
    expect(kept(), 'output file deleted').toBeUndefined();
  });
});
