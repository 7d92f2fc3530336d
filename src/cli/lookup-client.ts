/**
 * The lookup health check's network side: one request with a timeout and retries on 5xx, and a
 * small concurrency limit. `fetch` and `sleep` are injectable so the rules can be tested without
 * waiting. Messages never include the request address (it carries the API key).
 */
import type { LookupReply } from './lookup.ts';

export interface LookupClientOptions {
  /** Milliseconds one request (headers and body) may take. */
  timeoutMs: number;
  /** Further attempts after a 5xx answer. */
  retries: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  backoffMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Why a request failed, from a fetch error: the system error code (`ECONNREFUSED`) or the error's
 * name, never its message, which may quote the request address and so the key.
 */
function failureMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const name = error instanceof Error ? error.name : typeof error;
  return `could not reach the lookup service (${code ?? name})`;
}

/** One attempt: the status and the whole body, or a failure (timed out, unreachable). */
async function attempt(url: string, options: LookupClientOptions): Promise<LookupReply> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    const body = await response.text();
    return { kind: 'reply', status: response.status, body };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'failure', message: `no complete reply within ${options.timeoutMs} ms (timed out)` };
    return { kind: 'failure', message: failureMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the lookup service, retrying with a doubling backoff while it answers 5xx. */
export async function askLookup(url: string, options: LookupClientOptions): Promise<LookupReply> {
  const sleep = options.sleep ?? wait;
  for (let tries = 1; ; tries++) {
    const reply = await attempt(url, options);
    const serverError = reply.kind === 'reply' && reply.status >= 500;
    if (!serverError || tries > options.retries) return { ...reply, attempts: tries };
    await sleep(options.backoffMs * 2 ** (tries - 1));
  }
}

/** Runs `task` on every item with at most `limit` running at once; results keep the items' order. */
export async function mapWithLimit<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
