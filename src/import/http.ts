/**
 * The importer's HTTP client, a polite crawler: at most `concurrency` requests at once, a timeout
 * per request, HTTP 429 answered by waiting as `Retry-After` says, 5xx replies, timeouts, broken
 * connections and pages that are not JSON retried with a doubling delay. Its messages name the
 * address without its query's secrets and never the key: every text it gives is passed through
 * `redact` with the secrets it was given.
 */

export interface HttpOptions {
  /** Longest wait for one reply, in milliseconds. */
  timeoutMs: number;
  /** First delay before a retry; each further retry waits twice as long. */
  retryDelayMs: number;
  /** Tries of one request in all (the first and its retries). */
  attempts: number;
  /** Requests at once. */
  concurrency: number;
  /** Sent with every request (authentication). */
  headers: Record<string, string>;
  /** Texts that must never appear in a message (the API key). */
  secrets: string[];
  /** Injected in tests: waiting, and the clock Retry-After dates are read against. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called when a request has to wait or retry (the progress line shows it). */
  onRetry?: (message: string) => void;
}

/** The longest wait a Retry-After may ask for; a server asking for more is not waited for. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** A request that failed for good: its message is safe to print. */
export class FetchFailure extends Error {}

/** What went wrong with one try, as the retry rule sees it. */
export type TryOutcome = { status: number; retryAfter?: string | null } | 'timeout' | 'network' | 'not-json';

/**
 * How long to wait before try number `attempt + 1` (attempt counts from 1), or undefined when the
 * request must not be retried: 429 waits as Retry-After says (seconds or an HTTP date; the doubling
 * delay when it gives neither), 5xx, timeouts, broken connections and pages that are not JSON wait
 * `base · 2^(attempt − 1)`; other statuses are final, and so is a Retry-After beyond MAX_RETRY_AFTER_MS.
 */
export function retryDelay(outcome: TryOutcome, attempt: number, baseMs: number, nowMs: number): number | undefined {
  const doubling = baseMs * 2 ** (attempt - 1);
  if (typeof outcome === 'string') return doubling;
  if (outcome.status === 429) {
    const header = outcome.retryAfter?.trim();
    if (!header) return doubling;
    const wait = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - nowMs;
    if (Number.isNaN(wait)) return doubling;
    return wait > MAX_RETRY_AFTER_MS ? undefined : Math.max(0, wait);
  }
  if (outcome.status >= 500) return doubling;
  return undefined;
}

/** `text` with every secret replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}

/** How an address is named in messages: its path and query, never user info. */
export function shownAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function describe(outcome: TryOutcome, timeoutMs: number): string {
  if (outcome === 'timeout') return `no reply within ${timeoutMs} ms`;
  if (outcome === 'network') return 'the connection failed';
  if (outcome === 'not-json') return 'the reply is not JSON';
  return `HTTP ${outcome.status}`;
}

/** A client for JSON APIs: `getJson(url)` gives the parsed reply or throws a FetchFailure. */
export function jsonClient(options: HttpOptions) {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  let running = 0;
  const waiting: Array<() => void> = [];
  let requests = 0;

  const slot = async () => {
    if (running >= options.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  async function once(url: string): Promise<{ data: unknown } | { outcome: TryOutcome; status?: number }> {
    requests++;
    let response: Response;
    try {
      response = await fetch(url, { headers: { Accept: 'application/json', ...options.headers }, signal: AbortSignal.timeout(options.timeoutMs), redirect: 'follow' });
    } catch (error) {
      return { outcome: (error as Error).name === 'TimeoutError' ? 'timeout' : 'network' };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return { outcome: (error as Error).name === 'TimeoutError' ? 'timeout' : 'network' };
    }
    if (!response.ok) return { outcome: { status: response.status, retryAfter: response.headers.get('retry-after') }, status: response.status };
    try {
      return { data: JSON.parse(text) as unknown };
    } catch {
      return { outcome: 'not-json' };
    }
  }

  async function getJson(url: string): Promise<unknown> {
    const shown = redact(shownAddress(url), options.secrets);
    await slot();
    try {
      for (let attempt = 1; ; attempt++) {
        const result = await once(url);
        if ('data' in result) return result.data;
        const wait = attempt < options.attempts ? retryDelay(result.outcome, attempt, options.retryDelayMs, now()) : undefined;
        const what = describe(result.outcome, options.timeoutMs);
        if (wait === undefined) {
          const tries = attempt === 1 ? '' : ` (after ${attempt} tries)`;
          const hint = result.status === 401 || result.status === 403 ? ': the key was refused or lacks permission for this endpoint' : '';
          throw new FetchFailure(redact(`GET ${shown}: ${what}${tries}${hint}`, options.secrets));
        }
        options.onRetry?.(redact(`GET ${shown}: ${what}; trying again in ${(wait / 1000).toFixed(1)} s`, options.secrets));
        await sleep(wait);
      }
    } finally {
      release();
    }
  }

  return { getJson, requestCount: () => requests };
}

export type JsonClient = ReturnType<typeof jsonClient>;
