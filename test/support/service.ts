/**
 * The set-up the end-to-end suites share: the local runtime, a file server holding a sample background video
 * (at `${files.base}/background.mp4`), a webhook receiver with the runtime's secret, and a work directory.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleBackground, type SampleBackgroundOptions } from '#infra/scripts/make-sample-background.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { startTestRuntime, type TestRuntime } from './harness.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

export interface E2eService {
  app: TestRuntime;
  files: Awaited<ReturnType<typeof startFileServer>>;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  work: string;
}

export async function startE2eService(prefix: string, background: SampleBackgroundOptions): Promise<E2eService> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  const files = await startFileServer({ '/background.mp4': await makeSampleBackground(join(work, 'background.mp4'), background) });
  const app = await startTestRuntime();
  const receiver = await startWebhookReceiver(app.webhookSecret);
  return { app, files, receiver, work };
}

export async function stopE2eService(service: Partial<E2eService>): Promise<void> {
  await service.receiver?.stop();
  await service.files?.stop();
  await service.app?.stop();
}

/** fetch against the runtime with its API key. */
export const apiOf =
  (app: () => TestRuntime) =>
  (path: string, init: RequestInit = {}) =>
    fetch(`${app().baseUrl}${path}`, { ...init, headers: { ...app().authHeaders, ...(init.headers as Record<string, string>) } });

/** A video's webhook event once the receiver has it, and the video's record then (up to two minutes). */
export async function finishedVideo(service: Pick<E2eService, 'receiver'>, api: ReturnType<typeof apiOf>, videoId: string) {
  for (let i = 0; i < 600; i++) {
    const delivery = service.receiver.delivered().find((r) => r.event?.data.video_id === videoId);
    if (delivery) return { event: delivery.event!, video: (await (await api(`/v1/video/${videoId}`)).json()) as any };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no webhook for ${videoId}`);
}
