/**
 * `npm run check-links` (SPEC 6) against a real HTTP lookup service on 127.0.0.1, started here.
 * Each domain name picks a behaviour of the fake service. Every run's output is kept, and the key
 * must appear in none of it — the service even echoes the key back in some replies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runScript, type ScriptResult } from '../helpers/cli.ts';
import { validatorFor } from '../../src/content/schema-validation.ts';
import type { CheckLinksReport } from '../../src/cli/lookup.ts';

const KEY = 'lk_TEST_9f3b2c7e1d';
const outputs: string[] = [];
const requests: URLSearchParams[] = [];
const hits = new Map<string, number>();
let inFlight = 0;
let mostInFlight = 0;
let server: Server;
let lookupUrl: string;
const scratch = mkdtempSync(join(tmpdir(), 'tagsite-check-links-'));

function json(res: ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

function lookupReply(domain: string, expected: string, servers: Array<[string, string, string?]>) {
  return {
    query: { tool: 'propagation_PRO', domain },
    expectedresponse: expected,
    response: { server: servers.map(([location, resultvalue, resultstatus = 'ok']) => ({ location, resultvalue, resultstatus })) },
  };
}

/** The fake lookup service: the first label of the domain picks the behaviour. */
function answer(domain: string, count: number, res: ServerResponse, url: string) {
  const kind = domain.split('.')[0];
  const ip = '203.0.113.7';
  switch (kind) {
    case 'ok':
    case 'slow':
      return setTimeout(() => json(res, lookupReply(domain, ip, [['Berlin, Germany', ip], ['Tokyo, Japan', ip], ['Lima, Peru', ip]])), kind === 'slow' ? 400 : 0);
    case 'mismatch':
      return json(res, lookupReply(domain, ip, [['Berlin, Germany', ip], ['Sydney, Australia', '198.51.100.9'], ['Lima, Peru', ip]]));
    case 'multi':
      return json(res, lookupReply(domain, `${ip} 203.0.113.8  2001:db8::7`, [['Berlin, Germany', ip], ['Tokyo, Japan', '203.0.113.8'], ['Oslo, Norway', '2001:DB8::7']]));
    case 'fail':
      return json(res, lookupReply(domain, ip, [['Berlin, Germany', ip], ['Nairobi, Kenya', '', 'fail']]));
    case 'quota':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end(`API quota exceeded for key ${KEY}. Upgrade your plan.`);
    case 'malformed':
      return json(res, '{"query": {"tool": "propagation", "domain": ');
    case 'schema':
      return json(res, { query: { tool: 't', domain }, expectedresponse: ip, response: { servers: [] } });
    case 'flaky':
      return count === 1 ? res.writeHead(500).end('temporary failure') : json(res, lookupReply(domain, ip, [['Berlin, Germany', ip]]));
    case 'down':
      return res.writeHead(503).end('maintenance');
    case 'denied':
      // An error page that quotes the request, key and all.
      return res.writeHead(403, { 'content-type': 'text/plain' }).end(`Forbidden: ${url}`);
    case 'hang':
      return; // never answers
    default:
      return res.writeHead(404).end('unknown domain');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.searchParams);
    const domain = url.searchParams.get('domain') ?? '';
    const count = (hits.get(domain) ?? 0) + 1;
    hits.set(domain, count);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    res.on('close', () => inFlight--);
    answer(domain, count, res, `${url.pathname}${url.search}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  lookupUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/propagation/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
  // Whatever happened above, the key was never shown.
  for (const output of outputs) expect(output).not.toContain(KEY);
});

async function check(args: string[], env: Record<string, string | undefined> = {}): Promise<ScriptResult> {
  const result = await runScript('check-links', ['--retry-delay-ms', '10', ...args], { LOOKUP_API_KEY: KEY, LOOKUP_URL: lookupUrl, ...env });
  outputs.push(result.stdout, result.stderr);
  expect(result.stdout + result.stderr).not.toContain(KEY);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return result;
}

async function checkJson(domain: string, extra: string[] = []): Promise<{ result: ScriptResult; report: CheckLinksReport }> {
  const result = await check(['--domain', domain, '--json', ...extra]);
  const report = JSON.parse(result.stdout) as CheckLinksReport;
  const validate = validatorFor('checkLinksReport');
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  return { result, report };
}

describe('one domain at a time', () => {
  it('all servers ok: exit 0, a table row saying so, and the request as SPEC 6 writes it', async () => {
    const before = requests.length;
    const result = await check(['--domain', 'ok.example']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^ok\.example\s+ok\s+3 servers returned 203\.0\.113\.7$/m);
    expect(result.stdout).toContain('1 domain checked with http://127.0.0.1:');
    const asked = requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]!)).toEqual({ domain: 'ok.example', apikey: KEY, output: 'json' });
  });

  it('one mismatching location is reported by its location, exit 1', async () => {
    const { result, report } = await checkJson('mismatch.example');
    expect(result.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.domains).toEqual([
      {
        domain: 'mismatch.example',
        status: 'problems',
        expected: ['203.0.113.7'],
        servers: 3,
        problems: [{ location: 'Sydney, Australia', resultvalue: '198.51.100.9', resultstatus: 'ok', message: 'returned 198.51.100.9, expected 203.0.113.7' }],
        error: '',
      },
    ]);
    const table = await check(['--domain', 'mismatch.example']);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^mismatch\.example\s+problems\s+1 of 3 servers wrong \(expected 203\.0\.113\.7\)$/m);
    expect(table.stdout).toMatch(/^\s+- Sydney, Australia: returned 198\.51\.100\.9, expected 203\.0\.113\.7$/m);
  });

  it('several expected addresses: any of them is fine', async () => {
    const { result, report } = await checkJson('multi.example');
    expect(result.code).toBe(0);
    expect(report.domains[0]).toMatchObject({ status: 'ok', expected: ['203.0.113.7', '203.0.113.8', '2001:db8::7'], servers: 3, problems: [] });
  });

  it('a server with status fail is reported with its location', async () => {
    const { result, report } = await checkJson('fail.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]!.problems).toEqual([{ location: 'Nairobi, Kenya', resultvalue: '', resultstatus: 'fail', message: 'status "fail", not "ok"' }]);
  });

  it('a plain-text quota reply is a clear error (its text, which repeats the key, is not shown)', async () => {
    const { result, report } = await checkJson('quota.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]).toMatchObject({ status: 'error', servers: 0, problems: [] });
    expect(report.domains[0]!.error).toBe('the reply is not JSON: (its text is not shown: it repeats the API key)');
  });

  it('malformed JSON is a clear error', async () => {
    const { result, report } = await checkJson('malformed.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toMatch(/^the reply is not JSON: "\{\\"query\\": /);
  });

  it('a reply of another shape is a schema mismatch naming the field', async () => {
    const { result, report } = await checkJson('schema.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toBe('the reply does not match schemas/lookup-response.schema.json: response.server: is required');
  });

  it('a 500 then ok: retried, and ok', async () => {
    const { result, report } = await checkJson('flaky.example');
    expect(result.code).toBe(0);
    expect(report.domains[0]!.status).toBe('ok');
    expect(hits.get('flaky.example')).toBe(2);
  });

  it('a 5xx that persists: two retries, then an HTTP error', async () => {
    const { result, report } = await checkJson('down.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toBe('the lookup service answered HTTP 503 (after 3 attempts): "maintenance"');
    expect(hits.get('down.example')).toBe(3);
  });

  it('an HTTP error page quoting the request gives the status only', async () => {
    const { result, report } = await checkJson('denied.example');
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toBe('the lookup service answered HTTP 403: (its text is not shown: it repeats the API key)');
  });

  it.each([['one character', 'e'], ['one character (k)', 'k'], ['a hundred characters', 'x'.repeat(99) + 'Q']])(
    'with a key of %s, --json is the documented JSON and the table reads as written',
    async (_name, key) => {
      const env = { LOOKUP_API_KEY: key, LOOKUP_URL: lookupUrl };
      const json = await runScript('check-links', ['--domain', 'ok.example', '--json'], env);
      expect(json.code, json.stderr).toBe(0);
      const report = JSON.parse(json.stdout) as CheckLinksReport;
      const validate = validatorFor('checkLinksReport');
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
      expect(Object.keys(report)).toEqual(['ok', 'lookupUrl', 'domains']);
      expect(report.lookupUrl).toBe(lookupUrl);
      const table = await runScript('check-links', ['--domain', 'ok.example'], env);
      expect(table.stdout).toMatch(/^domain\s+result\s+detail$/m);
      expect(table.stdout).not.toContain('***');
      if (key.length > 1) expect(json.stdout + json.stderr + table.stdout + table.stderr).not.toContain(key);
    },
  );

  it('a hanging reply times out (per request, no retry) and the run still ends', async () => {
    const started = Date.now();
    const { result, report } = await checkJson('hang.example', ['--timeout-ms', '1500']);
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toBe('no complete reply within 1500 ms (timed out)');
    // The timer also covers starting the HTTP client, so on a loaded machine the request may not
    // have arrived yet; what matters is that a timeout is not retried.
    expect(hits.get('hang.example') ?? 0).toBeLessThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('an unreachable service is a clear error', async () => {
    const { result, report } = await checkJson('ok.example', ['--lookup-url', 'http://127.0.0.1:9/']);
    expect(result.code).toBe(1);
    expect(report.domains[0]!.error).toMatch(/^could not reach the lookup service \(\w+/);
  });
});

describe('the domains of links.json', () => {
  it('checks each distinct domain once, at most 4 at a time, and reports every one', async () => {
    const content = join(scratch, 'content');
    const kinds = ['ok', 'slow', 'mismatch', 'multi', 'fail', 'quota', 'malformed', 'schema'];
    const records = [...kinds, 'ok', 'slow'].map((kind, i) => ({
      name: `Tool ${i}`,
      description: 'Docs.',
      tags: ['api'],
      link: `https://${kind}.links.example/docs/${i}`,
      timestamp: '2024-05-01',
      credit: 'sam@flowsmiths',
    }));
    mkdirSync(content, { recursive: true });
    writeFileSync(join(content, 'links.json'), `${JSON.stringify(records, null, 2)}\n`);
    const before = requests.length;
    mostInFlight = 0;
    const result = await check(['--content', content]);
    expect(result.code).toBe(1);
    const asked = requests.slice(before).map((params) => params.get('domain'));
    expect(asked.sort()).toEqual(kinds.map((kind) => `${kind}.links.example`).sort());
    expect(mostInFlight).toBeLessThanOrEqual(4);
    expect(mostInFlight).toBeGreaterThan(1);
    const rows = result.stdout.split('\n');
    // Rows in the order of links.json.
    expect(rows.filter((row) => /^\S+\.links\.example\s/.test(row)).map((row) => row.split(/\s+/)[0])).toEqual(kinds.map((kind) => `${kind}.links.example`));
    expect(result.stdout).toContain('8 domains checked with http://127.0.0.1:');
    expect(result.stdout).toContain(': 3 ok, 2 with server problems, 3 not checked (errors).');
    expect(readFileSync(join(content, 'links.json'), 'utf8')).toBe(`${JSON.stringify(records, null, 2)}\n`);
  });
});

describe('set-up and arguments', () => {
  it('without LOOKUP_API_KEY: a clear message, exit 2, no request', async () => {
    const before = requests.length;
    const result = await check(['--domain', 'ok.example'], { LOOKUP_API_KEY: undefined });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^check-links: LOOKUP_API_KEY: is not set\./);
    expect(result.stdout).toBe('');
    expect(requests.length).toBe(before);
    const empty = await check(['--domain', 'ok.example'], { LOOKUP_API_KEY: '' });
    expect(empty.code).toBe(2);
  });

  it('--lookup-url wins over LOOKUP_URL, which wins over the option', async () => {
    const flag = await check(['--domain', 'ok.example', '--lookup-url', lookupUrl], { LOOKUP_URL: 'http://127.0.0.1:9/' });
    expect(flag.code).toBe(0);
    const env = await check(['--domain', 'ok.example', '--timeout-ms', '2000'], { LOOKUP_URL: 'http://127.0.0.1:9/' });
    expect(env.code).toBe(1);
    expect(env.stdout).toContain('with http://127.0.0.1:9/');
    // Without either, the address comes from astro.config.mjs (the sample's lookup.example, unreachable here).
    const option = await check(['--domain', 'ok.example', '--json', '--timeout-ms', '2000'], { LOOKUP_URL: undefined });
    expect(JSON.parse(option.stdout).lookupUrl).toBe('https://lookup.example/api/dns');
  });

  it('bad arguments are one-line errors, exit 1, before any request', async () => {
    const before = requests.length;
    const cases: Array<[string[], RegExp]> = [
      [['--domain', 'http://ok.example/'], /^check-links: --domain: "http:\/\/ok\.example\/" is not a domain name/m],
      [['--timeout-ms', '0'], /^check-links: --timeout-ms: must be a whole number of milliseconds from 1 to 600000, not "0"$/m],
      [['--timeout-ms', 'soon'], /^check-links: --timeout-ms: must be a whole number/m],
      [['--lookup-url', 'ftp://x.example/'], /^check-links: --lookup-url: "ftp:\/\/x\.example\/" is not an http or https address$/m],
      [['--verbose'], /^check-links: --verbose: unknown option/m],
    ];
    for (const [args, line] of cases) {
      const result = await check(['--domain', 'ok.example', ...args].slice(args[0] === '--domain' ? 2 : 0));
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(line);
    }
    const badEnv = await check(['--domain', 'ok.example'], { LOOKUP_URL: 'lookup.example' });
    expect(badEnv.stderr).toMatch(/^check-links: LOOKUP_URL: "lookup\.example" is not an http or https address$/m);
    expect(requests.length).toBe(before);
  });

  it('shows a progress line only when stderr is a terminal', async () => {
    const piped = await check(['--domain', 'ok.example']);
    expect(piped.stderr).toBe('');
    // Preloaded: stderr claims to be a terminal, as it is when a person runs the command.
    const hook = join(scratch, 'stderr-is-a-terminal.mjs');
    writeFileSync(hook, "Object.defineProperty(process.stderr, 'isTTY', { value: true });\n");
    const terminal = await check(['--domain', 'ok.example'], { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}` });
    expect(terminal.code).toBe(0);
    expect(terminal.stderr).toContain('\rchecking 1 domain: 0 done');
    expect(terminal.stderr).toContain('\rchecking 1 domain: 1 done');
    // The line is cleared before the report, which stays on stdout, unchanged.
    expect(terminal.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(terminal.stdout).toBe(piped.stdout);
  });

  it('a missing links.json is a one-line error', async () => {
    const result = await check(['--content', join(scratch, 'nowhere')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nowhere\/links\.json: \(file\): the file is missing \(or give --domain\)/);
  });
});
