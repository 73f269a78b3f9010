// A tiny static file server for the lesson page (dist/site), on 127.0.0.1 only.
//   node scripts/serve.mjs [root] [--isolated]   serves root (default dist/site) on $PORT or 8080 and prints the URL
//   import { startServer } from './serve.mjs'; const { url, close } = await startServer({ root, port: 0, isolated });
// isolated: every response carries the headers that make the pages cross-origin isolated (ISOLATION_HEADERS), so that
// their clock is as fine as the browser allows (docs/browsers.md). Any static host that can set headers can do the same.
// `intercept(request, response, pathname)` (tests) may answer a request itself: it returns true when it has. `mounts`
// ({ '/prefix/': folder }) serves other folders under those paths (bench/ab.mjs: the builds it compares).
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

/** What makes a page cross-origin isolated (and its same-origin files loadable by it). */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
};

/** Serves `root` over HTTP on host:port (port 0 picks a free one). Resolves to { url, close() }. */
export function startServer({ root, port = 0, host = '127.0.0.1', intercept, isolated = false, mounts = {} }) {
  const server = createServer(async (request, response) => {
    try {
      if (isolated) for (const [name, value] of Object.entries(ISOLATION_HEADERS)) response.setHeader(name, value);
      const { pathname } = new URL(request.url, 'http://localhost');
      if (intercept && (await intercept(request, response, pathname))) return;
      const [prefix, folder] = Object.entries(mounts).find(([p]) => pathname.startsWith(p)) ?? ['/', root];
      const base = path.resolve(folder);
      let file = path.resolve(base, '.' + decodeURIComponent(pathname.slice(prefix.length - 1)));
      if (file !== base && !file.startsWith(base + path.sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = path.join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      if (request.method === 'HEAD') response.end();
      else createReadStream(file).pipe(response);
    } catch {
      response.writeHead(400).end('bad request');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ url: `http://${host}:${actual}/`, close: () => new Promise((done) => {
        server.close(done);
        server.closeAllConnections(); // a browser's idle keep-alive connections would hold close() open
      }) });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const isolated = args.includes('--isolated');
  const root = args.find((arg) => !arg.startsWith('--')) ?? 'dist/site';
  const port = Number(process.env.PORT ?? 8080);
  startServer({ root, port, isolated }).then(
    ({ url }) => console.log(`seqorder: serving ${root} at ${url}${isolated ? ', cross-origin isolated' : ''} (Ctrl+C stops)`),
    (error) => {
      console.error(`seqorder: cannot serve on 127.0.0.1:${port}: ${error.message}`);
      process.exit(1);
    },
  );
}
