/**
 * The one download routine of a caller's media (functions/media/fetch-media.ts) against a local server: a 300 MB
 * body goes to disk without raising the process's memory, a body past the limit fails while it streams (no
 * Content-Length to refuse it early) and leaves no file, and every failure reads in the caller's words.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpStatusError } from '#commons/net/errors';
import { JobFailedError } from '#domain/errors';
import { fetchMediaToFile, type MediaDownload } from '#media/fetch-media';

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 7);
let server: Server;
let base: string;
let dir: string;
/** The first request for /short-once gets a body cut short, the next the whole file (a server restarted mid-file). */
let servedShortOnce = false;

/** Writes `bytes` in CHUNK-sized pieces, waiting for the socket to drain: the server holds one chunk at a time. */
async function stream(res: import('node:http').ServerResponse, bytes: number) {
  for (let sent = 0; sent < bytes; sent += CHUNK.length) {
    const piece = bytes - sent < CHUNK.length ? CHUNK.subarray(0, bytes - sent) : CHUNK;
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fetch-media-'));
  server = createServer((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('mb') ?? 0) * MB;
    if (req.url?.startsWith('/status/')) {
      res.writeHead(Number(req.url.slice(8))).end();
      return;
    }
    if (req.url === '/short-once' && !servedShortOnce) {
      servedShortOnce = true;
      req.url = '/short';
    } else if (req.url === '/short-once') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(4 * CHUNK.length) });
      res.end(Buffer.concat([CHUNK, CHUNK, CHUNK, CHUNK]));
      return;
    }
    if (req.url === '/short') {
      // Four times the body announced, then the connection closed in good order.
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(4 * CHUNK.length) });
      res.write(CHUNK, () => res.socket?.end());
      return;
    }
    // Chunked: no Content-Length, so the limit can only be enforced while the body streams.
    res.writeHead(200, { 'content-type': 'video/mp4' });
    void stream(res, size);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const recording = (maxBytes: number): MediaDownload => ({
  mode: 'local',
  maxBytes,
  timeoutMs: 120_000,
  code: 'video',
  noun: { file: 'the recording', url: 'the recording URL' },
});

const failure = (attempt: Promise<unknown>) =>
  attempt.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('fetchMediaToFile', () => {
  // Garbage not yet collected counts too (about 30 MB seen); a download held in memory would grow by all 300 MB.
  it('streams a 300 MB body to disk: the heap and buffers grow by less than 64 MB while it downloads', async () => {
    const path = join(dir, 'big.mp4');
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed - before.heapUsed + (now.arrayBuffers - before.arrayBuffers));
    }, 20);
    try {
      expect(await fetchMediaToFile(`${base}/?mb=300`, path, recording(300 * MB))).toBe(300 * MB);
    } finally {
      clearInterval(sampler);
    }
    expect(statSync(path).size).toBe(300 * MB);
    console.info(`fetchMediaToFile 300 MB: heap + array buffers grew at most ${(peak / MB).toFixed(1)} MB`);
    expect(peak).toBeLessThan(64 * MB);
    rmSync(path);
  }, 120_000);

  it('fails a body past the limit as it streams, as <code>_too_large, and leaves no file', async () => {
    const path = join(dir, 'over.mp4');
    const error = await failure(fetchMediaToFile(`${base}/?mb=3`, path, recording(2 * MB)));
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({ code: 'video_too_large', message: 'the recording is larger than 2 MiB' });
    expect(existsSync(path)).toBe(false);
  });

  it("answers a 4xx and a body cut short in the caller's words, rethrows a 5xx or a 429 for a retry, and names a refused address", async () => {
    const path = join(dir, 'x.mp4');
    expect(await failure(fetchMediaToFile(`${base}/status/404`, path, recording(MB)))).toMatchObject({
      code: 'video_unavailable',
      message: 'the recording URL answered HTTP 404',
    });
    for (const status of [503, 429])
      expect(await failure(fetchMediaToFile(`${base}/status/${status}`, path, recording(MB)))).toBeInstanceOf(HttpStatusError);
    const metadata = 'http://169.254.169.254/latest/meta-data/';
    expect(await failure(fetchMediaToFile(metadata, path, recording(MB)))).toMatchObject({
      code: 'video_unavailable',
      message: 'the recording URL leads to an address we do not fetch from (private, loopback or link-local)',
    });
    // A server that ends the body early sends it the same way again: the caller's to fix, at once (not retried until
    // the queue gives up, then failed with a code of ours).
    expect(await failure(fetchMediaToFile(`${base}/short`, path, recording(MB)))).toMatchObject({
      code: 'video_unavailable',
      message: 'the recording URL closed the connection before the whole file was sent; check the server, then send it again',
    });
    expect(existsSync(path)).toBe(false);
    // Once only (a server restarted in the middle of the file): asked for again at once, and the whole file comes.
    expect(await fetchMediaToFile(`${base}/short-once`, path, recording(MB))).toBe(4 * CHUNK.length);
    rmSync(path);
    const background = { ...recording(MB), code: 'background', noun: { file: 'the background', url: 'the background URL' }, ownCodes: true };
    expect(await failure(fetchMediaToFile(metadata, path, background))).toMatchObject({ code: 'background_not_allowed' });
  });
});
