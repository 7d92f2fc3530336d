/**
 * The dev loop: with `astro dev` running, adding, editing, renaming and deleting topics and data
 * files shows at the next reload on every page that shows them, without a restart; a content
 * problem shows in the browser as its one-line messages and goes when fixed. Runs a real dev
 * server on 127.0.0.1 in a copy of the project (it watches the copy's content/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { projectRoot } from '../helpers/cli.ts';

const project = join(mkdtempSync(join(tmpdir(), 'tagsite-dev-')), 'project');
const topics = join(project, 'content', 'topics');
let server: ChildProcess;
let origin: string;
let browser: Browser;
let page: Page;
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Loads `path` until `check` holds for the page's text (the watcher needs a moment to see a write);
 * returns the text. A load the dev server's reload message interrupts, or a slow one, is tried again.
 */
async function eventually(path: string, check: (text: string, status: number) => boolean): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (let text = '', status = 0; ; ) {
    try {
      const response = await page.goto(`${origin}${path}`, { waitUntil: 'domcontentloaded', timeout: 15_000 });
      status = response?.status() ?? 0;
      // Astro shows a page's error in Vite's error overlay, drawn in a shadow root.
      text =
        status >= 500
          ? await page.locator('vite-error-overlay').evaluate((overlay) => overlay.shadowRoot?.textContent ?? '', undefined, { timeout: 5000 })
          : await page.locator('body').innerText();
      if (check(text, status)) return text;
    } catch (error) {
      if (!/ERR_ABORTED|interrupted|Timeout/.test(String(error))) throw error;
    }
    if (Date.now() > deadline) throw new Error(`${path} never passed its check (status ${status}):\n${text.slice(0, 2000)}\n--- server output ---\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Ours without the variables Vitest sets for Vite (`BASE_URL` …), which Astro would take as the site's own. */
function devEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  for (const name of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'NODE_ENV', 'VITEST', 'TEST', 'VITEST_MODE', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete env[name];
  return env;
}

const topicText = (title: string, tags: string) => `---\ntitle: ${title}\nauthor: mira\ncreated: 2099-01-05\nforum: help\ntags: [${tags}]\nreplies: 2\n---\nA first post about ${title}.\n`;

beforeAll(async () => {
  for (const part of ['package.json', 'astro.config.mjs', 'tsconfig.json', 'src', 'schemas', 'content']) {
    cpSync(join(projectRoot, part), join(project, part), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [join(projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: project,
    env: devEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${origin}/`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`the dev server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  server?.kill();
  rmSync(join(project, '..'), { recursive: true, force: true });
});

describe('astro dev', () => {
  it('shows a new topic on its page, its new tag page, the tag feed, home and search', async () => {
    // Every route has served a page already: Astro has its paths.
    for (const path of ['/topics/flowsmith-2-9-4-bugfix-release/', '/tags/api/', '/tags/api/rss.xml', '/members/mira/']) expect((await fetch(`${origin}${path}`)).status).toBe(200);
    writeFileSync(join(topics, 'help', 'dev-loop-first.md'), topicText('Dev loop first topic', 'devloop, api'));
    expect(await eventually('/topics/dev-loop-first/', (_, status) => status === 200)).toContain('Dev loop first topic');
    expect(await eventually('/tags/devloop/', (_, status) => status === 200)).toContain('Dev loop first topic');
    await eventually('/tags/api/', (text) => text.includes('Dev loop first topic'));
    await eventually('/', (text) => text.includes('Dev loop first topic'));
    await eventually('/search/', (text) => text.includes('Dev loop first topic'));
    const feed = await (await fetch(`${origin}/tags/devloop/rss.xml`)).text();
    expect(feed).toContain('Dev loop first topic');
    const sitemap = await (await fetch(`${origin}/sitemap-0.xml`)).text();
    expect(sitemap).toContain('<loc>https://flowsmiths.example/topics/dev-loop-first/</loc><lastmod>2099-01-05</lastmod>');
    expect(sitemap).toContain('<loc>https://flowsmiths.example/tags/devloop/</loc>');
    expect(await (await fetch(`${origin}/sitemap-index.xml`)).text()).toContain('<loc>https://flowsmiths.example/sitemap-0.xml</loc>');
  });

  it('shows an edited title everywhere, and a renamed tag under its new name only', async () => {
    writeFileSync(join(topics, 'help', 'dev-loop-first.md'), topicText('Dev loop edited title', 'devlooped, api'));
    await eventually('/topics/dev-loop-first/', (text) => text.includes('Dev loop edited title'));
    await eventually('/tags/api/', (text) => text.includes('Dev loop edited title') && !text.includes('Dev loop first topic'));
    await eventually('/tags/devlooped/', (text, status) => status === 200 && text.includes('Dev loop edited title'));
    await eventually('/tags/devloop/', (_, status) => status === 404);
  });

  it('follows a renamed and a deleted topic file', async () => {
    renameSync(join(topics, 'help', 'dev-loop-first.md'), join(topics, 'help', 'dev-loop-renamed.md'));
    await eventually('/topics/dev-loop-renamed/', (text, status) => status === 200 && text.includes('Dev loop edited title'));
    await eventually('/topics/dev-loop-first/', (_, status) => status === 404);
    rmSync(join(topics, 'help', 'dev-loop-renamed.md'));
    await eventually('/topics/dev-loop-renamed/', (_, status) => status === 404);
    await eventually('/tags/api/', (text) => !text.includes('Dev loop edited title'));
  });

  it('shows a changed data file: a new member on the member pages', async () => {
    const file = join(project, 'content', 'members.json');
    const members = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, string>>;
    writeFileSync(file, JSON.stringify([...members, { name: 'devloopmember', joined: '2026-01-01', group: 'Members' }], null, 2));
    await eventually('/members/', (text) => text.includes('devloopmember'));
    await eventually('/members/devloopmember/', (_, status) => status === 200);
  });

  it('shows a content problem as its one-line message, and the page again once it is fixed', async () => {
    const file = join(topics, 'help', 'dev-loop-broken.md');
    writeFileSync(file, topicText('Broken for a moment', 'api').replace('replies: 2', 'replies: -2'));
    await eventually('/tags/api/', (text) => text.includes('content/topics/help/dev-loop-broken.md:7: replies: must be >= 0, not -2'));
    writeFileSync(file, topicText('Fixed again', 'api'));
    await eventually('/tags/api/', (text, status) => status === 200 && text.includes('Fixed again'));
  });
});
