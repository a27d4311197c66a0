/**
 * The address guard through the API, at its three points:
 * - create: a background or webhook that names a refused address literally (the metadata service, a private
 *   address, IPv6 loopback, `localhost` on AWS) is a 400 naming the field, and nothing is recorded;
 * - render: a background whose name resolves to a refused address, or that redirects to one, fails the video
 *   with `background_not_allowed` naming the clip;
 * - delivery: a webhook whose name resolves to a refused address, or that redirects (307) to one, is refused
 *   once and not retried (state failed).
 * Cloud mode is the AWS behaviour. Redirects are tested in local mode, whose loopback servers can play the
 * allowed first hop (local mode refuses the metadata service and private ranges too).
 */
import { lookup } from 'node:dns/promises';
import { createReadStream, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress } from '#commons/net/address-guard';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import { makeSampleBackground } from '#infra/scripts/make-sample-background.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, clip, isTerminal, type PublicVideo, queueDepth, sleep, startReceiver } from '../../support/reliability.ts';

let workDir: string;
let backgroundPath: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'vidbot-guard-'));
  backgroundPath = await makeSampleBackground(join(workDir, 'bg.mp4'), { seconds: 1, audio: 'none', pattern: 'solid' });
}, 60_000);
afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Serves the sample background on one address (e.g. ::1); any other path answers `redirectTo` with a 307. */
async function serveBackground(host: string, redirectTo?: string) {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (redirectTo && req.url !== '/x.mp4') return void res.writeHead(307, { location: redirectTo }).end();
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': statSync(backgroundPath).size });
    createReadStream(backgroundPath).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  allowLoopbackPort((server.address() as AddressInfo).port);
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const expectRefusedBackground = (video: PublicVideo, clipIndex: number, url: string) => {
  expect(video.status).toBe('failed');
  expect(video.error).toMatchObject({ code: 'background_not_allowed', clip_index: clipIndex });
  // Our words only: neither the URL nor where it led (a redirect's target host would be an oracle).
  expect(video.error!.message).toBe(
    `clip ${clipIndex}: the background URL leads to an address we do not fetch from (private, loopback or link-local)`,
  );
  expect(video.error!.message).not.toContain(new URL(url).host);
};

const expectRefusedOnce = (video: PublicVideo) => {
  expect(video.webhook.state).toBe('failed');
  expect(video.webhook.attempts).toHaveLength(1);
  expect(video.webhook.attempts[0]).toMatchObject({ attempt: 1, status_code: null });
  expect(video.webhook.attempts[0]!.error).toBe('the webhook URL leads to an address we do not deliver to (private, loopback or link-local)');
};

/**
 * This machine's host name, if it resolves (through /etc/hosts, offline) only to addresses refused on AWS
 * (loopback here, a private address in most containers and CI runners): a name, not a literal, so only the
 * fetch-time guard can refuse it.
 */
async function refusedHostName(): Promise<string | undefined> {
  try {
    const addresses = await lookup(hostname(), { all: true });
    return addresses.length && addresses.every((a) => !checkAddress(a.address, 'cloud').allowed) ? hostname() : undefined;
  } catch {
    return undefined;
  }
}

describe('cloud mode', () => {
  let app: TestRuntime;
  let v6: Awaited<ReturnType<typeof serveBackground>>;
  let v4: Awaited<ReturnType<typeof serveBackground>>;
  let localName: string | undefined;
  beforeAll(async () => {
    // A retry would come at once (delays x 0.0002): "not retried" is then visible within seconds.
    app = await startTestRuntime({ mode: 'cloud', functionEnvironment: { VIDBOT_DELIVERY_DELAY_SCALE: '0.0002' } });
    v6 = await serveBackground('::1');
    v4 = await serveBackground('127.0.0.1');
    localName = await refusedHostName();
  }, 60_000);
  afterAll(async () => {
    await v6?.stop();
    await v4?.stop();
    await app?.stop();
  });

  it('refuses at create (400, naming the field) backgrounds and webhooks that name a refused address, recording nothing', async () => {
    const api = client(app);
    const before = await api.videoTotal();
    const refused = [
      { url: 'http://169.254.169.254/latest/meta-data', reason: 'metadata' },
      { url: 'http://10.0.0.1/x.mp4', reason: 'private' },
      { url: `http://[::1]:${v6.port}/x.mp4`, reason: 'loopback' },
      { url: `http://localhost:${v4.port}/x.mp4`, reason: 'loopback' },
      { url: 'http://[::ffff:169.254.169.254]/x.mp4', reason: 'metadata' },
      { url: 'http://2852039166/x.mp4', reason: 'metadata' }, // 169.254.169.254 as one decimal number
    ];
    for (const { url, reason } of refused) {
      // As the background of the second clip...
      const asBackground = await api.create({
        webhook: 'https://hooks.example.com/h',
        create_video: true,
        clips: [clip('Hi.'), clip('There.', { background: url })],
      });
      expect(asBackground.status, url).toBe(400);
      expect(asBackground.body.error?.details, url).toEqual([
        { path: 'clips[1].background', message: `points at an address vidbot does not connect to (${reason})` },
      ]);
      // ...and as the webhook.
      const asWebhook = await api.create({ webhook: url, create_video: false, clips: [clip('Hi.')] });
      expect(asWebhook.status, url).toBe(400);
      expect(asWebhook.body.error?.details, url).toEqual([
        { path: 'webhook', message: `points at an address vidbot does not connect to (${reason})` },
      ]);
    }
    expect(await api.videoTotal()).toBe(before);
    expect(v6.requests() + v4.requests()).toBe(0);
  }, 60_000);

  it('fails the video when the background name resolves to a refused address, and refuses such a webhook once', async (ctx) => {
    if (!localName) return ctx.skip(`the host name ${hostname()} does not resolve to a refused address here`);
    const api = client(app);
    const background = `http://${localName}:${v4.port}/x.mp4`;
    const receiver = await startReceiver(app.webhookSecret);
    const webhook = `http://${localName}:${receiver.port}/hooks/vidbot`;
    try {
      const failedId = await api.createOk({ webhook, create_video: true, clips: [clip('Hi.'), clip('There.', { background })] });
      const completedId = await api.createOk({ webhook, create_video: false, clips: [clip('Named hook.')] });
      const failed = await api.waitForVideo(
        failedId,
        (v) => isTerminal(v) && v.webhook.state !== 'pending' && v.webhook.state !== 'delivering',
        60_000,
        'the refused background',
      );
      expectRefusedBackground(failed, 1, background);
      expectRefusedOnce(failed);
      const completed = await api.waitForVideo(
        completedId,
        (v) => v.webhook.state === 'failed' || v.webhook.state === 'delivered',
        60_000,
        'the refused webhook',
      );
      expect(completed.status).toBe('completed');
      expectRefusedOnce(completed);
      // Still one attempt each a little later; nothing dead-lettered (the message was let go); nothing arrived.
      await sleep(3_000);
      for (const id of [failedId, completedId]) expect((await api.video(id)).webhook.attempts).toHaveLength(1);
      expect(await queueDepth(app, 'notify', 'dlq')).toBe(0);
      expect(receiver.hits).toHaveLength(0);
      expect(v4.requests()).toBe(0);
    } finally {
      await receiver.stop();
    }
  }, 90_000);
});

describe('local mode: redirects to refused addresses', () => {
  let app: TestRuntime;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    app = await startTestRuntime({ functionEnvironment: { VIDBOT_DELIVERY_DELAY_SCALE: '0.0002' } });
    files = await startFileServer({ '/x.mp4': backgroundPath });
    receiver = await startReceiver(app.webhookSecret);
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await files?.stop();
    await app?.stop();
  });

  it('fails the video when an allowed background URL redirects to the metadata service or a private address', async () => {
    const api = client(app);
    const targets = ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/x.mp4'];
    const ids = await Promise.all(
      targets.map((to) =>
        api.createOk({
          webhook: receiver.url,
          create_video: true,
          clips: [clip('Hi.', { background: `${files.base}/redirect?to=${encodeURIComponent(to)}` })],
        }),
      ),
    );
    for (const [i, id] of ids.entries()) {
      const video = await api.waitForVideo(
        id,
        (v) => isTerminal(v) && v.webhook.state === 'delivered',
        60_000,
        `the refusal of the redirect to ${targets[i]}`,
      );
      expectRefusedBackground(video, 0, `${files.base}/redirect`);
      expect(video.error!.message).not.toContain(new URL(targets[i]!).hostname);
      // The caller hears about it: a signed video.failed event.
      const [hit] = receiver.hitsFor(id);
      expect(hit?.verified).toBe(true);
      expect(JSON.parse(hit!.body)).toMatchObject({
        type: 'video.failed',
        data: { video_id: id, error: { code: 'background_not_allowed', clip_index: 0 } },
      });
    }
    // The first hop was made (it is allowed); the redirect target was never fetched.
    expect(files.requests.filter((p) => p === '/redirect')).toHaveLength(2);
  }, 90_000);

  it('refuses once, without retrying, a webhook that redirects (307) to the metadata service or a private address', async () => {
    const api = client(app);
    const targets = ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/hook'];
    const redirectors = await Promise.all(targets.map((to) => serveBackground('127.0.0.1', to)));
    try {
      const ids = await Promise.all(
        redirectors.map((r, i) =>
          api.createOk({ webhook: `http://127.0.0.1:${r.port}/hook`, create_video: false, clips: [clip(`Redirected hook ${i}.`)] }),
        ),
      );
      for (const id of ids) {
        const video = await api.waitForVideo(
          id,
          (v) => v.webhook.state === 'failed' || v.webhook.state === 'delivered',
          60_000,
          'the refused redirect',
        );
        expect(video.status).toBe('completed');
        expectRefusedOnce(video);
      }
      await sleep(3_000);
      for (const id of ids) expect((await api.video(id)).webhook.attempts).toHaveLength(1);
      // One POST to each redirector; the second hop was refused before connecting.
      expect(redirectors.map((r) => r.requests())).toEqual([1, 1]);
      expect(await queueDepth(app, 'notify', 'dlq')).toBe(0);
    } finally {
      await Promise.all(redirectors.map((r) => r.stop()));
    }
  }, 90_000);
});
