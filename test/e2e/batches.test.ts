/**
 * Batches through the local service, as a caller uses them: a template with two variables and a shared outro, a
 * batch by CSV and one by JSON, every row's video completed with its words spoken, the outro rendered once, one
 * signed batch.completed; a bad CSV refused naming row and column with nothing made; paging; cancellation; rows
 * released as the account has room while its own creates still get through; one batch per Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setVideosInProgressLimit } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../support/harness.ts';
import { keyTarget } from '../support/reliability.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];

beforeAll(async () => {
  ({ app, files, receiver } = await startE2eService('vidbot-e2e-batches-', { seconds: 2 }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);
const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const csvForm = (csv: string, fields: Record<string, string> = {}) => {
  const form = new FormData();
  form.set('webhook', receiver.url);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('rows', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
  return { method: 'POST', body: form };
};

const outreach = {
  name: 'Outreach',
  create_video: false,
  clips: [
    { bot_uid: 'bot_ava', text: 'Hello {{first_name}}, from {{company|our studio}}.', clip_name: 'Hi {{first_name}}' },
    { bot_uid: 'bot_otto', text: 'Thanks for listening.', clip_name: 'Outro' },
  ],
};

/** The batch.completed event of a batch once the receiver has it (up to three minutes). */
async function batchEvent(batchId: string) {
  for (let i = 0; i < 900; i++) {
    const found = receiver.delivered().filter((r) => r.event?.type === 'batch.completed' && r.event.data.batch_id === batchId);
    if (found.length) return { event: found[0]!.event!, count: found.length };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no batch.completed for ${batchId}`);
}

/** Every row's video of a batch, read page by page with `limit`. */
async function allRows(batchId: string, limit: number) {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const page = (await (await api(`/v1/batches/${batchId}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).json()) as any;
    rows.push(...page.videos);
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

const videoCount = async () => ((await (await api('/v1/video?limit=100')).json()) as any).videos.length;

describe('batches, end to end', () => {
  beforeAll(async () => {
    expect((await api('/v1/templates/outreach', json('PUT', outreach))).status).toBe(200);
  });

  it('makes one video per CSV row: each says its values, the outro is rendered once, one signed batch.completed', async () => {
    const csv = 'first_name,company\nAda,Acme\nGrace,\n"Alan, Jr.",Bletchley\nKatherine,NASA\nEdsger,=1+2\n';
    const response = await api('/v1/templates/outreach/batches', csvForm(csv));
    expect(response.status).toBe(202);
    const created = (await response.json()) as any;
    expect(created).toEqual({
      batch_id: expect.stringMatching(/^bat_/),
      rows: 5,
      status: 'queued',
      url: `${app.baseUrl}/v1/batches/${created.batch_id}`,
    });

    const { event } = await batchEvent(created.batch_id);
    expect(event.data).toMatchObject({
      batch_id: created.batch_id,
      status: 'completed',
      rows: 5,
      counts: { pending: 0, in_progress: 0, completed: 5, failed: 0, cancelled: 0 },
      url: created.url,
    });
    // Without notify_each, the videos send no event of their own.
    const rows = await allRows(created.batch_id, 2);
    expect(rows.map((r) => [r.row, r.status])).toEqual([0, 1, 2, 3, 4].map((row) => [row, 'completed']));
    for (const row of rows) expect(receiver.delivered().some((r) => r.event?.data.video_id === row.video_id)).toBe(false);

    const said = [
      'Hello Ada, from Acme.',
      'Hello Grace, from our studio.',
      'Hello Alan, Jr., from Bletchley.',
      'Hello Katherine, from NASA.',
      'Hello Edsger, from =1+2.',
    ];
    let outroRenders = 0;
    for (const [index, row] of rows.entries()) {
      expect(row.download_url).toMatch(/^http/);
      // Voice only: no poster. The row shows its first clip as filled in.
      expect(row).toMatchObject({
        kind: 'audio',
        text: said[index],
        clip_name: `Hi ${['Ada', 'Grace', 'Alan, Jr.', 'Katherine', 'Edsger'][index]}`,
        thumbnail_url: null,
      });
      const video = (await (await api(`/v1/video/${row.video_id}`)).json()) as any;
      expect(video).toMatchObject({ batch_id: created.batch_id, row: index, webhook: { state: 'none' } });
      const vtt = await (await fetch(video.output.captions.vtt_url)).text();
      expect(vtt.replace(/\s+/g, ' ')).toContain(said[index]);
      if (!video.clips[1].cached) outroRenders++;
    }
    expect(outroRenders).toBe(1);
  });

  it('refuses a bad CSV naming its row and column, and a malformed one naming its line; nothing is made', async () => {
    const before = { videos: await videoCount(), batches: ((await (await api('/v1/batches')).json()) as any).batches.length };
    const missing = await api('/v1/templates/outreach/batches', csvForm('first_name,company\nAda,Acme\n,Initech\nBob,Globex\n'));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.details).toEqual([{ path: 'rows[1].first_name', message: 'is required (CSV line 3)' }]);

    const unknown = await api('/v1/templates/outreach/batches', csvForm('first_name,nickname\nAda,Ace\n'));
    expect(((await unknown.json()) as any).error.details[0].path).toBe('rows[0].nickname');
    const broken = await api('/v1/templates/outreach/batches', csvForm('first_name\n"Ada\n'));
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).error.details[0]).toEqual({
      path: 'rows',
      message: expect.stringMatching(/quoted cell is not closed \(line \d\)/),
    });
    const tooLong = await api('/v1/templates/outreach/batches', json('POST', { webhook: receiver.url, rows: [{ first_name: 'x'.repeat(1990) }] }));
    expect(((await tooLong.json()) as any).error.details[0].path).toBe('rows[0].first_name');
    const badWebhook = await api(
      '/v1/templates/outreach/batches',
      json('POST', { webhook: 'http://169.254.169.254/', rows: [{ first_name: 'A' }, { first_name: 'B' }] }),
    );
    expect(((await badWebhook.json()) as any).error.details).toEqual([{ path: 'webhook', message: expect.stringMatching(/does not connect to/) }]);

    // A dry run checks the rows the same way and shows the first row filled in, making nothing either.
    const dryBad = await api('/v1/templates/outreach/batches', csvForm('first_name,company\nAda,Acme\n,Initech\n', { dry_run: 'true' }));
    expect(dryBad.status).toBe(400);
    expect(((await dryBad.json()) as any).error.details).toEqual([{ path: 'rows[1].first_name', message: 'is required (CSV line 3)' }]);
    const dry = await api('/v1/templates/outreach/batches', csvForm('first_name,company\n"Ada, PhD",\nBob,Globex\n', { dry_run: 'true' }));
    expect(dry.status).toBe(200);
    expect(await dry.json()).toEqual({
      dry_run: true,
      template_uid: 'outreach',
      rows: 2,
      first_row: {
        row: 0,
        variables: { first_name: 'Ada, PhD' },
        clips: [
          { bot_uid: 'bot_ava', text: 'Hello Ada, PhD, from our studio.', clip_name: 'Hi Ada, PhD' },
          { bot_uid: 'bot_otto', text: 'Thanks for listening.', clip_name: 'Outro' },
        ],
      },
    });

    expect(await videoCount()).toBe(before.videos);
    expect(((await (await api('/v1/batches')).json()) as any).batches.length).toBe(before.batches);
  });

  it('takes JSON rows; an Idempotency-Key makes one batch; notify_each sends each video its event too', async () => {
    const body = { webhook: receiver.url, notify_each: true, rows: [{ first_name: 'Ada' }, { first_name: 'Linus', company: 'Kernel' }] };
    const first = (await (await api('/v1/templates/outreach/batches', json('POST', body, { 'Idempotency-Key': 'batch-1' }))).json()) as any;
    const again = (await (await api('/v1/templates/outreach/batches', json('POST', body, { 'Idempotency-Key': 'batch-1' }))).json()) as any;
    expect(again.batch_id).toBe(first.batch_id);
    const { event } = await batchEvent(first.batch_id);
    expect(event.data.status).toBe('completed');
    const rows = await allRows(first.batch_id, 10);
    await expect
      .poll(() => rows.every((row) => receiver.delivered().some((r) => r.event?.data.video_id === row.video_id)), { timeout: 30_000 })
      .toBe(true);
    expect(((await (await api('/v1/batches')).json()) as any).batches.filter((b: any) => b.batch_id === first.batch_id)).toHaveLength(1);
  });

  it('pages rows and refuses a cursor it did not give', async () => {
    const listed = ((await (await api('/v1/batches?limit=1')).json()) as any).batches[0];
    const page = (await (await api(`/v1/batches/${listed.batch_id}?limit=1`)).json()) as any;
    expect(page.videos).toHaveLength(1);
    expect(page.next_cursor).toBe('1');
    expect((await api(`/v1/batches/${listed.batch_id}?cursor=99`)).status).toBe(400);
    expect((await api(`/v1/batches/${listed.batch_id}?cursor=-1`)).status).toBe(400);
    expect((await api('/v1/batches/bat_nope')).status).toBe(404);
  });

  it('releases rows as the account has room: a batch bigger than its limit completes, and a single create still gets through', async () => {
    await setVideosInProgressLimit(keyTarget(app), app.tenantId, 2);
    try {
      const rows = ['Ana', 'Ben', 'Cy', 'Di', 'Ed'].map((first_name) => ({ first_name }));
      const created = (await (await api('/v1/templates/outreach/batches', json('POST', { webhook: receiver.url, rows }))).json()) as any;
      // The batch takes one of the two; the account's own create gets the other.
      await expect
        .poll(async () => ((await (await api(`/v1/batches/${created.batch_id}`)).json()) as any).status, { timeout: 20_000 })
        .toBe('running');
      const single = await api(
        '/v1/bot',
        json('POST', { webhook: receiver.url, create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Me too.' }] }),
      );
      expect(single.status).toBe(202);
      const { event } = await batchEvent(created.batch_id);
      expect(event.data).toMatchObject({ status: 'completed', counts: { completed: 5, failed: 0 } });
    } finally {
      await setVideosInProgressLimit(keyTarget(app), app.tenantId, 20);
    }
  });

  it('cancels what has not started: the rest are cancelled, batch.completed says so', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ first_name: `Row${i}` }));
    const created = (await (await api('/v1/templates/outreach/batches', json('POST', { webhook: receiver.url, rows }))).json()) as any;
    const cancelled = await api(`/v1/batches/${created.batch_id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(202);
    expect(((await cancelled.json()) as any).cancel_requested).toBe(true);
    const { event } = await batchEvent(created.batch_id);
    expect(event.data.status).toBe('cancelled');
    const { completed, cancelled: gone, failed } = event.data.counts;
    expect(gone).toBeGreaterThan(0);
    expect(completed + gone + failed).toBe(8);
    const states = (await allRows(created.batch_id, 100)).map((r) => r.status);
    expect(states.filter((s) => s === 'cancelled')).toHaveLength(gone);
    expect((await api(`/v1/batches/${created.batch_id}`, { method: 'DELETE' })).status).toBe(409);
  });
});
