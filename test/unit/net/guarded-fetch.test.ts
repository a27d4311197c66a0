import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AddressNotAllowedError,
  FetchTimeoutError,
  HttpStatusError,
  IncompleteBodyError,
  InvalidUrlError,
  NetworkError,
  TooLargeError,
  TooManyRedirectsError,
} from '#commons/net/errors';
import { guardedFetch } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { fakeResolver, startServer, type TestServer } from '../../support/net.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guarded-fetch-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(handler: Parameters<typeof startServer>[0]) {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

describe('guardedFetch', () => {
  it('fetches from an allowed host, connecting to the checked address while keeping the name', async () => {
    // Prepare: hook.test exists only in the injected resolver, so the request reaches the server only if the
    // connection uses the checked address rather than a second DNS lookup.
    const s = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'x-test': 'yes' }).end('hello'));
    const resolve = fakeResolver({ 'hook.test': ['127.0.0.1'] });

    // Act
    const res = await guardedFetch(`http://hook.test:${s.port}/path?q=1`, { mode: 'local', timeoutMs: 2000, resolve });

    // Assess
    expect(res).toMatchObject({ status: 200, bytes: 5, truncated: false, redirects: 0, remoteAddress: '127.0.0.1' });
    expect(res.body?.toString()).toBe('hello');
    expect(res.headers['x-test']).toBe('yes');
    expect(s.requests[0]).toMatchObject({ method: 'GET', url: '/path?q=1' });
    expect(s.requests[0]?.headers.host).toBe(`hook.test:${s.port}`);
    expect(s.requests[0]?.headers['user-agent']).toBe('vidbot/1');
    expect(resolve.calls).toEqual(['hook.test']);
  });

  it('sends the name as TLS SNI and verifies the certificate while connecting to the pinned address', async () => {
    // Prepare: an HTTPS server with a self-signed certificate for hook.test (test/fixtures/net), recording SNI.
    const fixtures = join(import.meta.dirname, '../../fixtures/net');
    const context = { key: readFileSync(join(fixtures, 'self-signed.key')), cert: readFileSync(join(fixtures, 'self-signed.crt')) };
    const serverNames: string[] = [];
    const secure = https.createServer(
      { ...context, SNICallback: (name, cb) => (serverNames.push(name), cb(null, tls.createSecureContext(context))) },
      (_req, res) => res.end('ok'),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const { port } = secure.address() as AddressInfo;
    try {
      // Act: the certificate is not trusted, so the request must fail, after the handshake carried the name.
      const err = await guardedFetch(`https://hook.test:${port}/`, {
        mode: 'local',
        timeoutMs: 2000,
        resolve: fakeResolver({ 'hook.test': ['127.0.0.1'] }),
      }).catch((e: unknown) => e);

      // Assess
      expect(serverNames).toEqual(['hook.test']);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ causeCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(isTransientError(err)).toBe(false);
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
    }
  });

  it('refuses loopback in cloud mode before connecting', async () => {
    const s = await server((_req, res) => res.end('secret'));
    await expect(guardedFetch(`${s.origin}/`, { mode: 'cloud', timeoutMs: 2000 })).rejects.toBeInstanceOf(AddressNotAllowedError);
    await expect(guardedFetch(`http://localhost:${s.port}/`, { mode: 'cloud', timeoutMs: 2000 })).rejects.toMatchObject({ reason: 'loopback' });
    const resolve = fakeResolver({ 'evil.test': ['127.0.0.1'] });
    await expect(guardedFetch(`http://evil.test:${s.port}/`, { mode: 'cloud', timeoutMs: 2000, resolve })).rejects.toMatchObject({
      code: 'address_not_allowed',
      address: '127.0.0.1',
    });
    expect(s.requests).toHaveLength(0);
  });

  it('refuses invalid URLs and other schemes', async () => {
    await expect(guardedFetch('file:///etc/passwd', { mode: 'local', timeoutMs: 1000 })).rejects.toBeInstanceOf(InvalidUrlError);
    await expect(guardedFetch('not a url', { mode: 'local', timeoutMs: 1000 })).rejects.toMatchObject({ code: 'invalid_url' });
  });

  describe('redirects', () => {
    it.each([
      ['metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
      ['metadata (decimal)', 'http://2852039166/latest/meta-data/'],
      ['private', 'http://10.0.0.1/admin'],
      ['private (by name)', 'http://evil.test/admin'],
      ['scheme', 'file:///etc/passwd'],
    ])('refuses a redirect to %s', async (_label, location) => {
      const s = await server((_req, res) => res.writeHead(302, { location }).end());
      const resolve = fakeResolver({ 'evil.test': ['10.0.0.1'] });
      const err = await guardedFetch(`${s.origin}/start`, { mode: 'local', timeoutMs: 2000, resolve }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(_label === 'scheme' ? InvalidUrlError : AddressNotAllowedError);
      expect(s.requests).toHaveLength(1);
    });

    it('follows up to maxRedirects and refuses one more', async () => {
      // /r/3 → /r/2 → /r/1 → /r/0 (200)
      const s = await server((req, res) => {
        const n = Number(req.url?.split('/')[2]);
        if (n > 0) res.writeHead(301, { location: `/r/${n - 1}` }).end();
        else res.end('arrived');
      });
      const ok = await guardedFetch(`${s.origin}/r/3`, { mode: 'local', timeoutMs: 2000 });
      expect(ok).toMatchObject({ status: 200, redirects: 3, url: `${s.origin}/r/0` });
      await expect(guardedFetch(`${s.origin}/r/4`, { mode: 'local', timeoutMs: 2000 })).rejects.toBeInstanceOf(TooManyRedirectsError);
      await expect(guardedFetch(`${s.origin}/r/1`, { mode: 'local', timeoutMs: 2000, maxRedirects: 0 })).rejects.toMatchObject({
        code: 'too_many_redirects',
      });
    });

    it('follows 307/308 for POST keeping method and body, across hosts re-checked by the guard', async () => {
      const target = await server((_req, res) => res.writeHead(204).end());
      const s = await server((req, res) =>
        res.writeHead(req.url === '/a' ? 307 : 308, { location: req.url === '/a' ? '/b' : `http://hook2.test:${target.port}/c` }).end(),
      );
      const resolve = fakeResolver({ 'hook2.test': ['127.0.0.1'] });
      const res = await guardedFetch(`${s.origin}/a`, {
        mode: 'local',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
        body: '{"a":1}',
        timeoutMs: 2000,
        resolve,
      });
      expect(res).toMatchObject({ status: 204, redirects: 2 });
      expect(s.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['POST', '/a', '{"a":1}'],
        ['POST', '/b', '{"a":1}'],
      ]);
      expect(target.requests[0]).toMatchObject({ method: 'POST', url: '/c', body: '{"a":1}' });
      expect(target.requests[0]?.headers['content-type']).toBe('application/json');
      // The origin changed, so credentials were not passed on.
      expect(s.requests[1]?.headers.authorization).toBe('Bearer secret');
      expect(target.requests[0]?.headers.authorization).toBeUndefined();
    });

    it('does not turn a POST into a GET on 301/302/303', async () => {
      for (const status of [301, 302, 303]) {
        const s = await server((_req, res) => res.writeHead(status, { location: '/elsewhere' }).end());
        const res = await guardedFetch(`${s.origin}/hook`, { mode: 'local', method: 'POST', body: 'x', timeoutMs: 2000, acceptStatus: () => true });
        expect(res.status).toBe(status);
        expect(s.requests).toHaveLength(1);
        await expect(guardedFetch(`${s.origin}/hook`, { mode: 'local', method: 'POST', body: 'x', timeoutMs: 2000 })).rejects.toMatchObject({
          code: 'http_error',
          status,
        });
      }
    });

    it('follows 302/303 for GET', async () => {
      const s = await server((req, res) => {
        if (req.url === '/a') res.writeHead(302, { location: '/b' }).end();
        else if (req.url === '/b') res.writeHead(303, { location: '/c' }).end();
        else res.end('c');
      });
      const res = await guardedFetch(`${s.origin}/a`, { mode: 'local', timeoutMs: 2000 });
      expect(res.body?.toString()).toBe('c');
      expect(res.redirects).toBe(2);
    });
  });

  describe('size limit', () => {
    it('fails at once on a Content-Length above maxBytes, without waiting for the body', async () => {
      // The server announces 10 MB, sends a little, then stalls: only the header can end this quickly.
      const s = await server((_req, res) => {
        res.writeHead(200, { 'content-length': String(10_000_000) });
        res.write(Buffer.alloc(1000));
      });
      const started = Date.now();
      const err = await guardedFetch(`${s.origin}/big.mp4`, { mode: 'local', timeoutMs: 5000, maxBytes: 1_000_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TooLargeError);
      expect(err).toMatchObject({ code: 'too_large', maxBytes: 1_000_000, bytes: 10_000_000 });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('fails as soon as a streamed body without length passes maxBytes', async () => {
      // Chunked, 64 KB per tick, never ends by itself: only counting bytes can stop it.
      const s = await server((_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 1);
        res.on('close', () => clearInterval(timer));
      });
      const err = await guardedFetch(`${s.origin}/stream`, { mode: 'local', timeoutMs: 5000, maxBytes: 256 * 1024 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TooLargeError);
      expect((err as TooLargeError).bytes).toBeGreaterThan(256 * 1024);
    });

    it('removes the partial file when a download to file is too large', async () => {
      const s = await server((_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 1);
        res.on('close', () => clearInterval(timer));
      });
      const file = join(dir, 'too-large.mp4');
      await expect(guardedFetch(`${s.origin}/stream`, { mode: 'local', timeoutMs: 5000, maxBytes: 200_000, toFile: file })).rejects.toBeInstanceOf(
        TooLargeError,
      );
      expect(existsSync(file)).toBe(false);
    });

    it('cuts the body at maxBytes in truncate mode', async () => {
      const s = await server((_req, res) => res.end(Buffer.alloc(100_000, 'a')));
      const res = await guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 2000, maxBytes: 1000, overflow: 'truncate' });
      expect(res).toMatchObject({ status: 200, bytes: 1000, truncated: true });
      expect(res.body).toHaveLength(1000);
    });

    it('defaults to a 10 MiB limit for bodies kept in memory', async () => {
      const s = await server((_req, res) => res.writeHead(200, { 'content-length': String(11 * 1024 * 1024) }).end());
      await expect(guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 2000 })).rejects.toBeInstanceOf(TooLargeError);
    });
  });

  it('streams a download to a file', async () => {
    const payload = Buffer.from(Array.from({ length: 300_000 }, (_v, i) => i % 251));
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(payload.subarray(0, 100_000));
      setTimeout(() => res.end(payload.subarray(100_000)), 20);
    });
    const file = join(dir, 'background.mp4');
    const res = await guardedFetch(`${s.origin}/background.mp4`, { mode: 'local', timeoutMs: 2000, maxBytes: 1_000_000, toFile: file });
    expect(res).toMatchObject({ status: 200, bytes: 300_000, file });
    expect(res.body).toBeUndefined();
    expect(readFileSync(file).equals(payload)).toBe(true);
  });

  describe('time limit', () => {
    it('fails with FetchTimeoutError when the server never answers', async () => {
      const s = await server(() => {
        /* never answers */
      });
      const started = Date.now();
      const err = await guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 300 }).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(err).toBeInstanceOf(FetchTimeoutError);
      expect(err).toMatchObject({ code: 'timeout', timeoutMs: 300 });
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1300); // generous slack: CI machines are shared
    });

    it('counts the body in the time limit (a slow trickle times out)', async () => {
      const s = await server((_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 20);
        res.on('close', () => clearInterval(timer));
      });
      const file = join(dir, 'slow.mp4');
      const started = Date.now();
      await expect(guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 300, toFile: file })).rejects.toBeInstanceOf(FetchTimeoutError);
      expect(Date.now() - started).toBeLessThan(1300);
      expect(existsSync(file)).toBe(false);
    });

    it('rejects with the reason of the caller’s signal', async () => {
      const s = await server(() => {});
      const controller = new AbortController();
      const reason = new Error('lambda is out of time');
      setTimeout(() => controller.abort(reason), 50);
      await expect(guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 5000, signal: controller.signal })).rejects.toBe(reason);
    });
  });

  describe('failures', () => {
    it('reports a non-2xx status as HttpStatusError', async () => {
      const s = await server((_req, res) => res.writeHead(404).end('not found'));
      await expect(guardedFetch(`${s.origin}/missing.mp4`, { mode: 'local', timeoutMs: 2000 })).rejects.toEqual(
        expect.objectContaining({ code: 'http_error', status: 404 }),
      );
      const err = await guardedFetch(`${s.origin}/missing.mp4`, { mode: 'local', timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpStatusError);
    });

    it('reports a refused connection as a NetworkError', async () => {
      const s = await server(() => {});
      const { port } = s;
      await s.close();
      servers.splice(servers.indexOf(s), 1);
      const err = await guardedFetch(`http://127.0.0.1:${port}/`, { mode: 'local', timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ code: 'network_error', causeCode: 'ECONNREFUSED' });
      expect(isTransientError(err)).toBe(false);
    });

    it('reports a connection reset in the middle of the body as a transient NetworkError', async () => {
      const s = await server((_req, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        res.write(Buffer.alloc(100));
        setTimeout(() => res.socket?.resetAndDestroy(), 20);
      });
      const err = await guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(isTransientError(err)).toBe(true);
    });

    it('reports a body the server ends early, in good order, as an IncompleteBodyError that is not retried', async () => {
      // A Content-Length four times the body, then the connection closed: the same file is sent the same way again.
      const s = await server((_req, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        res.write(Buffer.alloc(250));
        setTimeout(() => res.socket?.end(), 20);
      });
      for (const toFile of [undefined, join(dir, 'short.wav')]) {
        const err = await guardedFetch(`${s.origin}/`, { mode: 'local', timeoutMs: 2000, toFile }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(IncompleteBodyError);
        expect(err).toMatchObject({ code: 'incomplete_body', bytes: 250, announced: 1000 });
        expect(isTransientError(err)).toBe(false);
        if (toFile) expect(existsSync(toFile)).toBe(false);
      }
    });

    it('reports a name that does not resolve as a NetworkError', async () => {
      const resolve = fakeResolver({});
      await expect(guardedFetch('http://nowhere.test/', { mode: 'local', timeoutMs: 2000, resolve })).rejects.toMatchObject({
        code: 'network_error',
        causeCode: 'ENOTFOUND',
      });
    });
  });
});
