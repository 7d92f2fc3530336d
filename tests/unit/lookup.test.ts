/** SPEC 6 without the network: request address, reply judging, the key never shown, report; and the client with a fake fetch. */
import { describe, expect, it } from 'vitest';
import {
  addressesOf,
  checkReport,
  isDomainName,
  judgeReply,
  linkDomains,
  lookupRequestUrl,
  repeatsKey,
  reportTable,
  shownLookupUrl,
} from '../../src/cli/lookup.ts';
import { askLookup, mapWithLimit } from '../../src/cli/lookup-client.ts';
import { validatorFor } from '../../src/content/schema-validation.ts';

const KEY = 'k3y/with+odd chars&=';

function reply(expected: string, servers: Array<[string, string, string]>, domain = 'docs.example') {
  return {
    kind: 'reply' as const,
    status: 200,
    body: JSON.stringify({
      query: { tool: 'propagation', domain },
      expectedresponse: expected,
      response: { server: servers.map(([location, resultvalue, resultstatus]) => ({ location, resultvalue, resultstatus })) },
    }),
  };
}

describe('which domains, and the request', () => {
  it('takes each distinct domain of the records once, lower case, in first-seen order', () => {
    const links = [
      { link: 'https://Docs.Example/a' },
      { link: 'http://api.other.test:8080/b?x=1' },
      { link: 'https://docs.example/c' },
    ];
    expect(linkDomains(links)).toEqual(['docs.example', 'api.other.test']);
  });

  it('accepts host names and refuses anything else as --domain', () => {
    for (const good of ['example.com', 'a-b.c-d.example', 'localhost', 'EXAMPLE.org']) expect(isDomainName(good), good).toBe(true);
    for (const bad of ['', 'http://example.com', 'exa mple.com', '-a.com', 'a..com', 'a.com/x', 'a.com?apikey=1']) expect(isDomainName(bad), bad).toBe(false);
  });

  it('asks GET {url}?domain=…&apikey=…&output=json, keeping a query already in the address', () => {
    const url = new URL(lookupRequestUrl('https://lookup.example/api/dns?v=2', 'docs.example', KEY));
    expect(url.origin + url.pathname).toBe('https://lookup.example/api/dns');
    expect(url.searchParams.get('v')).toBe('2');
    expect(url.searchParams.get('domain')).toBe('docs.example');
    expect(url.searchParams.get('apikey')).toBe(KEY);
    expect(url.searchParams.get('output')).toBe('json');
  });

  it('shows the lookup address without its query or user info', () => {
    expect(shownLookupUrl('https://user:pw@lookup.example/api/dns?apikey=x')).toBe('https://lookup.example/api/dns');
  });
});

describe('the key is never shown', () => {
  it('finds the key in every encoding a URL or message may hold it', () => {
    const request = lookupRequestUrl('https://lookup.example/', 'a.example', KEY);
    expect(repeatsKey(`url ${request}`, KEY)).toBe(true);
    expect(repeatsKey(`encoded ${encodeURIComponent(KEY)}`, KEY)).toBe(true);
    expect(repeatsKey(`json ${JSON.stringify({ k: KEY })}`, KEY)).toBe(true);
    expect(repeatsKey('nothing here', KEY)).toBe(false);
  });

  it('a reply repeating the key is judged without its text; other text is quoted unchanged', () => {
    const key = 'se"cr\\et!';
    const check = judgeReply('a.example', { kind: 'reply', status: 200, body: `quota used up for ${key}` }, key);
    expect(check.error).toBe('the reply is not JSON: (its text is not shown: it repeats the API key)');
    const denied = judgeReply('a.example', { kind: 'reply', status: 403, body: `Forbidden: /?apikey=${encodeURIComponent(key)}` }, key);
    expect(denied.error).toBe('the lookup service answered HTTP 403: (its text is not shown: it repeats the API key)');
    // A one-letter key changes nothing else: no text is edited.
    expect(judgeReply('a.example', { kind: 'reply', status: 200, body: 'result detail' }, 'z').error).toBe('the reply is not JSON: "result detail"');
    const echoing = reply('203.0.113.7', [[`Berlin ${key}`, '203.0.113.7', 'ok']], 'a.example');
    expect(judgeReply('a.example', echoing, key).error).toBe('the reply repeats the API key, so its text is not shown');
  });
});

describe('judging a reply', () => {
  it('is ok when every server returns the expected address', () => {
    const check = judgeReply('docs.example', reply('93.184.216.34', [['Berlin, Germany', '93.184.216.34', 'ok'], ['Tokyo, Japan', '93.184.216.34', 'ok']]));
    expect(check).toEqual({ domain: 'docs.example', status: 'ok', expected: ['93.184.216.34'], servers: 2, problems: [], error: '' });
  });

  it('reports a server with an unexpected address by its location', () => {
    const check = judgeReply('docs.example', reply('1.1.1.1', [['Berlin', '1.1.1.1', 'ok'], ['Sydney, Australia', '6.6.6.6', 'ok']]));
    expect(check.status).toBe('problems');
    expect(check.problems).toEqual([
      { location: 'Sydney, Australia', resultvalue: '6.6.6.6', resultstatus: 'ok', message: 'returned 6.6.6.6, expected 1.1.1.1' },
    ]);
  });

  it('accepts any of several space-separated expected addresses, and several returned ones when all are expected', () => {
    const check = judgeReply('docs.example', reply('1.1.1.1  2.2.2.2 2001:DB8::1', [
      ['A', '1.1.1.1', 'ok'],
      ['B', '2.2.2.2', 'ok'],
      ['C', '2001:db8::1', 'ok'],
      ['D', '2.2.2.2 1.1.1.1', 'ok'],
    ]));
    expect(check.status).toBe('ok');
    expect(check.expected).toEqual(['1.1.1.1', '2.2.2.2', '2001:db8::1']);
    const mixed = judgeReply('docs.example', reply('1.1.1.1 2.2.2.2', [['E', '1.1.1.1 3.3.3.3', 'ok']]));
    expect(mixed.problems[0]!.message).toBe('returned 3.3.3.3, expected 1.1.1.1 or 2.2.2.2');
  });

  it('reports a status other than ok, even with the right address, and an empty answer', () => {
    const check = judgeReply('docs.example', reply('1.1.1.1', [['Paris', '1.1.1.1', 'fail'], ['Lima', '', 'ok'], ['Oslo', '1.1.1.1', 'OK']]));
    expect(check.problems.map((p) => [p.location, p.message])).toEqual([
      ['Paris', 'status "fail", not "ok"'],
      ['Lima', 'returned no address'],
    ]);
  });

  it('makes a plain-text reply, malformed JSON, an HTTP error or a schema mismatch a clear error', () => {
    const quota = judgeReply('d.example', { kind: 'reply', status: 200, body: 'You have exceeded your daily API quota.\n' });
    expect(quota).toMatchObject({ status: 'error', servers: 0, problems: [] });
    expect(quota.error).toBe('the reply is not JSON: "You have exceeded your daily API quota."');
    expect(judgeReply('d.example', { kind: 'reply', status: 200, body: '{"query": {' }).error).toMatch(/^the reply is not JSON: /);
    expect(judgeReply('d.example', { kind: 'reply', status: 200, body: '' }).error).toBe('the reply is not JSON: (empty)');
    expect(judgeReply('d.example', { kind: 'reply', status: 503, body: 'busy', attempts: 3 }).error).toBe(
      'the lookup service answered HTTP 503 (after 3 attempts): "busy"',
    );
    const mismatch = judgeReply('d.example', { kind: 'reply', status: 200, body: JSON.stringify({ query: { tool: 't', domain: 'd.example' }, expectedresponse: '1.1.1.1', response: { server: [{ location: 'X', resultvalue: 1 }] } }) });
    expect(mismatch.status).toBe('error');
    expect(mismatch.error).toContain('does not match schemas/lookup-response.schema.json');
    expect(mismatch.error).toContain('response.server[0].resultvalue: must be a string');
    expect(mismatch.error).toContain('response.server[0].resultstatus: is required');
    const empty = judgeReply('d.example', reply('1.1.1.1', []));
    expect(empty.error).toContain('response.server');
    expect(judgeReply('d.example', { kind: 'failure', message: 'no complete reply within 5 ms (timed out)' }).error).toBe('no complete reply within 5 ms (timed out)');
  });

  it('refuses a reply about another domain', () => {
    const check = judgeReply('docs.example', reply('1.1.1.1', [['A', '1.1.1.1', 'ok']], 'other.example'));
    expect(check.error).toBe('the reply is about "other.example", not the domain asked for');
  });

  it('splits addresses at spaces and commas, lower case', () => {
    expect(addressesOf(' 1.1.1.1,2.2.2.2  FE80::1 ')).toEqual(['1.1.1.1', '2.2.2.2', 'fe80::1']);
  });
});

describe('the report', () => {
  const checks = [
    judgeReply('good.example', reply('1.1.1.1', [['Berlin', '1.1.1.1', 'ok']], 'good.example')),
    judgeReply('bad.example', reply('1.1.1.1', [['Sydney', '9.9.9.9', 'ok'], ['Evil\u001b[2J', '1.1.1.1', 'fail']], 'bad.example')),
    judgeReply('down.example', { kind: 'failure', message: 'no complete reply within 50 ms (timed out)' }),
  ];

  it('is ok only when every domain is', () => {
    expect(checkReport('https://l.example/x?apikey=1', checks.slice(0, 1)).ok).toBe(true);
    expect(checkReport('https://l.example/x', checks).ok).toBe(false);
    expect(checkReport('https://l.example/x?apikey=1', checks).lookupUrl).toBe('https://l.example/x');
  });

  it('matches schemas/check-links-report.schema.json', () => {
    const validate = validatorFor('checkLinksReport');
    expect(validate(checkReport('https://l.example/x', checks)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('reads as a table: one row per domain, one line per bad server with its location, a summary', () => {
    const table = reportTable(checkReport('https://l.example/x', checks));
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^domain\s+result\s+detail$/);
    expect(lines[1]).toMatch(/^good\.example\s+ok\s+1 server returned 1\.1\.1\.1$/);
    expect(lines[2]).toMatch(/^bad\.example\s+problems\s+2 of 2 servers wrong \(expected 1\.1\.1\.1\)$/);
    expect(lines[3]).toMatch(/^\s+- Sydney: returned 9\.9\.9\.9, expected 1\.1\.1\.1$/);
    // A location from the service cannot drive the terminal.
    expect(lines[4]).toMatch(/^\s+- Evil\?\[2J: status "fail", not "ok"$/);
    expect(lines[5]).toMatch(/^down\.example\s+error\s+no complete reply within 50 ms \(timed out\)$/);
    expect(lines.at(-1)).toBe('3 domains checked with https://l.example/x: 1 ok, 1 with server problems, 1 not checked (errors).');
  });
});

describe('the client (fake fetch)', () => {
  const ok = (body: string, status = 200) => new Response(body, { status });

  it('retries a 5xx with a doubling backoff, then returns the good reply', async () => {
    const statuses = [500, 502, 200];
    const waits: number[] = [];
    let calls = 0;
    const result = await askLookup('https://l.example/', {
      timeoutMs: 1000,
      retries: 2,
      backoffMs: 100,
      fetch: async () => ok('fine', statuses[calls++]!),
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result).toEqual({ kind: 'reply', status: 200, body: 'fine', attempts: 3 });
    expect(waits).toEqual([100, 200]);
  });

  it('gives up after the retries and does not retry a 4xx', async () => {
    let calls = 0;
    const gaveUp = await askLookup('https://l.example/', { timeoutMs: 1000, retries: 2, backoffMs: 0, fetch: async () => (calls++, ok('no', 503)) });
    expect(gaveUp).toMatchObject({ status: 503, attempts: 3 });
    expect(calls).toBe(3);
    calls = 0;
    const notFound = await askLookup('https://l.example/', { timeoutMs: 1000, retries: 2, backoffMs: 0, fetch: async () => (calls++, ok('no', 404)) });
    expect(notFound).toMatchObject({ status: 404, attempts: 1 });
    expect(calls).toBe(1);
  });

  it('times out a request that never answers, without naming the address', async () => {
    const never: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const result = await askLookup(`https://l.example/?apikey=${KEY}`, { timeoutMs: 20, retries: 2, backoffMs: 0, fetch: never });
    expect(result).toEqual({ kind: 'failure', message: 'no complete reply within 20 ms (timed out)', attempts: 1 });
  });

  it('says why a request could not be made', async () => {
    const refused: typeof fetch = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    };
    const result = await askLookup('https://l.example/', { timeoutMs: 100, retries: 0, backoffMs: 0, fetch: refused });
    expect(result).toMatchObject({ kind: 'failure', message: 'could not reach the lookup service (ECONNREFUSED)' });
  });

  it('runs at most `limit` tasks at once and keeps the order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithLimit([50, 10, 30, 5, 20, 1, 15], 4, async (ms, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return i;
    });
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(4);
    expect(await mapWithLimit([], 4, async () => 1)).toEqual([]);
  });
});
