// What makes `npm run build` keep the last output (src/build/unchanged.ts): the same code, config,
// settings and Node, the same content files and the output as that build left it.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { folderFiles, folderListing } from '../../src/build/folder-files.ts';
import { endOutputChecks } from '../../src/build/output-check.ts';
import { buildInputs, contentListing, contentListingInThread, contentStamp, stampBuild, stampedOutput, unchangedOutput } from '../../src/build/unchanged.ts';

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
  const stamp = () => stampBuild(root, content, out, buildInputs(root, undefined, env), contentStamp(contentListing(content)), out, folderListing(out));
  const kept = (environment: NodeJS.ProcessEnv = env) => unchangedOutput(root, content, out, buildInputs(root, undefined, environment));

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

  it('builds when anything is added to the content or the output, however deep, with no file the last build noted changed', () => {
    mkdirSync(join(content, 'topics/drafts'), { recursive: true });
    mkdirSync(join(out, 'tags/api'), { recursive: true });
    writeFileSync(join(out, 'tags/api/index.html'), '<p>API</p>');
    stamp();
    expect(kept(), 'as stamped').toBe(out);
    writeFileSync(join(content, 'topics/drafts/c.md'), '---\ntitle: C\n---\nBody.');
    expect(kept(), 'a topic in a folder that was empty').toBeUndefined();
    rmSync(join(content, 'topics/drafts/c.md'));
    stamp();
    writeFileSync(join(out, 'stray.html'), '<p>Not built</p>');
    expect(kept(), 'a stray file in the output').toBeUndefined();
    rmSync(join(out, 'stray.html'));
    stamp();
    mkdirSync(join(out, 'tags/api/old'));
    writeFileSync(join(out, 'tags/api/old/index.html'), '<p>Old</p>');
    expect(kept(), 'a new folder deep in the output').toBeUndefined();
    rmSync(join(out, 'tags/api/old'), { recursive: true });
    stamp();
    rmSync(join(out, 'tags/api/index.html'));
    writeFileSync(join(out, 'tags/api/index.html'), '<p>API</p>');
    expect(kept(), 'a file deleted and written again with the same bytes').toBeUndefined();
  });

  it('builds after a stamp of another form (an older version of the check)', () => {
    stamp();
    const file = join(root, '.tagsite-build/cache');
    const stampPath = folderFiles(file).map(([path]) => join(file, path)).find((path) => path.endsWith('stamp.json'))!;
    const { contentFolders: _content, folders: _output, ...older } = JSON.parse(readFileSync(stampPath, 'utf8'));
    writeFileSync(stampPath, JSON.stringify(older));
    expect(kept()).toBeUndefined();
    stamp();
    const whole = JSON.parse(readFileSync(stampPath, 'utf8'));
    writeFileSync(stampPath, JSON.stringify({ ...whole, files: whole.files.map(() => 0) }));
    expect(kept(), 'file entries of another form').toBeUndefined();
  });
});

describe('the output a content rebuild may update in place', () => {
  it('is the output the last build stamped, checked file by file in a thread: none once a file of it was edited, added or taken away', async () => {
    const dir = join(root, 'in-place');
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    for (const [file, text] of [['content/topics/a.md', '---\ntitle: A\n---\nBody.'], ['dist/index.html', '<p>Built</p>'], ['dist/tags/api/index.html', '<p>API</p>']] as const) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const inputs = buildInputs(root, undefined, {});
    const stamp = () => stampBuild(root, content, out, inputs, contentStamp(contentListing(content)), out, folderListing(out));
    expect(await contentListingInThread(content), 'the listing a thread takes').toEqual(contentListing(content));
    expect(await stampedOutput(root, content, out, inputs), 'no build stamped yet').toBeUndefined();
    stamp();
    const found = await stampedOutput(root, content, out, inputs);
    const folders = ['', 'tags', 'tags/api'];
    expect(found).toEqual({ outDir: out, files: folderListing(out).files, folders, folderTimes: new Map(folders.map((name) => [name, statSync(join(out, name)).mtimeMs])) });
    expect(await stampedOutput(root, content, out, `${inputs}-other`), 'another code or config').toBeUndefined();
    // Edited in place: same folder times, another size.
    writeFileSync(join(out, 'tags/api/index.html'), '<p>API, edited</p>');
    expect(await stampedOutput(root, content, out, inputs)).toBeUndefined();
    stamp();
    // The same size, another time.
    writeFileSync(join(out, 'index.html'), '<p>Bui1t</p>');
    utimesSync(join(out, 'index.html'), new Date('2020-01-01'), new Date('2020-01-01'));
    expect(await stampedOutput(root, content, out, inputs)).toBeUndefined();
    stamp();
    writeFileSync(join(out, 'tags/extra.html'), 'extra');
    expect(await stampedOutput(root, content, out, inputs)).toBeUndefined();
    stamp();
    rmSync(join(out, 'tags/api'), { recursive: true });
    expect(await stampedOutput(root, content, out, inputs)).toBeUndefined();
    stamp();
    expect(await stampedOutput(root, content, out, inputs)).toBeDefined();
    // Jobs sent to the thread together each get their own answer.
    const [listed, checked, other] = await Promise.all([contentListingInThread(content), stampedOutput(root, content, out, inputs), stampedOutput(root, content, join(dir, 'elsewhere'), inputs)]);
    expect(listed).toEqual(contentListing(content));
    expect(checked?.outDir).toBe(out);
    expect(other).toBeUndefined();
  });

  it('is checked by a thread that a build ends when it needs it no more, after the jobs it has; a later job starts another', async () => {
    const dir = join(root, 'checks-ended');
    const content = join(dir, 'content');
    mkdirSync(join(content, 'topics'), { recursive: true });
    writeFileSync(join(content, 'topics/a.md'), '---\ntitle: A\n---\nBody.');
    const waiting = contentListingInThread(content);
    const ended = endOutputChecks();
    expect(await waiting, 'the job sent before').toEqual(contentListing(content));
    // Resolves only once the thread has exited (the test times out otherwise).
    await ended;
    expect(await contentListingInThread(content), 'a job after').toEqual(contentListing(content));
    await endOutputChecks();
    await endOutputChecks(); // no thread: nothing to end
  });
});

describe('the no-change check', () => {
  it("loads none of the feed writer's packages: `npm run build` with nothing changed starts in a fraction of a second", () => {
    const hooks = join(root, 'modules.mjs');
    writeFileSync(hooks, [
      "import { registerHooks } from 'node:module';",
      'const loaded = new Set();',
      'registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); loaded.add(found.url); return found; } });',
      "process.on('exit', () => console.log(JSON.stringify([...loaded])));",
    ].join('\n'));
    const script = pathToFileURL(resolve('src/build/unchanged.ts')).href;
    const loaded = JSON.parse(execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', '--import', pathToFileURL(hooks).href, '--input-type=module', '-e', `await import(${JSON.stringify(script)});`], { encoding: 'utf8' })) as string[];
    expect(loaded.some((url) => url.endsWith('/src/build/folder-files.ts')), 'the check itself was loaded').toBe(true);
    expect(loaded.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  });
});

describe('the files of a folder', () => {
  it('are listed with every folder within: nested, empty and linked folders (followed), no links to files, in path order', () => {
    const dir = join(root, 'listed');
    for (const [file, text] of [['b.txt', 'bb'], ['a/z/deep.html', '<p>deep</p>'], ['a/1.json', '{}'], ['a b/ü.txt', 'ü']] as const) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    mkdirSync(join(dir, 'empty'));
    symlinkSync(join(dir, 'b.txt'), join(dir, 'link.txt'));
    symlinkSync(join(dir, 'a'), join(dir, 'linked'));
    const { files, folders } = folderListing(dir);
    expect(files.map(([path, size]) => [path, size])).toEqual([['a b/ü.txt', 2], ['a/1.json', 2], ['a/z/deep.html', 11], ['b.txt', 2], ['linked/1.json', 2], ['linked/z/deep.html', 11]]);
    expect(folders).toEqual(['', 'a', 'a b', 'a/z', 'empty', 'linked', 'linked/z']);
    expect(folderFiles(dir)).toEqual(files);
    expect(folderListing(join(root, 'not-there'))).toEqual({ files: [], folders: [] });
  });

  it('are the same listed by a relative path or as the working folder, with stamps under the paths `join` gives', () => {
    const dir = join(root, 'listed-relative');
    for (const file of ['b.txt', 'a/z/deep.html']) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), file);
    }
    const stamped = (folder: string) => {
      const stamps = new Map<string, string>();
      const { files, folders } = folderListing(folder, undefined, stamps);
      return { files, folders, stamps: [...stamps.keys()].sort() };
    };
    const whole = stamped(dir);
    expect(whole.stamps).toEqual(whole.files.map(([path]) => join(dir, path)));
    const relativeDir = relative(process.cwd(), dir);
    expect(stamped(relativeDir)).toEqual({ ...whole, stamps: whole.files.map(([path]) => join(relativeDir, path)) });
    // `.`, in a process of its own (a test thread cannot change its working folder).
    const script = `const { folderListing } = await import(${JSON.stringify(pathToFileURL(resolve('src/build/folder-files.ts')).href)}); const stamps = new Map(); const { files, folders } = folderListing('.', undefined, stamps); console.log(JSON.stringify({ files, folders, stamps: [...stamps.keys()].sort() }));`;
    const here = JSON.parse(execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', '--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' })) as unknown;
    expect(here).toEqual({ ...whole, stamps: whole.files.map(([path]) => path) });
  });
});
