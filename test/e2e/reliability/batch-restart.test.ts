/**
 * A batch survives the service stopping in the middle of it. The local queues live in memory, so a restart loses
 * every message (the batch's next look, renders, events): the runtime finds the unsettled batch in its table and
 * queues a look again (infra/local/recover.ts). Every row is made once, none lost, none twice, and one
 * batch.completed follows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setVideosInProgressLimit } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { keyTarget } from '../../support/reliability.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const call = async (app: TestRuntime, path: string, init: RequestInit = {}) =>
  (await fetch(`${app.baseUrl}${path}`, { ...init, headers: { ...app.authHeaders, 'content-type': 'application/json' } })).json() as Promise<any>;

const NAMES = ['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara'];

describe('a batch across a restart', () => {
  it('finishes every row once after the service stops mid-batch and starts again on its data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-batch-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startTestRuntime({ dataDir });
    const receiver = await startWebhookReceiver(first.webhookSecret);
    cleanups.push(() => receiver.stop());
    // One video at a time: the batch takes its rows one by one, so the stop meets it half done.
    await setVideosInProgressLimit(keyTarget(first), first.tenantId, 1);
    const template = { name: 'Hello', create_video: false, clips: [{ bot_uid: 'bot_otto', text: 'Hello {{first_name}}.' }] };
    expect((await call(first, '/v1/templates/hello', { method: 'PUT', body: JSON.stringify(template) })).uid).toBe('hello');
    const created = await call(first, '/v1/templates/hello/batches', {
      method: 'POST',
      body: JSON.stringify({ webhook: receiver.url, rows: NAMES.map((first_name) => ({ first_name })) }),
    });
    expect(created.status).toBe('queued');
    await expect
      .poll(async () => (await call(first, `/v1/batches/${created.batch_id}`)).counts.completed, { timeout: 60_000, interval: 250 })
      .toBeGreaterThanOrEqual(2);
    const before = await call(first, `/v1/batches/${created.batch_id}`);
    expect(before.counts.pending, 'rows still waiting when the service stops').toBeGreaterThan(0);
    await first.stop();

    const second = await startTestRuntime({ dataDir });
    cleanups.push(() => second.stop());
    await expect
      .poll(() => receiver.delivered().filter((r) => r.event?.type === 'batch.completed').length, { timeout: 120_000, interval: 250 })
      .toBe(1);
    const batch = await call(second, `/v1/batches/${created.batch_id}`);
    expect(batch).toMatchObject({ status: 'completed', counts: { pending: 0, in_progress: 0, completed: NAMES.length, failed: 0, cancelled: 0 } });
    expect(batch.videos.map((row: any) => row.text)).toEqual(NAMES.map((name) => `Hello ${name}.`));
    // One video per row, none made twice.
    const { videos } = await call(second, '/v1/video?limit=100');
    expect(videos.map((v: any) => v.row).sort()).toEqual(NAMES.map((_, row) => row));
    const event = receiver.delivered().find((r) => r.event?.type === 'batch.completed')!;
    expect(event.verified).toBe(true);
    expect(event.event!.data).toMatchObject({ batch_id: created.batch_id, status: 'completed' });
  }, 240_000);
});
