/**
 * The lookup health check's rules (SPEC 6), without the network: which domains to check, the
 * request address, what a reply means, and the report. The API key only ever enters the request
 * address (lookupRequestUrl, the one place), which is never printed; a reply that repeats the key
 * is judged without showing its text (repeatsKey), so nothing printed is ever edited afterwards.
 */
import type { CheckLinksReport, DomainCheck, LookupResponse, LookupServerAnswer, ServerProblem } from '../content/schema-types.ts';
import type { LinkRecord } from '../content/links.ts';
import { schemaProblems } from '../content/schema-validation.ts';
import { formatProblem } from '../content/problems.ts';

export type { CheckLinksReport, DomainCheck, LookupResponse, ServerProblem };

/** What the lookup service sent back, before it is judged. */
export type LookupReply =
  | { kind: 'reply'; status: number; body: string; attempts?: number }
  | { kind: 'failure'; message: string; attempts?: number };

/** The distinct domains of the link records, lower case, in the order they first appear. */
export function linkDomains(links: Pick<LinkRecord, 'link'>[]): string[] {
  const domains = new Set<string>();
  for (const { link } of links) domains.add(new URL(link).hostname.toLowerCase());
  return [...domains];
}

/** Whether a `--domain` value is a host name the lookup can check (letters, digits, `-`, dots). */
export function isDomainName(text: string): boolean {
  return text.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i.test(text);
}

/** The request: `GET {lookupUrl}?domain=<domain>&apikey=<key>&output=json` (any query already in lookupUrl is kept). */
export function lookupRequestUrl(lookupUrl: string, domain: string, key: string): string {
  const url = new URL(lookupUrl);
  url.searchParams.set('domain', domain);
  url.searchParams.set('apikey', key);
  url.searchParams.set('output', 'json');
  return url.href;
}

/** The lookup address as it may be shown: no query string and no user info, which could carry secrets. */
export function shownLookupUrl(lookupUrl: string): string {
  try {
    const url = new URL(lookupUrl);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** Keys shorter than this are no secret that text could avoid (a one-letter key is in most words): only longer ones are looked for. */
const SECRET_LENGTH = 6;

/**
 * Whether text from a reply holds the API key in any form a URL or a message could (as given,
 * URL-encoded, form-encoded, inside a JSON string). Such text is not shown at all.
 */
export function repeatsKey(text: string, key: string): boolean {
  if (key.length < SECRET_LENGTH) return false;
  const forms = [key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2), JSON.stringify(key).slice(1, -1)];
  return forms.some((form) => text.includes(form));
}

/** The addresses of an `expectedresponse` or a `resultvalue`: separated by spaces (or commas), compared without case. */
export function addressesOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((address) => address.toLowerCase());
}

/** Why one server's answer is not fine, or undefined when it returned only expected addresses. */
export function serverProblem(answer: LookupServerAnswer, expected: Set<string>): ServerProblem | undefined {
  const problem = (message: string): ServerProblem => ({
    location: answer.location,
    resultvalue: answer.resultvalue,
    resultstatus: answer.resultstatus,
    message,
  });
  if (answer.resultstatus.trim().toLowerCase() !== 'ok') return problem(`status ${JSON.stringify(answer.resultstatus)}, not "ok"`);
  const returned = addressesOf(answer.resultvalue);
  if (returned.length === 0) return problem('returned no address');
  const unexpected = returned.filter((address) => !expected.has(address));
  if (unexpected.length > 0) {
    return problem(`returned ${unexpected.join(' ')}, expected ${[...expected].join(' or ')}`);
  }
  return undefined;
}

function errorCheck(domain: string, error: string): DomainCheck {
  return { domain, status: 'error', expected: [], servers: 0, problems: [], error };
}

/** A short, single-line quotation of a reply body for an error message; none when the body repeats the key. */
function quote(body: string, key: string): string {
  if (repeatsKey(body, key)) return '(its text is not shown: it repeats the API key)';
  const line = body.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 119)}…` : line);
}

/**
 * Judges one domain's reply: an error when it cannot be read, else the servers that disagree.
 * `key` is only compared with the reply's text, so a reply repeating it is never shown.
 */
export function judgeReply(domain: string, reply: LookupReply, key = ''): DomainCheck {
  if (reply.kind === 'failure') return errorCheck(domain, reply.message);
  if (reply.status < 200 || reply.status > 299) {
    const tries = (reply.attempts ?? 1) > 1 ? ` (after ${reply.attempts} attempts)` : '';
    return errorCheck(domain, `the lookup service answered HTTP ${reply.status}${tries}${reply.body.trim() ? `: ${quote(reply.body, key)}` : ''}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(reply.body);
  } catch {
    return errorCheck(domain, `the reply is not JSON: ${reply.body.trim() ? quote(reply.body, key) : '(empty)'}`);
  }
  if (repeatsKey(reply.body, key)) return errorCheck(domain, 'the reply repeats the API key, so its text is not shown');
  const problems = schemaProblems('lookupResponse', data, 'reply', () => undefined);
  if (problems.length > 0) {
    return errorCheck(domain, `the reply does not match schemas/lookup-response.schema.json: ${problems.map((p) => formatProblem(p).slice('reply: '.length)).join('; ')}`);
  }
  const response = data as LookupResponse;
  if (response.query.domain.toLowerCase().replace(/\.$/, '') !== domain.toLowerCase().replace(/\.$/, '')) {
    return errorCheck(domain, `the reply is about ${JSON.stringify(response.query.domain)}, not the domain asked for`);
  }
  const expected = addressesOf(response.expectedresponse);
  const expectedSet = new Set(expected);
  const serverProblems = response.response.server
    .map((answer) => serverProblem(answer, expectedSet))
    .filter((problem): problem is ServerProblem => problem !== undefined);
  return {
    domain,
    status: serverProblems.length === 0 ? 'ok' : 'problems',
    expected,
    servers: response.response.server.length,
    problems: serverProblems,
    error: '',
  };
}

/** The whole report; `ok` only when every domain is fully ok. */
export function checkReport(lookupUrl: string, domains: DomainCheck[]): CheckLinksReport {
  return { ok: domains.every((check) => check.status === 'ok'), lookupUrl: shownLookupUrl(lookupUrl), domains };
}

/** Text from the lookup service made safe for a terminal: control characters (escape sequences) become `?`. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The readable report: one row per domain, then one indented line per server problem, then a summary. */
export function reportTable(report: CheckLinksReport): string {
  const width = Math.max(6, ...report.domains.map((check) => check.domain.length));
  const rows = [`${'domain'.padEnd(width)}  result    detail`];
  for (const check of report.domains) {
    const detail =
      check.status === 'error'
        ? check.error
        : check.status === 'ok'
          ? `${plural(check.servers, 'server')} returned ${check.expected.join(' or ')}`
          : `${check.problems.length} of ${plural(check.servers, 'server')} wrong (expected ${check.expected.join(' or ')})`;
    rows.push(`${check.domain.padEnd(width)}  ${check.status.padEnd(8)}  ${detail}`);
    for (const problem of check.problems) rows.push(`${' '.repeat(width + 12)}- ${problem.location || '(unnamed location)'}: ${problem.message}`);
  }
  const count = (status: DomainCheck['status']) => report.domains.filter((check) => check.status === status).length;
  rows.push(
    '',
    `${plural(report.domains.length, 'domain')} checked with ${report.lookupUrl}: ${count('ok')} ok, ` +
      `${count('problems')} with server problems, ${count('error')} not checked (errors).`,
  );
  return `${rows.map(printable).join('\n')}\n`;
}
