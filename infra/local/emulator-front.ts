/**
 * The only door to an emulator: a loopback HTTP server that checks each request's SigV4 signature with the data
 * dir's credentials and passes the good ones to the emulator, which listens on a unix socket in a private
 * directory. dynalite, s3rver and fauxqs check nothing themselves (s3rver not even a presigned link's signature).
 *
 * No CORS: a preflight is refused, and so is any request carrying an Origin, except a presigned S3 read and a
 * presigned PUT of an upload (POST /v1/uploads) — what a web page may do with the bucket on AWS too (the media
 * bucket's CORS rule in infra/wiring.ts), since the link is its own authorisation. A presigned link writes nothing
 * else.
 */
import { Agent, createServer, request as forward, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUCKET_PREFIXES } from '#domain/bucket-layout';
import type { LocalCredentials } from './data-dir.ts';
import type { Log } from './log.ts';
import { type ReceivedRequest, SigV4Verifier } from './sigv4.ts';

/** DynamoDB's largest request (a 25-item batch of 400 KB items) is under this; SQS's is 1 MiB. */
const MAX_CHECKED_BODY_BYTES = 16 * 1024 * 1024;

export interface FrontOptions {
  service: 'dynamodb' | 's3' | 'sqs';
  credentials: LocalCredentials;
  region: string;
  /** The emulator's unix socket. */
  socketPath: string;
  log: Log;
}

export interface Front {
  port: number;
  close(): Promise<void>;
}

const refusal = (service: FrontOptions['service'], status: number, code: string, message: string): [number, OutgoingHttpHeaders, string] =>
  service === 's3'
    ? [
        status,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      ]
    : [status, { 'content-type': 'application/x-amz-json-1.0' }, JSON.stringify({ __type: `com.amazon.coral.service#${code}`, message })];

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CHECKED_BODY_BYTES) {
        resolve(undefined);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_CHECKED_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** A path-style key under upload-files/: the one place a presigned link may write (functions/domain/uploads.ts). */
const isUploadPath = (url: string | undefined) => {
  const path = (url ?? '').split('?')[0]!;
  return new RegExp(`^/[a-z0-9.-]+/${BUCKET_PREFIXES.uploadFiles}[^/?]+/[^/?]+$`).test(path);
};

/** How long the front keeps an idle upstream socket: under the 5 s an emulator's Node server keeps one. */
const UPSTREAM_IDLE_MS = 4000;
/**
 * How long the front keeps a function's idle socket: the SDK's agent never closes one itself, so the front does,
 * and late (a function's calls come seconds apart; closing at Node's default 5 s met one being reused).
 */
const CLIENT_IDLE_MS = 10 * 60_000;

/** Starts a front on 127.0.0.1:`port` (0: a free one). */
export async function startFront(options: FrontOptions, port: number): Promise<Front> {
  const { service, log } = options;
  const verifier = new SigV4Verifier(options.credentials, options.region, service);
  // An idle kept-alive socket is closed by the side that stops waiting first; if that is the server while the client
  // reuses the socket, the request dies with ECONNRESET (a streamed upload is then not retried). Here the front is
  // the client and closes its idle sockets first (Node's servers, dynalite's and s3rver's, wait 5 s).
  const agent = new Agent({ keepAlive: true, timeout: UPSTREAM_IDLE_MS });
  let closing = false;

  const deny = (res: ServerResponse, status: number, code: string, message: string) => {
    const [statusCode, headers, body] = refusal(service, status, code, message);
    res.writeHead(statusCode, headers).end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // A browser's preflight, or a page's request: nothing here is for another origin but presigned reads and the
    // PUT of an upload, whose preflight (unsigned, as a browser sends it) the emulator answers from the CORS rule.
    const uploadPreflight = req.method === 'OPTIONS' && service === 's3' && req.headers['access-control-request-method'] === 'PUT';
    if (req.method === 'OPTIONS' && !(uploadPreflight && isUploadPath(req.url)))
      return deny(res, 403, 'AccessDenied', 'Cross-origin requests are not allowed.');
    if (req.method === 'OPTIONS') return pass(req, res, undefined, true);
    // S3 bodies stream through (their signature covers the declared x-amz-content-sha256); the others are read first.
    const body = service === 's3' ? undefined : await readBody(req);
    if (service !== 's3' && body === undefined) return deny(res, 413, 'RequestEntityTooLarge', 'Request body too large.');
    const received: ReceivedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
    const verdict = await verifier.verify(received);
    if (!verdict.ok) {
      log.debug('emulator request refused', { service, reason: verdict.reason });
      return deny(res, 403, service === 's3' ? 'AccessDenied' : 'InvalidSignatureException', 'Request not signed with the runtime credentials.');
    }
    const crossOriginRead = verdict.presigned && (req.method === 'GET' || req.method === 'HEAD');
    const uploadPut = verdict.presigned && req.method === 'PUT' && isUploadPath(req.url);
    const crossOrigin = crossOriginRead || uploadPut;
    if (req.headers.origin !== undefined && !crossOrigin) return deny(res, 403, 'AccessDenied', 'Cross-origin requests are not allowed.');
    if (verdict.presigned && !crossOrigin) return deny(res, 403, 'AccessDenied', 'Presigned links are for reading and uploads.');
    pass(req, res, body, crossOrigin);
  };

  /** Forwards a request to the emulator; CORS headers reach the caller only for what may cross origins. */
  const pass = (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, crossOrigin: boolean) => {
    const { expect: _expect, ...headers } = req.headers;
    const upstream = forward({ socketPath: options.socketPath, agent, method: req.method, path: req.url, headers }, (answer) => {
      const out = { ...answer.headers };
      if (!crossOrigin) for (const name of Object.keys(out)) if (name.startsWith('access-control-')) delete out[name];
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      // Closing cuts the requests still open (the pollers' long polls): not worth a warning.
      if (!closing) log.warn('emulator unreachable', { service, error: error.message });
      if (!res.headersSent) deny(res, 502, 'InternalError', 'Emulator unreachable.');
      else res.destroy();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log.warn('emulator front failed', { service, error: error.message });
      if (!res.headersSent) deny(res, 500, 'InternalError', 'Internal error.');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = CLIENT_IDLE_MS;
  const bound = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
