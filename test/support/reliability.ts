/**
 * Shared by the reliability suites: a small client for the local runtime's API, queue depths, a key target for
 * infra/scripts/keys.ts, and a webhook receiver that can be started on a chosen port (to bring a "down"
 * receiver back at the same URL).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import type { KeyTarget } from '#infra/scripts/keys.ts';
import type { TestRuntime } from './harness.ts';
import { eventually } from './media.ts';
import { assertPublicMessage } from './public-errors.ts';

export { eventually };

/** A client of the runtime's emulators: they accept only its own credentials. */
const local = (app: TestRuntime) => ({ region: 'us-east-1', credentials: app.runtime.credentials });

/** The public video as GET /v1/video/{id} returns it (the fields the suites look at). */
export interface PublicVideo {
  video_id: string;
  status: 'queued' | 'rendering' | 'assembling' | 'completed' | 'failed';
  create_video: boolean;
  error: { code: string; message: string; clip_index: number | null } | null;
  webhook: {
    url: string;
    state: 'pending' | 'delivering' | 'delivered' | 'failed';
    attempts: { attempt: number; at: string; status_code: number | null; error: string | null; duration_ms: number }[];
  };
}

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

/** A clip for a create request. */
export const clip = (text: string, extra: Record<string, unknown> = {}) => ({ bot_uid: 'bot_ava', text, ...extra });

export function client(app: TestRuntime, authHeaders: Record<string, string> = app.authHeaders) {
  const url = (path: string) => `${app.baseUrl}${path}`;
  return {
    /** POST /v1/bot with a JSON body; returns status and parsed body. */
    async create(body: Record<string, unknown>, path = '/v1/bot') {
      const res = await fetch(url(path), {
        method: 'POST',
        headers: { ...authHeaders, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { video_id: string } & Partial<ErrorBody> };
    },
    /** Creates a video and fails the test unless it was accepted. */
    async createOk(body: Record<string, unknown>): Promise<string> {
      const { status, body: created } = await this.create(body);
      if (status !== 202) throw new Error(`create answered ${status}: ${JSON.stringify(created)}`);
      return created.video_id;
    },
    async video(id: string): Promise<PublicVideo> {
      const res = await fetch(url(`/v1/video/${id}`), { headers: authHeaders });
      if (res.status !== 200) throw new Error(`GET /v1/video/${id} answered ${res.status}`);
      const video = (await res.json()) as PublicVideo;
      // Every failure message any suite sees is checked for internals (paths, ffmpeg's text, addresses).
      assertPublicMessage(video.error?.message, `GET /v1/video/${id} error.message`);
      for (const attempt of video.webhook.attempts) assertPublicMessage(attempt.error, `GET /v1/video/${id} webhook attempt ${attempt.attempt}`);
      return video;
    },
    /** Polls the video until `done(video)` holds. */
    waitForVideo(id: string, done: (v: PublicVideo) => boolean, timeoutMs: number, what = 'the video') {
      return eventually(
        async () => {
          const v = await this.video(id);
          return done(v) ? v : undefined;
        },
        timeoutMs,
        `${what} (${id})`,
        300,
      );
    },
    /** The account's video total (GET /v1/account). */
    async videoTotal(): Promise<number> {
      const res = await fetch(url('/v1/account'), { headers: authHeaders });
      if (res.status !== 200) throw new Error(`GET /v1/account answered ${res.status}`);
      return ((await res.json()) as { videos: { total: number } }).videos.total;
    },
    fetch: (path: string, init: RequestInit = {}) =>
      fetch(url(path), { ...init, headers: { ...authHeaders, ...(init.headers as Record<string, string>) } }),
  };
}

export const isTerminal = (v: PublicVideo) => v.status === 'completed' || v.status === 'failed';

/** Messages in a queue or its DLQ: visible plus in flight plus delayed. */
export async function queueDepth(app: TestRuntime, queue: string, which: 'queue' | 'dlq'): Promise<number> {
  const sqs = new SQSClient({ ...local(app), endpoint: app.runtime.endpoints.sqs });
  try {
    const provisioned = app.runtime.queues[queue]!;
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: which === 'dlq' ? provisioned.dlqUrl : provisioned.url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return (
      Number(Attributes.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
      Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
    );
  } finally {
    sqs.destroy();
  }
}

/** The runtime's keys and accounts tables, for createKey/revokeKey of infra/scripts/keys.ts. */
export function keyTarget(app: TestRuntime): KeyTarget {
  const raw = new DynamoDBClient({ ...local(app), endpoint: app.runtime.endpoints.dynamodb });
  return {
    client: DynamoDBDocumentClient.from(raw),
    keysTable: app.runtime.names.table('keys'),
    accountsTable: app.runtime.names.table('accounts'),
    where: `test runtime at ${app.baseUrl}`,
  };
}

/** A port that was free a moment ago (nothing listens on it now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  /** The event's video id, if the body parsed. */
  videoId?: string;
  /** The signature verified with the receiver's secret. */
  verified: boolean;
  answer: number | 'hang';
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 (on `port` if given). `respond(n, videoId)` answers the n-th request for that
 * video (1-based): a status, or 'hang' to never answer.
 */
export async function startReceiver(
  secret: string,
  options: { port?: number; respond?: (n: number, videoId: string | undefined) => number | 'hang' } = {},
) {
  const hits: Hit[] = [];
  /** Webhook bodies whose error message carried internals (a receiver cannot throw into the test). */
  const leaks: string[] = [];
  const webhook = new Webhook(secret);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let videoId: string | undefined;
      let errorMessage: string | undefined;
      try {
        const event = JSON.parse(body) as { data?: { video_id?: string; error?: { message?: string } | null } };
        videoId = event.data?.video_id;
        errorMessage = event.data?.error?.message;
      } catch {
        videoId = undefined;
      }
      try {
        assertPublicMessage(errorMessage, `webhook for ${videoId}`);
      } catch (error) {
        leaks.push(String(error));
      }
      let verified = false;
      try {
        webhook.verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const n = hits.filter((h) => h.videoId === videoId).length + 1;
      const answer = options.respond?.(n, videoId) ?? 204;
      hits.push({ headers: req.headers, body, videoId, verified, answer, at: Date.now() });
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  allowLoopbackPort(port);
  const ok = (h: Hit) => typeof h.answer === 'number' && h.answer >= 200 && h.answer < 300;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/vidbot`,
    hits,
    leaks,
    /** Requests for this video answered 2xx. */
    deliveredFor: (videoId: string) => hits.filter((h) => h.videoId === videoId && ok(h)),
    hitsFor: (videoId: string) => hits.filter((h) => h.videoId === videoId),
    /** Stops the receiver; fails if any webhook it received carried internals in its error message. */
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close(() => (leaks.length ? reject(new Error(leaks.join('\n'))) : resolve()));
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
