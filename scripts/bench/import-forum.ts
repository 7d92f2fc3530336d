/**
 * The forum import's speed: `node --experimental-strip-types --no-warnings scripts/bench/import-forum.ts
 * [--topics 10000] [--concurrency 4] [--from ips|discourse]` starts the tests' fake forum on 127.0.0.1
 * with that many topics, runs `npm run import-forum` into a new temporary content folder exactly as a
 * user would (a child process), and prints the time, the requests, the topics a second, and the time
 * the HTML conversion alone takes for the same first posts. The target: 10,000 topics under a minute.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, printProblems, projectRoot } from '../../src/cli/project.ts';
import { postMarkdown } from '../../src/import/post-markdown.ts';
import { fakeTopics, startFakeDiscourse, startFakeIps } from '../../tests/helpers/fake-forums.ts';

const { values, problems } = parseArgs(process.argv.slice(2), { topics: 'string', concurrency: 'string', from: 'string' }, 'bench/import-forum');
const topics = Number(values.topics ?? 10_000);
const concurrency = String(values.concurrency ?? 4);
const from = String(values.from ?? 'ips');
if (!Number.isInteger(topics) || topics < 1 || topics > 1_000_000) problems.push({ file: 'bench/import-forum', field: '--topics', message: 'expected a whole number from 1 to 1000000' });
if (from !== 'ips' && from !== 'discourse') problems.push({ file: 'bench/import-forum', field: '--from', message: 'expected ips or discourse' });
if (problems.length > 0) {
  printProblems(problems);
  process.exit(1);
}

const KEY = 'bench-key-not-secret';
const server = from === 'ips' ? await startFakeIps({ topics, key: KEY }) : await startFakeDiscourse({ topics, key: KEY });
const work = mkdtempSync(join(tmpdir(), 'tagsite-import-bench-'));
const content = join(work, 'content');
const args = ['--experimental-strip-types', '--no-warnings', 'scripts/import-forum.ts', '--from', from, '--url', server.url, '--content', content, '--concurrency', concurrency];
const env = { ...process.env, IPS_API_KEY: KEY, DISCOURSE_API_KEY: KEY, DISCOURSE_API_USERNAME: 'importer' };
const started = performance.now();
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, args, { cwd: projectRoot(), env, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('close', resolve);
});
const seconds = (performance.now() - started) / 1000;
const written = readdirSync(join(content, 'topics'), { recursive: true }).filter((name) => String(name).endsWith('.md')).length;
await server.close();

// The conversion alone, in this process, on the same first posts.
const posts = fakeTopics(topics).map((topic) => topic.html);
const convertStart = performance.now();
for (const html of posts) postMarkdown(html, server.url);
const convertSeconds = (performance.now() - convertStart) / 1000;
rmSync(work, { recursive: true, force: true });

console.log(`import-forum --from ${from}: ${topics.toLocaleString('en')} topics from the local fake server, ${concurrency} requests at once`);
console.log(`  ${written.toLocaleString('en')} topic files written in ${seconds.toFixed(1)} s (${Math.round(written / seconds).toLocaleString('en')} topics/s, command start-up included; exit ${code})`);
console.log(`  ${server.requests.length.toLocaleString('en')} requests; HTML → Markdown of the ${topics.toLocaleString('en')} first posts alone: ${convertSeconds.toFixed(1)} s`);
console.log(`  target: under 60 s for 10,000 topics — ${seconds < 60 * (topics / 10_000) ? 'met' : 'NOT met'}`);
process.exit(code === 0 && written > 0 ? 0 : 1);
