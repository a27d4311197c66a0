/**
 * Outbound HTTP for URLs a caller gave us (background videos, webhooks), behind the address guard.
 *
 * - Every hop (the URL and each redirect target) is checked by the guard, and the connection is pinned to the
 *   checked addresses (a `lookup` that never asks DNS again) while Host and TLS SNI keep the name. After
 *   connecting, the socket's peer address is checked once more.
 * - Redirects are followed by hand, at most `maxRedirects` (default 3). GET/HEAD follow 301/302/303/307/308.
 *   Any other method (a webhook POST) follows only 307/308, keeping method and body; a 301/302/303 is not
 *   turned into a GET (that would drop the payload) and is returned as the final response, so the caller sees
 *   it as a non-2xx. Authorization and Cookie headers are dropped when a redirect changes origin.
 * - `timeoutMs` bounds the whole exchange: DNS, connect, redirects and the body. Waiting is bounded sooner where
 *   the caller asks (`pace`): each hop must connect within `connectMs` and answer within `firstByteMs`, and the
 *   body must then arrive at `minBytesPerSecond` over every `windowMs`; each fails as a FetchTimeoutError.
 * - `maxBytes` (default 10 MiB) bounds the body: an announced Content-Length above it fails at once, a streamed
 *   body fails as soon as the count passes it (`overflow: 'error'`), or is cut there (`overflow: 'truncate'`).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { limits } from '#domain/limits';
import { type CheckedTarget, checkAddress, checkUrl, type GuardMode, parseHttpUrl, pinnedLookup, type Resolver } from './address-guard.ts';
import {
  AddressNotAllowedError,
  FetchError,
  FetchTimeoutError,
  HttpStatusError,
  IncompleteBodyError,
  InvalidUrlError,
  NetworkError,
  TooLargeError,
  TooManyRedirectsError,
} from './errors.ts';

/** The pace every download of a stranger's media keeps (limits.ts says why). */
export const MEDIA_PACE: FetchPace = {
  connectMs: limits.mediaConnectMs,
  firstByteMs: limits.mediaFirstByteMs,
  minBytesPerSecond: limits.mediaMinBytesPerSecond,
  windowMs: limits.mediaRateWindowMs,
};

const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Sent unless the caller sets one: some hosts refuse requests without a user agent. */
const DEFAULT_USER_AGENT = 'vidbot/1';

export interface GuardedFetchOptions {
  mode: GuardMode;
  /** @default 'GET' */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Limit for the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** @default 10 MiB */
  maxBytes?: number;
  /** What a body larger than maxBytes does: fail with TooLargeError, or be cut at maxBytes. @default 'error' */
  overflow?: 'error' | 'truncate';
  /** @default 3 */
  maxRedirects?: number;
  /** Aborts the exchange; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Stream the body into this file instead of memory; the file is removed if the download fails. */
  toFile?: string;
  /** Final statuses that are a success; others throw HttpStatusError. @default 2xx */
  acceptStatus?: (status: number) => boolean;
  /** Host name resolver (tests inject one). @default dns.lookup */
  resolve?: Resolver;
  /** Bounds on waiting, so that a server that never answers or trickles is given up early. @default none */
  pace?: FetchPace;
}

export interface FetchPace {
  connectMs: number;
  firstByteMs: number;
  minBytesPerSecond: number;
  windowMs: number;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** URL of the final response, after redirects. */
  url: string;
  redirects: number;
  /** The address the final response came from. */
  remoteAddress?: string;
  /** Body bytes received (kept in `body` or written to `file`). */
  bytes: number;
  /** True if the body was cut at maxBytes (overflow: 'truncate'). */
  truncated: boolean;
  /** The body, unless `toFile` was given. */
  body?: Buffer;
  file?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const is2xx = (status: number) => status >= 200 && status < 300;

export async function guardedFetch(input: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const acceptStatus = options.acceptStatus ?? is2xx;

  // One controller for the whole exchange: the timer and the caller's signal both abort it, and whatever is in
  // flight (a lookup, a request, a body stream) is destroyed with the abort reason.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchTimeoutError(options.timeoutMs)), options.timeoutMs);
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = controller.signal;

  try {
    let url = parseHttpUrl(input);
    let method = (options.method ?? 'GET').toUpperCase();
    let body = options.body;
    let headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent')) headers['user-agent'] = DEFAULT_USER_AGENT;
    for (let redirects = 0; ; redirects++) {
      const target = await abortable(checkUrl(url, { mode: options.mode, resolve: options.resolve }), signal);
      const res = await send(target, { method, headers, body, mode: options.mode, pace: options.pace }, signal, controller);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      const follow = REDIRECTS.has(status) && location !== undefined && (status === 307 || status === 308 || method === 'GET' || method === 'HEAD');
      if (follow) {
        res.destroy();
        if (redirects >= maxRedirects) throw new TooManyRedirectsError(maxRedirects);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new InvalidUrlError(location, 'redirect location is not a URL');
        }
        if (next.origin !== url.origin)
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())));
        if (status === 303 && method !== 'HEAD') method = 'GET';
        if (method === 'GET' || method === 'HEAD') body = undefined;
        url = parseHttpUrl(next);
        continue;
      }
      if (!acceptStatus(status)) {
        res.destroy();
        throw new HttpStatusError(status);
      }
      const response = { status, headers: res.headers, url: url.href, redirects, remoteAddress: res.socket?.remoteAddress };
      const pacer = bodyPacer(options.pace, controller);
      try {
        if (options.toFile) return { ...response, ...(await readToFile(res, options.toFile, maxBytes, signal, pacer.count)), file: options.toFile };
        return { ...response, ...(await readToBuffer(res, maxBytes, options.overflow ?? 'error', signal, pacer.count)) };
      } finally {
        pacer.stop();
      }
    }
  } catch (err) {
    throw translate(err, signal);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Our errors pass through; an abort becomes its reason; anything else is a NetworkError. */
function translate(err: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (err instanceof FetchError) return err;
  return new NetworkError(err instanceof Error ? err.message : String(err), err);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  mode: GuardMode;
  pace?: FetchPace;
}

/** Aborts the exchange after `ms` unless cleared: a wait that is over its bound is a timeout. */
function deadline(controller: AbortController, ms: number | undefined): () => void {
  if (ms === undefined) return () => {};
  const timer = setTimeout(() => controller.abort(new FetchTimeoutError(ms)), ms);
  return () => clearTimeout(timer);
}

/** One request to the checked target; resolves with the response head. */
function send(target: CheckedTarget, options: SendOptions, signal: AbortSignal, controller: AbortController): Promise<IncomingMessage> {
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    const req = client.request({
      host: target.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers,
      // A fresh agent per request: no pooled socket from an earlier, differently-resolved request is reused.
      agent: false,
      lookup: pinnedLookup(target) as never,
    });
    const onAbort = () => req.destroy(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const connected = deadline(controller, options.pace?.connectMs);
    const answered = deadline(controller, options.pace?.firstByteMs);
    const cleanup = () => {
      signal.removeEventListener('abort', onAbort);
      connected();
      answered();
    };
    req.on('socket', (socket) => {
      socket.once('connect', connected);
      // Belt and braces: the peer we actually reached must pass the guard too.
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        if (!peer) return;
        const verdict = checkAddress(peer, options.mode, socket.remotePort);
        if (!verdict.allowed) req.destroy(new AddressNotAllowedError(url.hostname, verdict.reason, peer));
      });
    });
    req.on('response', (res) => {
      // The body reader takes over abort handling from here.
      cleanup();
      resolve(res);
    });
    req.on('error', (err) => {
      cleanup();
      reject(err);
    });
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/**
 * Aborts the exchange when a window passes with less of the body than the minimum rate: a server that trickles
 * a byte a second would otherwise hold the caller's environment until the whole exchange's limit.
 */
function bodyPacer(pace: FetchPace | undefined, controller: AbortController): { count: (bytes: number) => void; stop: () => void } {
  if (!pace) return { count: () => {}, stop: () => {} };
  let inWindow = 0;
  const timer = setInterval(() => {
    if (inWindow < (pace.minBytesPerSecond * pace.windowMs) / 1000) controller.abort(new FetchTimeoutError(pace.windowMs));
    inWindow = 0;
  }, pace.windowMs);
  return {
    count: (bytes) => {
      inWindow += bytes;
    },
    stop: () => clearInterval(timer),
  };
}

/** Destroys the response with the abort reason if the exchange is aborted while the body streams. */
function destroyOnAbort(res: IncomingMessage, signal: AbortSignal) {
  const onAbort = () => res.destroy(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * A body the server ended early: it closed the connection in good order before the body's end (Node's "aborted",
 * ECONNRESET, with no socket error under it): IncompleteBodyError, which the media downloads try once more at once
 * and then answer in the caller's words (fetch-media.ts) rather than leave to the queue's retries. A reset connection
 * (a socket error: the network's doing as likely as the server's) and our own failures (the size limit, an abort)
 * pass as they are.
 */
function cutShort(err: unknown, res: IncomingMessage, signal: AbortSignal, bytes: number, announced: number | undefined): unknown {
  if (signal.aborted || err instanceof FetchError || res.complete) return err;
  const closed = err instanceof Error && (err as { code?: string }).code === 'ECONNRESET' && err.message === 'aborted' && !res.socket?.errored;
  return closed ? new IncompleteBodyError(bytes, announced) : err;
}

function announcedLength(res: IncomingMessage): number | undefined {
  const value = res.headers['content-length'];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

async function readToBuffer(
  res: IncomingMessage,
  maxBytes: number,
  overflow: 'error' | 'truncate',
  signal: AbortSignal,
  count: (bytes: number) => void,
) {
  const length = announcedLength(res);
  if (length !== undefined && length > maxBytes && overflow === 'error') {
    res.destroy();
    throw new TooLargeError(maxBytes, length);
  }
  const release = destroyOnAbort(res, signal);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      count(chunk.length);
      if (bytes + chunk.length > maxBytes) {
        if (overflow === 'error') throw new TooLargeError(maxBytes, bytes + chunk.length);
        chunks.push(chunk.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
  } catch (err) {
    throw cutShort(err, res, signal, bytes, length);
  } finally {
    release();
    res.destroy();
  }
  return { body: Buffer.concat(chunks, bytes), bytes, truncated };
}

async function readToFile(res: IncomingMessage, file: string, maxBytes: number, signal: AbortSignal, count: (bytes: number) => void) {
  const length = announcedLength(res);
  if (length !== undefined && length > maxBytes) {
    res.destroy();
    throw new TooLargeError(maxBytes, length);
  }
  const release = destroyOnAbort(res, signal);
  let bytes = 0;
  const out = createWriteStream(file);
  try {
    // Opened before streaming so that, on failure, no late open re-creates the file after it was removed.
    await once(out, 'open');
    await pipeline(
      res,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          count(chunk.length);
          bytes += chunk.length;
          if (bytes > maxBytes) throw new TooLargeError(maxBytes, bytes);
          yield chunk;
        }
      },
      out,
    );
  } catch (caught) {
    const err = cutShort(caught, res, signal, bytes, length);
    res.destroy();
    out.destroy();
    // Not events.once: it would reject with the stream's error, which the pipeline has already reported.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(file, { force: true });
    throw err;
  } finally {
    release();
  }
  return { bytes, truncated: false };
}
