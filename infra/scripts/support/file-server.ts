import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowLoopbackPort } from '../../local/loopback.ts';

/**
 * Serves test files on 127.0.0.1, plus misbehaving routes for failure tests:
 * /missing.mp4 (404), /slow.mp4 (never finishes), /redirect?to=URL (302), /text.mp4 (not a video).
 */
export async function startFileServer(files: Record<string, string>) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/slow.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).write('....');
    if (url.pathname === '/text.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end('this is not a video at all');
    const path = files[url.pathname];
    if (!path) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': statSync(path).size });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A test's or the demo's own server: the local runtime's functions may reach it.
  allowLoopbackPort((server.address() as AddressInfo).port);
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
