import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticHost {
  /** `http://127.0.0.1:<port>` + base path, without a trailing slash. */
  url: string;
  /** Every path requested, in order (decoded). */
  requests: string[];
  close: () => Promise<void>;
}

/**
 * Serves a built site the way a static host does: `/x/` → `x/index.html`, `/x` → redirect to
 * `/x/` when it is a folder, 404 → `404.html`. `base` mounts the site under a sub-path.
 */
export async function serveStatic(root: string, base = '/'): Promise<StaticHost> {
  const mount = base.endsWith('/') ? base : `${base}/`;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    requests.push(path);
    const notFound = () => {
      const page = join(root, '404.html');
      res.writeHead(404, { 'content-type': TYPES['.html']! });
      if (existsSync(page)) createReadStream(page).pipe(res);
      else res.end('not found');
    };
    if (!path.startsWith(mount) && `${path}/` !== mount) return notFound();
    const inside = normalize(path.slice(mount.length - 1));
    if (inside.includes('..')) return notFound();
    let file = join(root, inside);
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
        return;
      }
      file = join(file, 'index.html');
    }
    if (!existsSync(file) || !statSync(file).isFile()) return notFound();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mount.slice(0, -1)}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
