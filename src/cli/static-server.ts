/**
 * A static host for a built site, for the tests and the benchmark: `/x/` → `x/index.html`, `/x` →
 * a redirect to `/x/` when it is a folder, anything else missing → `404.html` with status 404.
 * Every response is recorded, so callers can tell what a page fetched.
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
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** One response the host sent. */
export interface Served {
  /** The path requested, decoded. */
  path: string;
  status: number;
  /** Body size before compression. */
  bytes: number;
  /** Body size gzipped (zlib.gzipSync, default level), whether or not the client asked for gzip; with `gzip` only. */
  gzipBytes: number | undefined;
  /** When the request arrived (epoch milliseconds, sub-millisecond): comparable with a page's `performance.timeOrigin + performance.now()`. */
  at: number;
}

export interface StaticServerOptions {
  /** Further folders served at their own path prefixes (such as `/__bench/`), outside `base`. */
  mounts?: Record<string, string>;
  /**
   * Gzip responses for clients that accept it, as real hosts do, recording each gzip size. Files
   * are then read and compressed once and kept, so the host's own work stays out of measurements:
   * only for a site that does not change while it is served.
   */
  gzip?: boolean;
  /**
   * With `gzip`: paths under the root (files or folders) compressed before the host starts, as a
   * host or CDN that serves precompressed files has them ready.
   */
  precompressed?: string[];
  /** Further headers of each response by its path, as a host's `_headers` rules give them (see headersForPath). */
  headers?: (path: string) => Record<string, string>;
}

export interface StaticHost {
  /** `http://127.0.0.1:<port>` + base path, without a trailing slash. */
  url: string;
  /** Every response since the start or the last reset, in order. */
  served: Served[];
  /** The paths of `served`, decoded. */
  readonly requests: string[];
  reset: () => void;
  close: () => Promise<void>;
}

/** Serves the built site in `root` on 127.0.0.1; `base` mounts it under a sub-path. */
export async function serveStatic(root: string, base = '/', options: StaticServerOptions = {}): Promise<StaticHost> {
  const mount = base.endsWith('/') ? base : `${base}/`;
  const mounts = Object.entries(options.mounts ?? {});
  const served: Served[] = [];
  const kept = new Map<string, { raw: Buffer; gzip: Buffer }>();
  const body = (file: string): { raw: Buffer; gzip?: Buffer } => {
    if (!options.gzip) return { raw: readFileSync(file) };
    let entry = kept.get(file);
    if (!entry) {
      const raw = readFileSync(file);
      kept.set(file, (entry = { raw, gzip: gzipSync(raw) }));
    }
    return entry;
  };
  const compressAll = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) compressAll(join(path, name));
    else body(path);
  };
  if (options.gzip) for (const path of options.precompressed ?? []) compressAll(join(root, path));

  /** The file a path names, or undefined (outside the site, or `..`); folders are resolved by the caller. */
  const fileOf = (path: string): string | undefined => {
    const mounted = mounts.find(([prefix]) => path.startsWith(prefix));
    if (!mounted && !path.startsWith(mount) && `${path}/` !== mount) return undefined;
    const inside = normalize(mounted ? `/${path.slice(mounted[0].length)}` : path.slice(mount.length - 1));
    return inside.includes('..') ? undefined : join(mounted ? mounted[1] : root, inside);
  };

  const server: Server = createServer((req, res) => {
    const at = performance.timeOrigin + performance.now();
    const url = new URL(req.url ?? '/', 'http://host');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    let file = fileOf(path);
    if (file && existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
        served.push({ path, status: 301, bytes: 0, gzipBytes: options.gzip ? 0 : undefined, at });
        return;
      }
      file = join(file, 'index.html');
    }
    const found = file !== undefined && existsSync(file) && statSync(file).isFile();
    const page = found ? file! : join(root, '404.html');
    const { raw, gzip } = existsSync(page) ? body(page) : { raw: Buffer.from('not found'), gzip: options.gzip ? gzipSync('not found') : undefined };
    const useGzip = gzip !== undefined && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const sent = useGzip ? gzip : raw;
    res.writeHead(found ? 200 : 404, {
      'content-type': TYPES[extname(page)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      ...(useGzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
      'content-length': String(sent.length),
      ...options.headers?.(path),
    });
    res.end(sent);
    served.push({ path, status: found ? 200 : 404, bytes: raw.length, gzipBytes: gzip?.length, at });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mount.slice(0, -1)}`,
    served,
    get requests() {
      return served.map((response) => response.path);
    },
    reset: () => void served.splice(0),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // browsers keep connections alive
      }),
  };
}
