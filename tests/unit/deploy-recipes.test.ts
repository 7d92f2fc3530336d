/**
 * The publishing recipes agree with the project: the GitHub workflows run README's commands on the
 * right Node with the right base, netlify.toml and the nginx snippet use the build's output and the
 * workflow list's addresses and lifetime, and the editor settings map each data file to its schema.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { projectRoot } from '../helpers/cli.ts';
import { projectOptions } from '../../src/cli/project.ts';
import { withBase } from '../../src/model/urls.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const readme = read('README.md');

/** README's set-up command: the first line of the "Set-up" code block, without its comment. */
const SETUP = /## Set-up[^`]*```sh\n([^#\n]+?)\s*#/.exec(readme)![1]!.trim();

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string>; id?: string }
interface Workflow { on: Record<string, unknown>; permissions?: Record<string, string>; jobs: Record<string, { steps: Step[]; needs?: string }> }
const workflow = (name: string) => load(read(`.github/workflows/${name}`)) as Workflow;
const steps = (flow: Workflow) => Object.values(flow.jobs).flatMap((job) => job.steps);

it('README sets up with npm install and npm run build', () => {
  expect(SETUP).toBe('npm install --no-audit --no-fund && npm run build');
});

describe('.github/workflows/validate.yml', () => {
  const flow = workflow('validate.yml');

  it('runs on every pull request', () => {
    expect(Object.keys(flow.on)).toContain('pull_request');
    expect(flow.on.pull_request ?? null).toBeNull(); // no branch or path filter
  });

  it('installs on Node >= 22.12 and pipes npm run validate through the annotation formatter, failing when validate fails', () => {
    const all = steps(flow);
    const node = all.find((step) => step.uses?.startsWith('actions/setup-node@'))!;
    expect(node.with!['node-version-file']).toBe('.nvmrc');
    const [major, minor] = read('.nvmrc').trim().split('.').map(Number);
    expect(major! > 22 || (major === 22 && minor! >= 12)).toBe(true);
    expect(all.some((step) => step.run?.trim() === 'npm install --no-audit --no-fund')).toBe(true);
    const check = all.find((step) => step.run?.includes('validate'))!;
    expect(check.run).toMatch(/set -o pipefail/);
    expect(check.run).toMatch(/npm run --silent validate 2>&1 \| node --experimental-strip-types --no-warnings scripts\/github-annotations\.ts/);
    expect(existsSync(join(projectRoot, 'scripts', 'github-annotations.ts'))).toBe(true);
  });
});

describe('.github/workflows/deploy.yml', () => {
  const flow = workflow('deploy.yml');
  const all = steps(flow);

  it('builds with README commands on the .nvmrc Node, base and site from configure-pages', () => {
    expect(all.find((step) => step.uses?.startsWith('actions/setup-node@'))!.with!['node-version-file']).toBe('.nvmrc');
    const pages = all.find((step) => step.uses?.startsWith('actions/configure-pages@'))!;
    const build = all.find((step) => step.run?.includes('npm run build'))!;
    expect(build.run!.trim()).toBe(SETUP);
    expect(build.env).toEqual({
      TAGSITE_BASE: `\${{ steps.${pages.id}.outputs.base_path }}`,
      TAGSITE_SITE: `\${{ steps.${pages.id}.outputs.origin }}`,
    });
    expect(all.find((step) => step.uses?.startsWith('actions/upload-pages-artifact@'))!.with!.path).toBe('dist');
    expect(all.some((step) => step.uses?.startsWith('actions/deploy-pages@'))).toBe(true);
    expect(flow.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
  });

  it('is honoured by astro.config.mjs: TAGSITE_BASE and TAGSITE_SITE set base and site, empty means the defaults', async () => {
    const load = async (env: Record<string, string>) => {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        const url = `${pathToFileURL(join(projectRoot, 'astro.config.mjs')).href}?${new URLSearchParams(env)}`;
        return ((await import(url)) as { default: { base: string; site: string } }).default;
      } finally {
        process.env = saved;
      }
    };
    expect(await load({ TAGSITE_BASE: '/my-repo', TAGSITE_SITE: 'https://owner.github.io' })).toMatchObject({ base: '/my-repo', site: 'https://owner.github.io' });
    expect(await load({ TAGSITE_BASE: '', TAGSITE_SITE: '' })).toMatchObject({ base: '/', site: 'https://flowsmiths.example' });
  });
});

describe('Netlify, Cloudflare Pages and nginx', () => {
  it('netlify.toml builds with README commands into dist', () => {
    const toml = read('netlify.toml');
    expect(/^\s*command\s*=\s*"(.*)"$/m.exec(toml)![1]).toBe(SETUP);
    expect(/^\s*publish\s*=\s*"(.*)"$/m.exec(toml)![1]).toBe('dist');
    expect(readme).toContain('build output directory `dist`');
  });

  it("README's nginx server block serves dist like the static host and caches both workflow list addresses for cacheSeconds", async () => {
    const { options } = await projectOptions(projectRoot);
    const blocks = [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const server = blocks.find((block) => block.includes('server {'))!;
    expect(server).toMatch(/try_files \$uri \$uri\/ =404;/);
    expect(server).toMatch(/error_page 404 \/404\.html;/);
    for (const path of [options.workflows.primaryUrl, options.workflows.backupUrl]) {
      const rule = new RegExp(`location = ${withBase('/', path).replace(/[.]/g, '\\.')}\\s*\\{ add_header Cache-Control "public, max-age=${options.workflows.cacheSeconds}"; \\}`);
      for (const block of blocks) expect(block).toMatch(rule);
    }
  });
});

describe('.vscode/settings.json', () => {
  const settings = parseJsonc(read('.vscode/settings.json')) as { 'json.schemas': Array<{ fileMatch: string[]; url: string }> };
  const mapped = (file: string) => settings['json.schemas'].find((entry) => entry.fileMatch.some((match) => `/${file}`.endsWith(match)));

  it.each([
    ['content/links.json', (data: any) => data[0].credit = 'no-handle'],
    ['content/members.json', (data: any) => data[0].joined = 'yesterday'],
    ['content/content-types.json', (data: any) => data.categories[0].kind = 'novels'],
  ])('maps %s to the schema that accepts the sample and catches a mistake in it', (file, breakIt) => {
    const entry = mapped(file);
    expect(entry, file).toBeDefined();
    const schemaFile = join(projectRoot, entry!.url);
    expect(existsSync(schemaFile)).toBe(true);
    // Like an editor: the schema alone, with the standard formats.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
    const data = JSON.parse(read(file));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const broken = structuredClone(data);
    breakIt(broken);
    expect(validate(broken)).toBe(false);
  });
});
