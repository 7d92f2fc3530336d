/**
 * A static host for the benchmark: serves a built site (and extra folders) on 127.0.0.1, gzips
 * responses as real hosts do, and records every response with its gzip size, so "bytes transferred"
 * is measured on what the page really fetched.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** One response the host sent. */
export interface Served {
  path: string;
  status: number;
  /** Body size before compression. */
  bytes: number;
  /** Body size gzipped (zlib.gzipSync, default level), whether or not the client asked for gzip. */
  gzipBytes: number;
  /** When the request arrived (epoch milliseconds, sub-millisecond): comparable with a page's `performance.timeOrigin + performance.now()`. */
  at: number;
}

export interface BenchHost {
  url: string;
  /** Responses since the last reset, in order. */
  served: Served[];
  reset: () => void;
  close: () => Promise<void>;
}

/**
 * Serves `root` at `/` (`/x/` → `x/index.html`, `/x` → `/x/` for folders) and each folder of
 * `mounts` at its prefix (such as `/__bench/`). Files under the `precompressed` paths of `root`
 * (files or folders) are compressed before the host starts, as a host or CDN that serves
 * precompressed files has them ready: the search's latency does not include the host's gzip.
 */
export async function serveBench(root: string, mounts: Record<string, string> = {}, precompressed: string[] = []): Promise<BenchHost> {
  const served: Served[] = [];
  // Files are read and compressed once: the host's own work stays out of the measurements.
  const cache = new Map<string, { raw: Buffer; gzip: Buffer }>();
  const body = (file: string) => {
    let entry = cache.get(file);
    if (!entry) {
      const raw = readFileSync(file);
      cache.set(file, (entry = { raw, gzip: gzipSync(raw) }));
    }
    return entry;
  };
  const compressAll = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) compressAll(join(path, name));
    else body(path);
  };
  for (const path of precompressed) compressAll(join(root, path));
  const server: Server = createServer((req, res) => {
    const at = performance.timeOrigin + performance.now();
    const url = new URL(req.url ?? '/', 'http://host');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let base = root;
    let inside = path;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) (base = dir), (inside = `/${path.slice(prefix.length)}`);
    }
    inside = normalize(inside);
    let file = join(base, inside);
    if (!inside.includes('..') && existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
        served.push({ path, status: 301, bytes: 0, gzipBytes: 0, at });
        return;
      }
      file = join(file, 'index.html');
    }
    const found = !inside.includes('..') && existsSync(file) && statSync(file).isFile();
    if (!found) file = join(root, '404.html');
    const status = found ? 200 : 404;
    const { raw, gzip } = existsSync(file) ? body(file) : { raw: Buffer.from('not found'), gzip: gzipSync('not found') };
    const useGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(status, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      ...(useGzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
      'content-length': String(useGzip ? gzip.length : raw.length),
    });
    res.end(useGzip ? gzip : raw);
    served.push({ path, status, bytes: raw.length, gzipBytes: gzip.length, at });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    reset: () => void served.splice(0),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the browser keeps connections alive
      }),
  };
}

/** Sums gzip bytes of responses, with a breakdown by kind (html, css, js, json). */
export function transferred(responses: readonly Served[]): { total: number; byKind: Record<string, number>; files: number } {
  const byKind: Record<string, number> = {};
  let total = 0;
  for (const response of responses) {
    const ext = extname(response.path) || (response.path.endsWith('/') ? '.html' : '');
    const kind = ext === '.mjs' ? 'js' : ext.slice(1) || 'other';
    byKind[kind] = (byKind[kind] ?? 0) + response.gzipBytes;
    total += response.gzipBytes;
  }
  return { total, byKind, files: responses.length };
}
