/**
 * Hugo beside tagsite: the same topic files built by Debian's `hugo` into the equivalent pages (one
 * a topic, one a tag with 25 entries a page, a tag index; no search, feeds or member pages), so
 * the bench can print both clean builds and their ratio. Only when `hugo` is installed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runMeasured, type BuildRun } from './site.ts';

/** Hugo's version line, or undefined when `hugo` is not installed. */
export function hugoVersion(): string | undefined {
  const result = spawnSync('hugo', ['version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().split(' ').slice(0, 2).join(' ') : undefined;
}

const CONFIG = `baseURL = "https://flowsmiths.example/"
title = "Flowsmiths Community"
disableKinds = ["RSS", "sitemap", "robotsTXT", "404", "section"]
paginate = 25
[taxonomies]
  tag = "tags"
[frontmatter]
  date = ["created", ":default"]
  lastmod = ["updated", ":default"]
[permalinks]
  topics = "/topics/:filename/"
`;

const BASE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><header><a href="{{ "/" | relURL }}">Flowsmiths Community</a> <a href="{{ "/tags/" | relURL }}">Tags</a></header>
<main>{{ block "main" . }}{{ end }}</main></body></html>
`;

const SINGLE = `{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>{{ .Params.author }} · <time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 Jan 2006" }}</time> · {{ .Params.replies }} replies</p>
{{ .Content }}
<ul>{{ range .Params.tags }}<li><a href="{{ "/tags/" | relURL }}{{ . | urlize }}/">{{ . }}</a></li>{{ end }}</ul></article>{{ end }}
`;

/** A tag's page (and the home and section lists): 25 entries a page, each as a listing entry. */
const LIST = `{{ define "main" }}<h1>{{ .Title }}</h1><ol>
{{ range (.Paginate .Pages).Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a><p>{{ .Summary | plainify | truncate 200 }}</p>
<p>{{ .Params.author }} · {{ .Date.Format "2 Jan 2006" }} · {{ .Params.replies }} replies</p></li>{{ end }}</ol>
{{ template "_internal/pagination.html" . }}{{ end }}
`;

const TERMS = `{{ define "main" }}<h1>Tags</h1><ul>
{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul>{{ end }}
`;

/** Every Markdown file under `dir`. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Writes a Hugo site in `dir` whose pages are the corpus's topics (`corpusDir`/topics), front matter and bodies as they are. */
export function writeHugoSite(dir: string, corpusDir: string): number {
  rmSync(dir, { recursive: true, force: true });
  const topics = join(dir, 'content', 'topics');
  mkdirSync(topics, { recursive: true });
  const files = markdownFiles(join(corpusDir, 'topics'));
  for (const file of files) copyFileSync(file, join(topics, basename(file)));
  const layouts = join(dir, 'layouts', '_default');
  mkdirSync(layouts, { recursive: true });
  writeFileSync(join(dir, 'hugo.toml'), CONFIG);
  writeFileSync(join(layouts, 'baseof.html'), BASE);
  writeFileSync(join(layouts, 'single.html'), SINGLE);
  writeFileSync(join(layouts, 'list.html'), LIST);
  writeFileSync(join(layouts, 'terms.html'), TERMS);
  return files.length;
}

/** A clean Hugo build of the site in `dir` (its output and caches removed first), timed, with its peak memory. */
export function hugoBuild(dir: string, timeoutMs: number): Promise<BuildRun> {
  for (const output of ['public', 'resources']) rmSync(join(dir, output), { recursive: true, force: true });
  return runMeasured('hugo', ['--quiet', '--cacheDir', join(dir, '.hugo-cache'), '--ignoreCache'], dir, timeoutMs);
}
