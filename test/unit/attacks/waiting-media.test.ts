/**
 * A media URL that never answers (or trickles) held a render or assembly environment for the whole 30-s download
 * limit: one account's hanging backgrounds made another's one-clip video take 28.5 s. Every media download keeps
 * a pace (MEDIA_PACE): connected within 3 s, a first byte within 5 s, then 64 KiB/s over every 5 s, or it fails as
 * a timeout at once. These tests use a faster pace of the same shape so that they take a second.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FetchTimeoutError } from '#commons/net/errors';
import { type FetchPace, guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { limits } from '#domain/limits';
import { fakeResolver, startServer, type TestServer } from '../../support/net.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const PACE: FetchPace = { connectMs: 300, firstByteMs: 500, minBytesPerSecond: 64 * 1024, windowMs: 500 };
const resolve = fakeResolver({ 'media.test': ['127.0.0.1'] });

async function timed(handler: Parameters<typeof startServer>[0]) {
  const s = await startServer(handler);
  servers.push(s);
  const t0 = performance.now();
  const error = await guardedFetch(`http://media.test:${s.port}/bg.mp4`, { mode: 'local', timeoutMs: 30_000, resolve, pace: PACE }).catch((e) => e);
  return { error, seconds: (performance.now() - t0) / 1000 };
}

describe('a media server that makes the download wait', () => {
  it('is the pace every media download keeps', () => {
    expect(MEDIA_PACE).toEqual({
      connectMs: limits.mediaConnectMs,
      firstByteMs: limits.mediaFirstByteMs,
      minBytesPerSecond: limits.mediaMinBytesPerSecond,
      windowMs: limits.mediaRateWindowMs,
    });
    expect(MEDIA_PACE.firstByteMs).toBeLessThanOrEqual(5_000);
  });

  it('that never answers is given up at the first-byte bound, not the 30-s limit', async () => {
    const { error, seconds } = await timed(() => {});
    expect(error).toBeInstanceOf(FetchTimeoutError);
    expect(seconds).toBeLessThan(5);
  });

  it('that trickles a few bytes a second is given up within a window or two', async () => {
    const { error, seconds } = await timed((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const drip = setInterval(() => res.write(Buffer.alloc(100)), 100);
      res.on('close', () => clearInterval(drip));
    });
    expect(error).toBeInstanceOf(FetchTimeoutError);
    expect(seconds).toBeLessThan(5);
  });

  it('that answers at a steady rate is read whole', async () => {
    const { error } = await timed((_req, res) => res.writeHead(200).end(Buffer.alloc(256 * 1024)));
    expect(error).toMatchObject({ status: 200, bytes: 256 * 1024 });
  });
});
